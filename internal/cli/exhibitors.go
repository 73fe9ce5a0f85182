package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/tiernames"
	"github.com/evdesk/evdesk/internal/words"
)

// newExhibitorsCmd is `evdesk exhibitors list|create|name-tier`.
func newExhibitorsCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "exhibitors",
		Short: "List and add the exhibitors and sponsors of a conference event (for scripts)",
		Long: "Exhibitors and sponsors belong to conference (multi-session) events; other events answer\n" +
			"error 1006. A sponsor needs its tier id; a tier applies only to sponsors. The API names\n" +
			"tiers by id only: name-tier gives a tier a name that tables show in its place.",
	}
	cmd.AddCommand(newExhibitorsListCmd(f, nil), writing(newExhibitorsCreateCmd(f, nil)), newExhibitorsNameTierCmd(f, nil))
	return cmd
}

// exhibitorsOptions are the exhibitor commands' options.
type exhibitorsOptions struct {
	deps
	Export  *exporter
	EventID string
	Create  api.ExhibitorCreate
}

func newExhibitorsListCmd(f *Factory, runF runFunc[exhibitorsOptions]) *cobra.Command {
	o := &exhibitorsOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk exhibitors list Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List exhibitors and sponsors with their tiers (by name where named; json and csv keep the ids)",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, exhibitorsListRun)
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	return cmd
}

func exhibitorsListRun(ctx context.Context, o *exhibitorsOptions) error {
	return o.inSession(ctx, func(s *session) error {
		list, err := s.client.Exhibitors.List(ctx, o.EventID)
		if err != nil {
			return exhibitorsError(err)
		}
		// Tables name the tiers; CSV, like JSON, keeps the service's ids.
		names := tiernames.Names{}
		if o.Export.Is(formatTable) {
			if names, err = tiernames.Load(tiernames.Path()); err != nil { // the list is still worth having
				fmt.Fprintf(o.IO.ErrOut, "evdesk: warning: tier names not read, ids shown: %v\n", err)
			}
		}
		return o.Export.Write(o.IO.Out, list, func(bool) rows {
			r := rows{header: []string{"ID", "NAME", "KIND", "TIER", "CONTACT", "EMAIL", "SESSIONS", "WEBSITE"}}
			for _, x := range list {
				kind := "exhibitor"
				if x.IsSponsor {
					kind = "sponsor"
				}
				r.cells = append(r.cells, []string{x.ExhibitorID, x.Name, kind, words.OrDash(names.Label(x.TierID)), x.ContactName,
					x.ContactEmail, fmt.Sprint(len(x.AssociatedSessions)), words.OrDash(x.Website)})
			}
			return r
		})
	})
}

func newExhibitorsCreateCmd(f *Factory, runF runFunc[exhibitorsOptions]) *cobra.Command {
	o := &exhibitorsOptions{deps: f.deps()}
	req := &o.Create
	cmd := &cobra.Command{
		Use:   "create EVENT_ID --name NAME --contact-name NAME --contact-email ADDRESS [--sponsor --tier TIER_ID]",
		Short: "Add an exhibitor or sponsor",
		Example: "  evdesk exhibitors create EVENT_ID --name \"Contoso Catering\" --contact-name \"Lee Park\" \\\n" +
			"    --contact-email lee@contoso.example --sponsor --tier TIER_ID --website https://contoso.example",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			// Check before connecting, with the rules the client applies.
			if err := req.Validate(); err != nil {
				return err
			}
			return run(cmd, o, runF, func(ctx context.Context, o *exhibitorsOptions) error {
				return o.inSession(ctx, func(s *session) error {
					x, err := s.client.Exhibitors.Create(ctx, o.EventID, o.Create)
					if err != nil {
						return exhibitorsError(err)
					}
					return o.Export.WriteText(o.IO.Out, x, func(w io.Writer) error {
						_, err := fmt.Fprintf(w, "added %s (%s)\n", x.Name, x.ExhibitorID)
						return err
					})
				})
			})
		},
	}
	fl := cmd.Flags()
	o.Export = addExporter(cmd, formatTable, formatJSON)
	fl.StringVar(&req.Name, "name", "", "exhibitor name (required)")
	fl.StringVar(&req.ContactName, "contact-name", "", "contact's full name (required)")
	fl.StringVar(&req.ContactEmail, "contact-email", "", "contact's email address (required)")
	fl.BoolVar(&req.IsSponsor, "sponsor", false, "the exhibitor is a sponsor (needs --tier)")
	fl.StringVar(&req.TierID, "tier", "", "sponsor tier id of the event (sponsors only)")
	fl.StringSliceVar(&req.AssociatedSessions, "session", nil, "associated session id (repeat or comma-separate)")
	fl.StringVar(&req.Description, "description", "", "description")
	for _, l := range []struct {
		name string
		dst  *string
	}{{"website", &req.Website}, {"privacy-policy", &req.PrivacyPolicy}, {"linkedin", &req.LinkedInURL},
		{"twitter", &req.TwitterURL}, {"youtube", &req.YouTubeURL}, {"instagram", &req.InstagramURL},
		{"facebook", &req.FacebookURL}} {
		fl.StringVar(l.dst, l.name, "", strings.ReplaceAll(l.name, "-", " ")+" URL (https://...)")
	}
	return cmd
}

