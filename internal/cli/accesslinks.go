package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
)

// addAccessLinksCommands adds `evdesk links list|get|create|delete`.
func addAccessLinksCommands(root *cobra.Command, f *Factory) {
	cmd := &cobra.Command{
		Use:     "links",
		Aliases: []string{"access-links"},
		Short:   "List, create and delete the access links of an event (for scripts)",
		Long: "Access links are how people register for or join an event: registration links (people register,\n" +
			"then join with that email) and group-join links (a group joins without registering).\n" +
			"Authentication methods: " + strings.Join(api.AuthMethods, ", ") + ".",
	}
	cmd.AddCommand(newLinksListCmd(f), newLinksGetCmd(f), newLinksCreateCmd(f), newLinksDeleteCmd(f))
	root.AddCommand(cmd)
}

func linkRows(links []api.AccessLink) [][]string {
	rows := make([][]string, len(links))
	for i, l := range links {
		def := ""
		if l.IsDefault {
			def = "yes"
		}
		rows[i] = []string{l.AccessLinkID, l.Name, l.Type, api.AuthMethodLabel(l.AuthenticationMethod), def,
			api.RecurringOptionLabel(l.RecurringRegistrationOption), l.URL}
	}
	return rows
}

var linkHeader = []string{"ID", "NAME", "TYPE", "AUTH", "DEFAULT", "RECURRING", "URL"}

func newLinksListCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json", "csv")
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk links list Hb8d7l7QX88AmGvnKn9SMZ\n  evdesk links list Hb8d7l7QX88AmGvnKn9SMZ -o json",
		Short:   "List an event's access links",
		Args:    cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			links, err := s.client.AccessLinks.List(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if out.value == "json" {
				return writeJSON(cmd.OutOrStdout(), links)
			}
			return out.writeRows(cmd.OutOrStdout(), linkHeader, linkRows(links))
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	return cmd
}

func newLinksGetCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	cmd := &cobra.Command{
		Use:     "get EVENT_ID LINK_ID",
		Example: "  evdesk links get Hb8d7l7QX88AmGvnKn9SMZ z0WONFjEOdK8Zcy6HMi7Vz",
		Short:   "Show one access link",
		Args:    cobra.ExactArgs(2),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			l, err := s.client.AccessLinks.Get(cmd.Context(), args[0], args[1])
			if err != nil {
				return err
			}
			if out.value == "json" {
				return writeJSON(cmd.OutOrStdout(), l)
			}
			return out.writeRows(cmd.OutOrStdout(), linkHeader, linkRows([]api.AccessLink{*l}))
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table or json")
	return cmd
}

func newLinksCreateCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	var in api.AccessLinkCreate
	var emailAuth, securityCode bool
	cmd := &cobra.Command{
		Use:   "create EVENT_ID --name NAME [--type registration|group-join] [--auth METHOD] ...",
		Short: "Create an access link",
		Long: "Create an access link. --domain (at most 50) restricts registration to those domains; --only-email\n" +
			"restricts it to those addresses. --ticket-type applies to group-join links only; --recurring\n" +
			"(" + strings.Join(api.RecurringOptions, ", ") + ") to recurring events only.",
		Args: cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			if emailAuth || securityCode {
				in.SecurityAtJoin = &api.SecurityAtJoin{EmailAuthentication: emailAuth, SecurityCodeVerification: securityCode}
			}
			if err := in.Validate(); err != nil { // before signing in
				return err
			}
			if in.RecurringRegistrationOption != "" {
				if ev, err := s.client.Events.Get(cmd.Context(), args[0]); err == nil {
					in.EventType = ev.EventType
				}
			}
			l, err := s.client.AccessLinks.Create(cmd.Context(), args[0], &in)
			if err != nil {
				return err
			}
			if out.value == "json" {
				return writeJSON(cmd.OutOrStdout(), l)
			}
			return out.writeRows(cmd.OutOrStdout(), linkHeader, linkRows([]api.AccessLink{*l}))
		}),
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
	fl.StringVar(&in.TicketTypeID, "ticket-type", "", "ticket type id (group-join links only)")
	fl.BoolVar(&emailAuth, "email-at-join", false, "require the registration email at join (registration links)")
	fl.BoolVar(&securityCode, "security-code", false, "require a security code at join")
	cmd.Flags().VarP(out, "output", "o", "output format: table or json")
	return cmd
}

func newLinksDeleteCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "delete EVENT_ID LINK_ID",
		Example: "  evdesk links delete Hb8d7l7QX88AmGvnKn9SMZ z0WONFjEOdK8Zcy6HMi7Vz",
		Short:   "Delete an access link",
		Args:    cobra.ExactArgs(2),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			if err := s.client.AccessLinks.Delete(cmd.Context(), args[0], args[1]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "deleted access link %s\n", args[1])
			return nil
		}),
	}
}
