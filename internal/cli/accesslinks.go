package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
)

// newLinksCmd is `evdesk links list|get|create|update|default|delete`.
func newLinksCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "links",
		Aliases: []string{"access-links"},
		Short:   "List, create, change and delete the access links of an event (for scripts)",
		Long: "Access links are how people register for or join an event: registration links (people register,\n" +
			"then join with that email) and group-join links (a group joins without registering).\n" +
			"Authentication methods: " + strings.Join(api.AuthMethods, ", ") + ".",
	}
	cmd.AddCommand(newLinksListCmd(f, nil), newLinksGetCmd(f, nil), writing(newLinksCreateCmd(f, nil)),
		writing(newLinksUpdateCmd(f, nil)), writing(newLinksDefaultCmd(f, nil)), writing(newLinksDeleteCmd(f, nil)))
	return cmd
}

func linkRows(links []api.AccessLink) rows {
	r := rows{header: []string{"ID", "NAME", "TYPE", "AUTH", "DEFAULT", "RECURRING", "URL"}}
	for _, l := range links {
		def := ""
		if l.IsDefault {
			def = "yes"
		}
		r.cells = append(r.cells, []string{l.AccessLinkID, l.Name, l.Type, api.AuthMethodLabel(l.AuthenticationMethod), def,
			api.RecurringOptionLabel(l.RecurringRegistrationOption), l.URL})
	}
	return r
}

// writeLink prints one link as a one-row table or as JSON.
func writeLink(o deps, e *exporter, l *api.AccessLink) error {
	return e.Write(o.IO.Out, l, func(bool) rows { return linkRows([]api.AccessLink{*l}) })
}

// linkOptions are an event's link commands' options.
type linkOptions struct {
	deps
	Export           *exporter
	EventID, LinkID  string
	Create           api.AccessLinkCreate
	Update           api.AccessLinkUpdate
	TicketType       string // id or name, resolved in the run
	EmailAtJoin      bool
	SecurityCodeFlag bool
	SecurityChanged  bool
}

func newLinksListCmd(f *Factory, runF runFunc[linkOptions]) *cobra.Command {
	o := &linkOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk links list Hb8d7l7QX88AmGvnKn9SMZ\n  evdesk links list Hb8d7l7QX88AmGvnKn9SMZ -o json",
		Short:   "List an event's access links",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, linksListRun)
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	return cmd
}

func linksListRun(ctx context.Context, o *linkOptions) error {
	return o.inSession(ctx, func(s *session) error {
		links, err := s.client.AccessLinks.List(ctx, o.EventID)
		if err != nil {
			return err
		}
		return o.Export.Write(o.IO.Out, links, func(bool) rows { return linkRows(links) })
	})
}