// nameTierOptions are name-tier's: the tier, its name ("" with Clear) and
// the file the names are kept in.
type nameTierOptions struct {
	deps
	TierID, Name string
	Clear        bool
	Path         string // tiers.toml
}

func newExhibitorsNameTierCmd(f *Factory, runF runFunc[nameTierOptions]) *cobra.Command {
	o := &nameTierOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "name-tier TIER_ID NAME",
		Short: "Give a sponsor tier a name that tables show in place of its id (kept on this computer)",
		Long: "The API names sponsor tiers by id only. name-tier keeps a name for a tier id in\n" +
			"tiers.toml in the config directory; `exhibitors list` and the console show it in place of\n" +
			"the id (-o json keeps the id). A name is one line of at most 40 characters; --clear\n" +
			"forgets it.",
		Example: "  evdesk exhibitors name-tier VlktEmPVBS8maDiNi3XaqD Platinum\n" +
			"  evdesk exhibitors name-tier VlktEmPVBS8maDiNi3XaqD --clear",
		Args: func(cmd *cobra.Command, args []string) error {
			if o.Clear && len(args) == 2 {
				return flagErrorf("--clear forgets the name: give only TIER_ID")
			}
			if o.Clear {
				return cobra.ExactArgs(1)(cmd, args)
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.TierID = args[0]
			if !o.Clear {
				if o.Name = strings.TrimSpace(args[1]); o.Name == "" {
					return flagErrorf("tier name is empty: give a name such as Gold, or use --clear to show the id again")
				}
			}
			o.Path = tiernames.Path()
			return run(cmd, o, runF, nameTierRun)
		},
	}
	cmd.Flags().BoolVar(&o.Clear, "clear", false, "forget the tier's name, so its id shows again")
	return cmd
}

func nameTierRun(_ context.Context, o *nameTierOptions) error {
	if _, err := tiernames.Set(o.Path, o.TierID, o.Name); err != nil {
		return err
	}
	if o.Clear {
		_, err := fmt.Fprintf(o.IO.Out, "tier %s shows its id again (%s)\n", o.TierID, o.Path)
		return err
	}
	_, err := fmt.Fprintf(o.IO.Out, "tier %s is named %s (%s)\n", o.TierID, o.Name, o.Path)
	return err
}

// exhibitorsError adds what to do to the spec's exhibitor codes.
func exhibitorsError(err error) error {
	switch {
	case api.IsCode(err, api.CodeUnsupportedEventType):
		return fmt.Errorf("%w: only conference (multi-session) events have exhibitors", err)
	case api.IsCode(err, api.CodeNotHost):
		return fmt.Errorf("%w: ask a host of the event to add you as a co-editor or host", err)
	}
	return err
}
