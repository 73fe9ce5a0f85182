package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// addEmailsCommands adds `evdesk emails types|status`.
func addEmailsCommands(root *cobra.Command, f *Factory) {
	cmd := &cobra.Command{Use: "emails", Short: "List an event's emails and who received them (for scripts)"}
	cmd.AddCommand(newEmailsTypesCmd(f), newEmailsStatusCmd(f))
	root.AddCommand(cmd)
}

func enumWords(values []api.Enum) string {
	out := make([]string, len(values))
	for i, e := range values {
		out[i] = e.Value
	}
	return strings.Join(out, ", ")
}

func newEmailsTypesCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json", "csv")
	var status string
	cmd := &cobra.Command{
		Use:     "types EVENT_ID",
		Example: "  evdesk emails types Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List the email types of an event (every page)",
		Args:    cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			opts := api.ListEmailTypesOptions{Status: strings.ToLower(status), PageSize: 300}
			if err := opts.Validate(); err != nil {
				return fmt.Errorf("--status %q: use %s", status, enumWords(api.EmailTypeStatuses))
			}
			var all []api.EmailType
			for et, err := range s.client.Emails.Types(cmd.Context(), args[0], opts) {
				if err != nil {
					return err
				}
				all = append(all, et)
			}
			w := cmd.OutOrStdout()
			if out.value == "json" {
				if all == nil {
					all = []api.EmailType{}
				}
				return writeJSON(w, all)
			}
			rows := make([][]string, len(all))
			for i, et := range all {
				rows[i] = []string{et.EmailTypeID, et.Name, api.LookupEnum(api.EmailTypeStatuses, et.Status).Label,
					utc(et.TriggerDate), et.TriggerOverview}
			}
			return out.writeRows(w, []string{"ID", "NAME", "STATUS", "TRIGGER (UTC)", "SENT WHEN"}, rows)
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	cmd.Flags().StringVar(&status, "status", "", "only this status: "+enumWords(api.EmailTypeStatuses))
	return cmd
}

func newEmailsStatusCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json", "csv")
	var status, reason, search string
	cmd := &cobra.Command{
		Use:     "status EVENT_ID EMAIL_TYPE",
		Example: "  evdesk emails types Hb8d7l7QX88AmGvnKn9SMZ            # the EMAIL_TYPE ids\n  evdesk emails status Hb8d7l7QX88AmGvnKn9SMZ aGzSPHarC631bPGHIhqTmg --status failed",
		Short:   "List who an email went to and how it went (every page)",
		Long: "EMAIL_TYPE is an email type's id or its name (\"Reminder: 1 day before\"). Records stream out\n" +
			"as pages arrive (csv and json); a listing that outlives its 15-minute page token starts over\n" +
			"without repeating a recipient.",
		Args: cobra.ExactArgs(2),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			opts := api.ListSendStatusOptions{Status: strings.ToLower(status), SearchText: search, PageSize: 300}
			if err := opts.Validate(); err != nil {
				return fmt.Errorf("--status %q: use %s", status, enumWords(api.SendStatuses))
			}
			reason = strings.ToLower(reason)
			if reason != "" && api.LookupEnum(api.FailureReasons, reason).Meaning == "" {
				return fmt.Errorf("--reason %q: use %s", reason, enumWords(api.FailureReasons))
			}
			typeID, err := findEmailType(cmd, s.client, args[0], args[1])
			if err != nil {
				return err
			}
			records := s.client.Emails.SendStatus(cmd.Context(), args[0], typeID, opts)
			keep := func(r api.EmailSendRecord) bool { return reason == "" || r.FailureReason == reason }
			w := cmd.OutOrStdout()
			switch out.value {
			case "json":
				return streamJSON(w, records, keep)
			case "csv":
				return streamCSV(w, records, keep)
			}
			var rows [][]string
			for r, err := range records {
				if err != nil {
					return err
				}
				if keep(r) {
					row := sendRow(r) // in words, as the console says them
					row[2] = api.LookupEnum(api.SendStatuses, r.Status).Label
					row[3] = api.LookupEnum(api.FailureReasons, r.FailureReason).Label
					rows = append(rows, row)
				}
			}
			return out.writeRows(w, sendHeader, rows)
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	cmd.Flags().StringVar(&status, "status", "", "only this status: "+enumWords(api.SendStatuses))
	cmd.Flags().StringVar(&reason, "reason", "", "only this failure reason: "+enumWords(api.FailureReasons))
	cmd.Flags().StringVar(&search, "search", "", "only recipients whose name or address matches (server-side)")
	return cmd
}

// findEmailType resolves an email type given by id or by name.
func findEmailType(cmd *cobra.Command, c *api.Client, eventID, typ string) (string, error) {
	var names []string
	for et, err := range c.Emails.Types(cmd.Context(), eventID, api.ListEmailTypesOptions{PageSize: 300}) {
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

var sendHeader = []string{"EMAIL", "NAME", "STATUS", "FAILURE REASON", "SENT (UTC)"}

func sendRow(r api.EmailSendRecord) []string {
	sent := ""
	if r.SentDate != nil {
		sent = r.SentDate.UTC().Format(time.RFC3339)
	}
	return []string{r.Email, r.Name, r.Status, r.FailureReason, sent}
}

// streamCSV writes records as they arrive, so 100,000 of them need no more
// memory than a page.
func streamCSV(w io.Writer, records iter.Seq2[api.EmailSendRecord, error], keep func(api.EmailSendRecord) bool) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"email", "name", "status", "failure_reason", "sent_date"}); err != nil {
		return err
	}
	for r, err := range records {
		if err != nil {
			cw.Flush()
			return err
		}
		if keep(r) {
			if err := cw.Write(sanitize.CSVRow(sendRow(r))); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// streamJSON writes a JSON array of records as they arrive.
func streamJSON(w io.Writer, records iter.Seq2[api.EmailSendRecord, error], keep func(api.EmailSendRecord) bool) error {
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	first := true
	for r, err := range records {
		if err != nil {
			return err
		}
		if !keep(r) {
			continue
		}
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		sep := ",\n  "
		if first {
			sep, first = "\n  ", false
		}
		if _, err := io.WriteString(w, sep+string(b)); err != nil {
			return err
		}
	}
	end := "\n]\n"
	if first {
		end = "]\n"
	}
	_, err := io.WriteString(w, end)
	return err
}