func newLinksGetCmd(f *Factory, runF runFunc[linkOptions]) *cobra.Command {
	o := &linkOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "get EVENT_ID LINK_ID",
		Example: "  evdesk links get Hb8d7l7QX88AmGvnKn9SMZ z0WONFjEOdK8Zcy6HMi7Vz",
		Short:   "Show one access link",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID, o.LinkID = args[0], args[1]
			return run(cmd, o, runF, func(ctx context.Context, o *linkOptions) error {
				return o.inSession(ctx, func(s *session) error {
					l, err := s.client.AccessLinks.Get(ctx, o.EventID, o.LinkID)
					if err != nil {
						return err
					}
					return writeLink(o.deps, o.Export, l)
				})
			})
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

func newLinksCreateCmd(f *Factory, runF runFunc[linkOptions]) *cobra.Command {
	o := &linkOptions{deps: f.deps()}
	in := &o.Create
	cmd := &cobra.Command{
		Use:   "create EVENT_ID --name NAME [--type registration|group-join] [--auth METHOD] ...",
		Short: "Create an access link",
		Long: "Create an access link. --domain (at most 50) restricts registration to those domains; --only-email\n" +
			"restricts it to those addresses. --ticket-type (an id or a name) applies to group-join links only;\n" +
			"--recurring (" + strings.Join(api.RecurringOptions, ", ") + ") to recurring events only.",
		Example: "  evdesk links create Hb8d7l7QX88AmGvnKn9SMZ --name Partners --type group-join --ticket-type \"General admission\"",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			if o.EmailAtJoin || o.SecurityCodeFlag {
				in.SecurityAtJoin = &api.SecurityAtJoin{EmailAuthentication: o.EmailAtJoin, SecurityCodeVerification: o.SecurityCodeFlag}
			}
			if o.TicketType != "" {
				in.TicketTypeID = o.TicketType // checked by Validate; resolved by name in the run
			}
			if err := in.Validate(); err != nil { // before signing in
				return err
			}
			return run(cmd, o, runF, linksCreateRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&in.Name, "name", "", "link name, unique within the event (required)")
	fl.StringVar(&in.Type, "type", api.LinkRegistration, "registration or group-join")
	fl.StringVar(&in.AuthenticationMethod, "auth", api.AuthAccountOTP, "authentication method: "+strings.Join(api.AuthMethods, ", "))
	fl.StringVar(&in.IdPName, "idp", "", "identity provider name (corporate_idp only)")
	fl.BoolVar(&in.IsDefault, "default", false, "make it the event's default link")
	fl.StringSliceVar(&in.AllowDomainList, "domain", nil, "allowed domain (repeat or comma-separate; at most 50)")
	fl.StringSliceVar(&in.EmailRestrictList, "only-email", nil, "only this address may register (repeat or comma-separate)")
	fl.StringVar(&in.RecurringRegistrationOption, "recurring", "", "recurring registration option: "+strings.Join(api.RecurringOptions, ", "))
	fl.StringVar(&o.TicketType, "ticket-type", "", "ticket type, by id or name (group-join links only)")
	fl.BoolVar(&o.EmailAtJoin, "email-at-join", false, "require the registration email at join (registration links)")
	fl.BoolVar(&o.SecurityCodeFlag, "security-code", false, "require a security code at join")
	registerLinkCompletions(f, cmd)
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

func linksCreateRun(ctx context.Context, o *linkOptions) error {
	return o.inSession(ctx, func(s *session) error {
		in := o.Create
		if o.TicketType != "" {
			id, err := resolveTicketType(ctx, s.client, o.EventID, o.TicketType)
			if err != nil {
				return err
			}
			in.TicketTypeID = id
		}
		if in.RecurringRegistrationOption != "" {
			if ev, err := s.client.Events.Get(ctx, o.EventID); err == nil {
				in.EventType = ev.EventType
			}
		}
		l, err := s.client.AccessLinks.Create(ctx, o.EventID, &in)
		if err != nil {
			return err
		}
		return writeLink(o.deps, o.Export, l)
	})
}

func newLinksUpdateCmd(f *Factory, runF runFunc[linkOptions]) *cobra.Command {
	o := &linkOptions{deps: f.deps()}
	var name, auth, idp, recurring string
	var domains, emails []string
	cmd := &cobra.Command{
		Use:   "update EVENT_ID LINK_ID [--name NAME] [--auth METHOD] ...",
		Short: "Change an access link: only the flags given are sent",
		Long: "Change an access link. Only the flags given are changed; --domain and --only-email replace\n" +
			"their lists (give an empty value, --domain \"\", to clear one). --ticket-type takes an id or a name.",
		Example: "  evdesk links update Hb8d7l7QX88AmGvnKn9SMZ z0WONFjEOdK8Zcy6HMi7Vz --name \"Press\" --domain press.example.org",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID, o.LinkID = args[0], args[1]
			fl, u := cmd.Flags(), &o.Update
			str := func(flag string, v string, dst **string) {
				if fl.Changed(flag) {
					*dst = &v
				}
			}
			str("name", name, &u.Name)
			str("auth", auth, &u.AuthenticationMethod)
			str("idp", idp, &u.IdPName)
			str("recurring", recurring, &u.RecurringRegistrationOption)
			str("ticket-type", o.TicketType, &u.TicketTypeID)
			list := func(flag string, v []string, dst **[]string) {
				if fl.Changed(flag) {
					v = dropBlank(v)
					*dst = &v
				}
			}
			list("domain", domains, &u.AllowDomainList)
			list("only-email", emails, &u.EmailRestrictList)
			if fl.Changed("email-at-join") || fl.Changed("security-code") {
				o.SecurityChanged = true
			}
			if *u == (api.AccessLinkUpdate{}) && !o.SecurityChanged {
				return flagErrorf("nothing to change: give at least one of --name, --auth, --idp, --domain, --only-email, --recurring, --ticket-type, --email-at-join, --security-code")
			}
			if err := u.Validate(); err != nil {
				return err
			}
			return run(cmd, o, runF, linksUpdateRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&name, "name", "", "new link name")
	fl.StringVar(&auth, "auth", "", "authentication method: "+strings.Join(api.AuthMethods, ", "))
	fl.StringVar(&idp, "idp", "", "identity provider name (corporate_idp only)")
	fl.StringSliceVar(&domains, "domain", nil, "allowed domains, replacing the list (repeat or comma-separate)")
	fl.StringSliceVar(&emails, "only-email", nil, "only these addresses may register, replacing the list")
	fl.StringVar(&recurring, "recurring", "", "recurring registration option: "+strings.Join(api.RecurringOptions, ", "))
	fl.StringVar(&o.TicketType, "ticket-type", "", "ticket type, by id or name (group-join links only)")
	fl.BoolVar(&o.EmailAtJoin, "email-at-join", false, "require the registration email at join")
	fl.BoolVar(&o.SecurityCodeFlag, "security-code", false, "require a security code at join")
	registerLinkCompletions(f, cmd)
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

// dropBlank removes empty items (--domain "" clears the list).
func dropBlank(list []string) []string {
	out := []string{}
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func linksUpdateRun(ctx context.Context, o *linkOptions) error {
	return o.inSession(ctx, func(s *session) error {
		u := o.Update
		// The link's and the event's types decide which fields apply; the
		// security settings change one at a time from what they are.
		was, err := s.client.AccessLinks.Get(ctx, o.EventID, o.LinkID)
		if err != nil {
			return err
		}
		u.LinkType = was.Type
		if u.RecurringRegistrationOption != nil {
			if ev, err := s.client.Events.Get(ctx, o.EventID); err == nil {
				u.EventType = ev.EventType
			}
		}
		if u.TicketTypeID != nil && *u.TicketTypeID != "" {
			id, err := resolveTicketType(ctx, s.client, o.EventID, *u.TicketTypeID)
			if err != nil {
				return err
			}
			u.TicketTypeID = &id
		}
		if o.SecurityChanged {
			sec := api.SecurityAtJoin{}
			if was.SecurityAtJoin != nil {
				sec = *was.SecurityAtJoin
			}
			sec.EmailAuthentication, sec.SecurityCodeVerification = o.EmailAtJoin, o.SecurityCodeFlag
			u.SecurityAtJoin = &sec
		}
		if err := s.client.AccessLinks.Update(ctx, o.EventID, o.LinkID, &u); err != nil {
			return err
		}
		return showLink(ctx, s, o)
	})
}

// showLink prints the link as the server now has it.
func showLink(ctx context.Context, s *session, o *linkOptions) error {
	l, err := s.client.AccessLinks.Get(ctx, o.EventID, o.LinkID)
	if err != nil {
		return err
	}
	return writeLink(o.deps, o.Export, l)
}

func newLinksDefaultCmd(f *Factory, runF runFunc[linkOptions]) *cobra.Command {
	o := &linkOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "default EVENT_ID LINK_ID",
		Example: "  evdesk links default Hb8d7l7QX88AmGvnKn9SMZ z0WONFjEOdK8Zcy6HMi7Vz",
		Short:   "Make an access link the event's default (the one shared when none is named)",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID, o.LinkID = args[0], args[1]
			yes := true
			o.Update = api.AccessLinkUpdate{IsDefault: &yes}
			return run(cmd, o, runF, func(ctx context.Context, o *linkOptions) error {
				return o.inSession(ctx, func(s *session) error {
					if err := s.client.AccessLinks.Update(ctx, o.EventID, o.LinkID, &o.Update); err != nil {
						return err
					}
					return showLink(ctx, s, o)
				})
			})
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

func newLinksDeleteCmd(f *Factory, runF runFunc[linkOptions]) *cobra.Command {
	o := &linkOptions{deps: f.deps()}
	return &cobra.Command{
		Use:     "delete EVENT_ID LINK_ID",
		Example: "  evdesk links delete Hb8d7l7QX88AmGvnKn9SMZ z0WONFjEOdK8Zcy6HMi7Vz",
		Short:   "Delete an access link",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID, o.LinkID = args[0], args[1]
			return run(cmd, o, runF, func(ctx context.Context, o *linkOptions) error {
				return o.inSession(ctx, func(s *session) error {
					if err := s.client.AccessLinks.Delete(ctx, o.EventID, o.LinkID); err != nil {
						return err
					}
					fmt.Fprintf(o.IO.Out, "deleted access link %s\n", o.LinkID)
					return nil
				})
			})
		},
	}
}

// resolveTicketType finds a ticket type by id or by name (any case): a
// script names "General admission" rather than tt_8f2a.
func resolveTicketType(ctx context.Context, c *api.Client, eventID, v string) (string, error) {
	types, err := c.Registration.TicketTypes(ctx, eventID)
	if err != nil {
		return "", err
	}
	var named []string
	want := strings.TrimSpace(v)
	for _, t := range types {
		if t.TicketTypeID == want {
			return t.TicketTypeID, nil
		}
	}
	var found []string
	for _, t := range types {
		if strings.EqualFold(strings.TrimSpace(t.Name), want) {
			found = append(found, t.TicketTypeID)
		}
		named = append(named, fmt.Sprintf("%q (%s)", t.Name, t.TicketTypeID))
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return "", fmt.Errorf("--ticket-type %q: %d ticket types have that name (%s): give the id", v, len(found), strings.Join(found, ", "))
	case len(named) == 0:
		return "", fmt.Errorf("--ticket-type %q: event %s has no ticket types", v, eventID)
	}
	return "", fmt.Errorf("--ticket-type %q: no such ticket type; event %s has %s", v, eventID, strings.Join(named, ", "))
}
