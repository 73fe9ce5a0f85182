package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// newCoeditorsCmd is `evdesk coeditors list|add|update|remove`.
func newCoeditorsCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "coeditors",
		Short: "List and change the co-editors of an event (for scripts)",
		Long: "Co-editors may change an event's details and view all its sections; their permission groups say\n" +
			"which sections they may edit. Groups: " + strings.Join(api.PermissionGroupValues(), ", ") + ".\n" +
			"--groups takes a comma-separated list of groups or their labels (any case), \"all\" or \"none\".",
	}
	cmd.AddCommand(newCoeditorsListCmd(f, nil),
		writing(newCoeditorsChangeCmd(f, nil, api.CoeditorAdd, "add EVENT_ID --email ADDRESS... --groups GROUPS", "Add co-editors with the given groups")),
		writing(newCoeditorsChangeCmd(f, nil, api.CoeditorUpdate, "update EVENT_ID --email ADDRESS... --groups GROUPS", "Set the groups of co-editors (replacing theirs)")),
		writing(newCoeditorsChangeCmd(f, nil, api.CoeditorDelete, "remove EVENT_ID --email ADDRESS...", "Remove co-editors")))
	return cmd
}

// coeditorsOptions are the co-editor commands' options.
type coeditorsOptions struct {
	deps
	Export  *exporter
	EventID string
	Op      string
	Emails  []string
	Groups  []string
}

func newCoeditorsListCmd(f *Factory, runF runFunc[coeditorsOptions]) *cobra.Command {
	o := &coeditorsOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk coeditors list Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List co-editors and the sections each may edit",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, func(ctx context.Context, o *coeditorsOptions) error {
				return o.inSession(ctx, func(s *session) error {
					list, err := s.client.Coeditors.List(ctx, o.EventID)
					if err != nil {
						return err
					}
					return o.Export.Write(o.IO.Out, list, func(csv bool) rows {
						r := rows{header: []string{"EMAIL", "GROUPS", "CAN EDIT"}}
						for _, c := range list {
							groups := strings.Join(c.PermissionGroups, ",")
							if !csv {
								groups = api.PermissionLabels(c.PermissionGroups)
							}
							r.cells = append(r.cells, []string{c.Email, fmt.Sprint(len(c.PermissionGroups)), groups})
						}
						return r
					})
				})
			})
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	return cmd
}

// coeditorOutcome is one address's result, as printed.
type coeditorOutcome struct {
	Email   string `json:"email"`
	Result  string `json:"result"` // "ok" or "refused"
	Message string `json:"message,omitempty"`
}

func newCoeditorsChangeCmd(f *Factory, runF runFunc[coeditorsOptions], op, use, short string) *cobra.Command {
	o := &coeditorsOptions{deps: f.deps(), Op: op}
	var groupsFlag string
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: "  evdesk coeditors " + strings.Fields(use)[0] + " Hb8d7l7QX88AmGvnKn9SMZ --email ana@example.org" + groupsExample(op),
		Long: short + ". Lists longer than the provider accepts in one request (3) are sent as several\n" +
			"requests. Addresses the server refuses are printed with its reason and make the exit status 1.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			if len(o.Emails) == 0 {
				return flagErrorf("--email is required (repeat it, or separate addresses with commas)")
			}
			if op != api.CoeditorDelete {
				if !cmd.Flags().Changed("groups") {
					return flagErrorf("--groups is required: a comma-separated list such as Publish,Email, or all, or none")
				}
				if !strings.EqualFold(strings.TrimSpace(groupsFlag), "none") {
					var err error
					if o.Groups, err = api.ParsePermissionGroups(groupsFlag); err != nil {
						return flagErrorf("--groups: %v", err)
					}
				}
			}
			return run(cmd, o, runF, coeditorsChangeRun)
		},
	}
	cmd.Flags().StringSliceVar(&o.Emails, "email", nil, "co-editor address (repeat, or separate with commas)")
	if op != api.CoeditorDelete {
		cmd.Flags().StringVar(&groupsFlag, "groups", "", "permission groups, comma-separated (Publish,Email), all or none")
	}
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	return cmd
}

func coeditorsChangeRun(ctx context.Context, o *coeditorsOptions) error {
	return o.inSession(ctx, func(s *session) error {
		list := make([]api.Coeditor, len(o.Emails))
		for i, e := range o.Emails {
			list[i] = api.Coeditor{Email: e, PermissionGroups: o.Groups}
		}
		failed, err := s.client.Coeditors.Change(ctx, o.EventID, o.Op, list)
		if err != nil {
			// Which addresses went through is only known for the
			// requests before the failed one: report their refusals.
			for _, f := range failed {
				fmt.Fprintf(o.IO.ErrOut, "evdesk: refused %s: %s\n", sanitize.Line(f.Email), sanitize.Line(f.Message))
			}
			return err
		}
		outcomes := coeditorOutcomes(o.Emails, failed)
		if err := o.Export.Write(o.IO.Out, outcomes, func(bool) rows {
			r := rows{header: []string{"EMAIL", "RESULT", "MESSAGE"}}
			for _, oc := range outcomes {
				r.cells = append(r.cells, []string{oc.Email, oc.Result, oc.Message})
			}
			return r
		}); err != nil {
			return err
		}
		if len(failed) > 0 {
			return fmt.Errorf("%d of %d co-editors refused", len(failed), len(outcomes))
		}
		return nil
	})
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

// groupsExample is the --groups part of an example, for the operations
// that take permission groups.
func groupsExample(op string) string {
	if op == api.CoeditorDelete {
		return ""
	}
	return " --groups Publish,Email"
}
