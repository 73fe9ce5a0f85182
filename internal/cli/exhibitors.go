package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/words"
)

// addExhibitorsCommands adds `evdesk exhibitors list|create`.
func addExhibitorsCommands(root *cobra.Command, f *Factory) {
	cmd := &cobra.Command{
		Use:   "exhibitors",
		Short: "List and add the exhibitors and sponsors of a conference event (for scripts)",
		Long: "Exhibitors and sponsors belong to conference (multi-session) events; other events answer\n" +
			"error 1006. A sponsor needs its tier id; a tier applies only to sponsors.",
	}
	cmd.AddCommand(newExhibitorsListCmd(f), newExhibitorsCreateCmd(f))
	root.AddCommand(cmd)
}

func newExhibitorsListCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json", "csv")
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk exhibitors list Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List exhibitors and sponsors with their tiers",
		Args:    cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			list, err := s.client.Exhibitors.List(cmd.Context(), args[0])
			if err != nil {
				return exhibitorsError(err)
			}
			w := cmd.OutOrStdout()
			if out.value == "json" {
				return writeJSON(w, list)
			}
			rows := make([][]string, len(list))
			for i, x := range list {
				kind := "exhibitor"
				if x.IsSponsor {
					kind = "sponsor"
				}
				rows[i] = []string{x.ExhibitorID, x.Name, kind, words.OrDash(x.TierID), x.ContactName, x.ContactEmail,
					fmt.Sprint(len(x.AssociatedSessions)), words.OrDash(x.Website)}
			}
			return out.writeRows(w, []string{"ID", "NAME", "KIND", "TIER", "CONTACT", "EMAIL", "SESSIONS", "WEBSITE"}, rows)
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	return cmd
}

func newExhibitorsCreateCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	var req api.ExhibitorCreate
	cmd := &cobra.Command{
		Use:   "create EVENT_ID --name NAME --contact-name NAME --contact-email ADDRESS [--sponsor --tier TIER_ID]",
		Short: "Add an exhibitor or sponsor",
		Example: "  evdesk exhibitors create EVENT_ID --name \"Contoso Catering\" --contact-name \"Lee Park\" \\\n" +
			"    --contact-email lee@contoso.example --sponsor --tier TIER_ID --website https://contoso.example",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Check before connecting, with the rules the client applies.
			if err := req.Validate(); err != nil {
				return err
			}
			return f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
				x, err := s.client.Exhibitors.Create(cmd.Context(), args[0], req)
				if err != nil {
					return exhibitorsError(err)
				}
				if out.value == "json" {
					return writeJSON(cmd.OutOrStdout(), x)
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "added %s (%s)\n", x.Name, x.ExhibitorID)
				return err
			})(cmd, args)
		},
	}
	fl := cmd.Flags()
	fl.VarP(out, "output", "o", "output format: table or json")
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
