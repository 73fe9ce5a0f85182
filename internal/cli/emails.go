package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
)

// newEmailsCmd is `evdesk emails types|status`.
func newEmailsCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "emails", Short: "List an event's emails and who received them (for scripts)"}
	cmd.AddCommand(newEmailsTypesCmd(f, nil), newEmailsStatusCmd(f, nil))
	return cmd
}

func enumWords(values []api.Enum) string {
	out := make([]string, len(values))
	for i, e := range values {
		out[i] = e.Value
	}
	return strings.Join(out, ", ")
}

// emailsOptions are the email commands' options.
type emailsOptions struct {
	deps
	Export                 *exporter
	EventID, EmailType     string
	Status, Reason, Search string
}

func newEmailsTypesCmd(f *Factory, runF runFunc[emailsOptions]) *cobra.Command {
	o := &emailsOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "types EVENT_ID",
		Example: "  evdesk emails types Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List the email types of an event (every page)",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			opts := api.ListEmailTypesOptions{Status: strings.ToLower(o.Status), PageSize: 300}
			if err := opts.Validate(); err != nil {
				return flagErrorf("--status %q: use %s", o.Status, enumWords(api.EmailTypeStatuses))
			}
			return run(cmd, o, runF, func(ctx context.Context, o *emailsOptions) error {
				return o.inSession(ctx, func(s *session) error {
					return exportStream(o.Export, o.IO.Out, s.client.Emails.Types(ctx, o.EventID, opts),
						[]string{"ID", "NAME", "STATUS", "TRIGGER (UTC)", "SENT WHEN"},
						func(et api.EmailType, csv bool) []string {
							status := api.LookupEnum(api.EmailTypeStatuses, et.Status).Label
							if csv {
								status = et.Status
							}
							return []string{et.EmailTypeID, et.Name, status, utc(et.TriggerDate), et.TriggerOverview}
						})
				})
			})
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	cmd.Flags().StringVar(&o.Status, "status", "", "only this status: "+enumWords(api.EmailTypeStatuses))
	_ = cmd.RegisterFlagCompletionFunc("status", enumCompletions(api.EmailTypeStatuses))
	return cmd
}

func newEmailsStatusCmd(f *Factory, runF runFunc[emailsOptions]) *cobra.Command {
	o := &emailsOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "status EVENT_ID EMAIL_TYPE",
		Example: "  evdesk emails types Hb8d7l7QX88AmGvnKn9SMZ            # the EMAIL_TYPE ids\n  evdesk emails status Hb8d7l7QX88AmGvnKn9SMZ aGzSPHarC631bPGHIhqTmg --status failed",
		Short:   "List who an email went to and how it went (every page)",
		Long: "EMAIL_TYPE is an email type's id or its name (\"Reminder: 1 day before\"). Records stream out\n" +
			"as pages arrive (csv and json); a listing that outlives its 15-minute page token starts over\n" +
			"without repeating a recipient.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID, o.EmailType = args[0], args[1]
			opts := api.ListSendStatusOptions{Status: strings.ToLower(o.Status), SearchText: o.Search, PageSize: 300}
			if err := opts.Validate(); err != nil {
				return flagErrorf("--status %q: use %s", o.Status, enumWords(api.SendStatuses))
			}
			o.Reason = strings.ToLower(o.Reason)
			if o.Reason != "" && api.LookupEnum(api.FailureReasons, o.Reason).Meaning == "" {
				return flagErrorf("--reason %q: use %s", o.Reason, enumWords(api.FailureReasons))
			}
			return run(cmd, o, runF, func(ctx context.Context, o *emailsOptions) error {
				return o.inSession(ctx, func(s *session) error { return emailsStatusRun(ctx, s, o, opts) })
			})
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	cmd.Flags().StringVar(&o.Status, "status", "", "only this status: "+enumWords(api.SendStatuses))
	cmd.Flags().StringVar(&o.Reason, "reason", "", "only this failure reason: "+enumWords(api.FailureReasons))
	cmd.Flags().StringVar(&o.Search, "search", "", "only recipients whose name or address matches (server-side)")
	_ = cmd.RegisterFlagCompletionFunc("status", enumCompletions(api.SendStatuses))
	_ = cmd.RegisterFlagCompletionFunc("reason", enumCompletions(api.FailureReasons))
	return cmd
}

func emailsStatusRun(ctx context.Context, s *session, o *emailsOptions, opts api.ListSendStatusOptions) error {
	typeID, err := findEmailType(ctx, s.client, o.EventID, o.EmailType)
	if err != nil {
		return err
	}
	records := func(yield func(api.EmailSendRecord, error) bool) {
		for r, err := range s.client.Emails.SendStatus(ctx, o.EventID, typeID, opts) {
			if err != nil || o.Reason == "" || r.FailureReason == o.Reason {
				if !yield(r, err) {
					return
				}
			}
		}
	}
	return exportStream(o.Export, o.IO.Out, records, []string{"EMAIL", "NAME", "STATUS", "FAILURE REASON", "SENT (UTC)"},
		func(r api.EmailSendRecord, csv bool) []string {
			row := sendRow(r)
			if !csv { // in words, as the console says them
				row[2] = api.LookupEnum(api.SendStatuses, r.Status).Label
				row[3] = api.LookupEnum(api.FailureReasons, r.FailureReason).Label
			}
			return row
		})
}

// findEmailType resolves an email type given by id or by name.
func findEmailType(ctx context.Context, c *api.Client, eventID, typ string) (string, error) {
	var names []string
	for et, err := range c.Emails.Types(ctx, eventID, api.ListEmailTypesOptions{PageSize: 300}) {
		if err != nil {
			return "", err
		}
		if et.EmailTypeID == typ || strings.EqualFold(strings.TrimSpace(et.Name), strings.TrimSpace(typ)) {
			return et.EmailTypeID, nil
		}
		names = append(names, fmt.Sprintf("%q (%s)", et.Name, et.EmailTypeID))
	}
	if len(names) == 0 {
		return "", fmt.Errorf("event %s has no email types", eventID)
	}
	return "", fmt.Errorf("no email type %q; this event has %s", typ, strings.Join(names, ", "))
}

func sendRow(r api.EmailSendRecord) []string {
	sent := ""
	if r.SentDate != nil {
		sent = r.SentDate.UTC().Format(time.RFC3339)
	}
	return []string{r.Email, r.Name, r.Status, r.FailureReason, sent}
}
