package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// addCoeditorsCommands adds `evdesk coeditors list|add|update|remove`.
func addCoeditorsCommands(root *cobra.Command, f *Factory) {
	cmd := &cobra.Command{
		Use:   "coeditors",
		Short: "List and change the co-editors of an event (for scripts)",
		Long: "Co-editors may change an event's details and view all its sections; their permission groups say\n" +
			"which sections they may edit. Groups: " + strings.Join(api.PermissionGroupValues(), ", ") + ".\n" +
			"--groups takes a comma-separated list of groups or their labels (any case), \"all\" or \"none\".",
	}
	cmd.AddCommand(newCoeditorsListCmd(f),
		newCoeditorsChangeCmd(f, api.CoeditorAdd, "add EVENT_ID --email ADDRESS... --groups GROUPS", "Add co-editors with the given groups"),
		newCoeditorsChangeCmd(f, api.CoeditorUpdate, "update EVENT_ID --email ADDRESS... --groups GROUPS", "Set the groups of co-editors (replacing theirs)"),
		newCoeditorsChangeCmd(f, api.CoeditorDelete, "remove EVENT_ID --email ADDRESS...", "Remove co-editors"))
	root.AddCommand(cmd)
}

func newCoeditorsListCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json", "csv")
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk coeditors list Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List co-editors and the sections each may edit",
		Args:    cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			list, err := s.client.Coeditors.List(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if out.value == "json" {
				return writeJSON(w, list)
			}
			rows := make([][]string, len(list))
			for i, c := range list {
				groups := strings.Join(c.PermissionGroups, ",")
				if out.value == "table" {
					groups = api.PermissionLabels(c.PermissionGroups)
				}
				rows[i] = []string{c.Email, fmt.Sprint(len(c.PermissionGroups)), groups}
			}
			return out.writeRows(w, []string{"EMAIL", "GROUPS", "CAN EDIT"}, rows)
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	return cmd
}

// coeditorOutcome is one address's result, as printed.
type coeditorOutcome struct {
	Email   string `json:"email"`
	Result  string `json:"result"` // "ok" or "refused"
	Message string `json:"message,omitempty"`
}

func newCoeditorsChangeCmd(f *Factory, op, use, short string) *cobra.Command {
	out := newOutput("table", "json", "csv")
	var emails []string
	var groupsFlag string
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: "  evdesk coeditors " + strings.Fields(use)[0] + " Hb8d7l7QX88AmGvnKn9SMZ --email ana@example.org" + groupsExample(op),
		Long: short + ". Lists longer than the provider accepts in one request (3) are sent as several\n" +
			"requests. Addresses the server refuses are printed with its reason and make the exit status 1.",
		Args: cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			if len(emails) == 0 {
				return fmt.Errorf("--email is required (repeat it, or separate addresses with commas)")
			}
			var groups []string
			if op != api.CoeditorDelete {
				if !cmd.Flags().Changed("groups") {
					return fmt.Errorf("--groups is required: a comma-separated list such as Publish,Email, or all, or none")
				}
				if !strings.EqualFold(strings.TrimSpace(groupsFlag), "none") {
					var err error
					if groups, err = api.ParsePermissionGroups(groupsFlag); err != nil {
						return fmt.Errorf("--groups: %w", err)
					}
				}
			}
			list := make([]api.Coeditor, len(emails))
			for i, e := range emails {
				list[i] = api.Coeditor{Email: e, PermissionGroups: groups}
			}
			failed, err := s.client.Coeditors.Change(cmd.Context(), args[0], op, list)
			if err != nil {
				// Which addresses went through is only known for the
				// requests before the failed one: report their refusals.
				for _, f := range failed {
					fmt.Fprintf(cmd.ErrOrStderr(), "evdesk: refused %s: %s\n", sanitize.Line(f.Email), sanitize.Line(f.Message))
				}
				return err
			}
			outcomes := coeditorOutcomes(emails, failed)
			if err := writeOutcomes(cmd.OutOrStdout(), out, outcomes); err != nil {
				return err
			}
			if len(failed) > 0 {
				return fmt.Errorf("%d of %d co-editors refused", len(failed), len(outcomes))
			}
			return nil
		}),
	}
	cmd.Flags().StringSliceVar(&emails, "email", nil, "co-editor address (repeat, or separate with commas)")
	if op != api.CoeditorDelete {
		cmd.Flags().StringVar(&groupsFlag, "groups", "", "permission groups, comma-separated (Publish,Email), all or none")
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	return cmd
}

// coeditorOutcomes lists each distinct address once, in order, with the
// server's refusal if any.
func coeditorOutcomes(emails []string, failed []api.BatchError) []coeditorOutcome {
	refused := map[string]string{}
	for _, f := range failed {
		refused[api.NormalizeEmail(f.Email)] = f.Message
	}
	seen := map[string]bool{}
	var out []coeditorOutcome
	for _, e := range emails {
		e = api.NormalizeEmail(e)
		if seen[e] {
			continue
		}
		seen[e] = true
		if msg, ok := refused[e]; ok {
			out = append(out, coeditorOutcome{Email: e, Result: "refused", Message: msg})
		} else {
			out = append(out, coeditorOutcome{Email: e, Result: "ok"})
		}
	}
	return out
}

func writeOutcomes(w io.Writer, out *outputFormat, outcomes []coeditorOutcome) error {
	if out.value == "json" {
		return writeJSON(w, outcomes)
	}
	rows := make([][]string, len(outcomes))
	for i, o := range outcomes {
		rows[i] = []string{o.Email, o.Result, o.Message}
	}
	return out.writeRows(w, []string{"EMAIL", "RESULT", "MESSAGE"}, rows)
}

// groupsExample is the --groups part of an example, for the operations
// that take permission groups.
func groupsExample(op string) string {
	if op == api.CoeditorDelete {
		return ""
	}
	return " --groups Publish,Email"
}
