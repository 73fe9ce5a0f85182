package cli

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/internal/words"
)

func newEventsCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "events", Short: "List and show events (for scripts)"}
	cmd.AddCommand(newEventsListCmd(f), newEventsGetCmd(f))
	return cmd
}

var statusTypes = []string{api.ListUpcoming, api.ListPast, api.ListDraft, api.ListCancelled}

func newEventsListCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	var status, role string
	cmd := &cobra.Command{
		Use:     "list",
		Example: "  evdesk events list --status upcoming\n  evdesk events list -o json",
		Short:   "List events (every page)",
		Args:    cobra.NoArgs,
		RunE: f.withSession(func(cmd *cobra.Command, _ []string, s *session) error {
			kinds := statusTypes
			if status != "all" {
				if !slices.Contains(statusTypes, status) {
					return fmt.Errorf("--status %q: use all, %s", status, strings.Join(statusTypes, ", "))
				}
				kinds = []string{status}
			}
			if role != "host" && role != "attendee" {
				return fmt.Errorf("--role %q: use host or attendee", role)
			}
			if role == "attendee" && status == "all" {
				kinds = []string{api.ListUpcoming, api.ListPast}
			}
			type listed struct {
				Listing string `json:"listing"`
				api.Event
			}
			var all []listed
			for _, k := range kinds {
				for e, err := range s.client.Events.List(cmd.Context(), api.ListEventsOptions{RoleType: role, StatusType: k, PageSize: 300}) {
					if err != nil {
						return err
					}
					all = append(all, listed{Listing: k, Event: e})
				}
			}
			w := cmd.OutOrStdout()
			if out.value == "json" {
				return writeJSON(w, all)
			}
			rows := make([][]string, len(all))
			for i, e := range all {
				rows[i] = []string{e.EventID, e.Name, words.Label(api.EventTypeLabels, e.EventType),
					e.Listing, words.Label(api.AttendanceLabels, e.AttendanceType), utc(e.StartTime)}
			}
			return out.writeRows(w, []string{"ID", "NAME", "TYPE", "LISTING", "ATTENDANCE", "START (UTC)"}, rows)
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table or json")
	cmd.Flags().StringVar(&status, "status", "all", "listing: all, upcoming, past, draft or cancelled")
	cmd.Flags().StringVar(&role, "role", "host", "host (events you host) or attendee")
	return cmd
}

func newEventsGetCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	cmd := &cobra.Command{
		Use:     "get EVENT_ID",
		Example: "  evdesk events list                         # the ids\n  evdesk events get Hb8d7l7QX88AmGvnKn9SMZ -o json",
		Short:   "Show one event",
		Args:    cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			e, err := s.client.Events.Get(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if out.value == "json" {
				return writeJSON(w, e)
			}
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			for _, kv := range [][2]string{
				{"ID", e.EventID}, {"Name", e.Name}, {"Type", e.EventType}, {"Status", e.Status},
				{"Attendance", e.AttendanceType}, {"Access", e.AccessLevel}, {"Timezone", e.Timezone},
				{"Start (UTC)", utc(e.StartTime)}, {"End (UTC)", utc(e.EndTime)}, {"Hub", e.HubID},
				{"Host", e.HostID}, {"URL", e.EventURL}, {"Contact", strings.TrimSpace(e.ContactName + " " + e.ContactEmail)},
			} {
				fmt.Fprintf(tw, "%s:\t%s\n", kv[0], sanitize.Line(kv[1]))
			}
			return tw.Flush()
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table or json")
	return cmd
}

func utc(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
