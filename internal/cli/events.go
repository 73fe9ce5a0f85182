package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/words"
)

func newEventsCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "events", Short: "List, show, create, change, publish, cancel and delete events (for scripts)"}
	cmd.AddCommand(newEventsListCmd(f, nil), newEventsGetCmd(f, nil), writing(newEventsCreateCmd(f, nil)),
		writing(newEventsUpdateCmd(f, nil)), writing(newEventsPublishCmd(f, nil)), writing(newEventsCancelCmd(f, nil)),
		writing(newEventsDuplicateCmd(f, nil)), writing(newEventsDeleteCmd(f, nil)))
	return cmd
}

var statusTypes = []string{api.ListUpcoming, api.ListPast, api.ListDraft, api.ListCancelled}

// eventsListOptions are `events list`'s.
type eventsListOptions struct {
	deps
	Export       *exporter
	Status, Role string
}

func newEventsListCmd(f *Factory, runF runFunc[eventsListOptions]) *cobra.Command {
	o := &eventsListOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "list",
		Example: "  evdesk events list --status upcoming\n  evdesk events list -o json --jq '.[].event_id'",
		Short:   "List events (every page)",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Status != "all" && !slices.Contains(statusTypes, o.Status) {
				return flagErrorf("--status %q: use all, %s", o.Status, strings.Join(statusTypes, ", "))
			}
			if o.Role != "host" && o.Role != "attendee" {
				return flagErrorf("--role %q: use host or attendee", o.Role)
			}
			return run(cmd, o, runF, eventsListRun)
		},
	}
	cmd.Flags().StringVar(&o.Status, "status", "all", "listing: all, upcoming, past, draft or cancelled")
	cmd.Flags().StringVar(&o.Role, "role", "host", "host (events you host) or attendee")
	_ = cmd.RegisterFlagCompletionFunc("status", cobra.FixedCompletions(append([]string{"all"}, statusTypes...), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("role", cobra.FixedCompletions([]string{"host", "attendee"}, cobra.ShellCompDirectiveNoFileComp))
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	return cmd
}

// listedEvent is an event with the listing it was found in.
type listedEvent struct {
	Listing string `json:"listing"`
	api.Event
}

func eventsListRun(ctx context.Context, o *eventsListOptions) error {
	kinds := statusTypes
	if o.Status != "all" {
		kinds = []string{o.Status}
	}
	if o.Role == "attendee" && o.Status == "all" {
		kinds = []string{api.ListUpcoming, api.ListPast}
	}
	return o.inSession(ctx, func(s *session) error {
		all := []listedEvent{}
		for _, k := range kinds {
			for e, err := range s.client.Events.List(ctx, api.ListEventsOptions{RoleType: o.Role, StatusType: k, PageSize: 300}) {
				if err != nil {
					return err
				}
				all = append(all, listedEvent{Listing: k, Event: e})
				warnUnreadable(o.IO.ErrOut, e)
			}
		}
		return o.Export.Write(o.IO.Out, all, func(csv bool) rows {
			r := rows{header: []string{"ID", "NAME", "TYPE", "LISTING", "ATTENDANCE", "START (UTC)"}}
			for _, e := range all {
				typ, attendance := words.Label(api.EventTypeLabels, e.EventType), words.Label(api.AttendanceLabels, e.AttendanceType)
				if csv {
					typ, attendance = e.EventType, e.AttendanceType
				}
				r.cells = append(r.cells, []string{e.EventID, e.Name, typ, e.Listing, attendance, utc(e.StartTime)})
			}
			return r
		})
	})
}

// eventOptions are the options of the commands on one event.
type eventOptions struct {
	deps
	Export  *exporter
	EventID string
	// Event is the create or update request the flags and --from-file
	// built (update: only what they name).
	Fields eventFields
	// Message (cancel), Yes (cancel, delete: no question asked).
	Message string
	Yes     bool
	// Duplicate's copy.
	Copy api.DuplicateEvent
}

func newEventsGetCmd(f *Factory, runF runFunc[eventOptions]) *cobra.Command {
	o := &eventOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "get EVENT_ID",
		Example: "  evdesk events list                         # the ids\n  evdesk events get Hb8d7l7QX88AmGvnKn9SMZ -o json",
		Short:   "Show one event",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, func(ctx context.Context, o *eventOptions) error {
				return o.inSession(ctx, func(s *session) error { return showEvent(ctx, s, o) })
			})
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

// showEvent prints the event as the server has it: key and value a line.
func showEvent(ctx context.Context, s *session, o *eventOptions) error {
	e, err := s.client.Events.Get(ctx, o.EventID)
	if err != nil {
		return err
	}
	warnUnreadable(o.IO.ErrOut, *e)
	return o.Export.Write(o.IO.Out, e, func(bool) rows {
		r := rows{header: []string{"FIELD", "VALUE"}}
		// Words, as `events list` and the console say them; -o json
		// keeps the API's values.
		for _, kv := range [][2]string{
			{"ID", e.EventID}, {"Name", e.Name}, {"Type", words.Label(api.EventTypeLabels, e.EventType)},
			{"Status", words.Label(api.StatusLabels, e.Status)}, {"Meeting type", words.Label(api.MeetingTypeLabels, e.MeetingType)},
			{"Attendance", words.Label(api.AttendanceLabels, e.AttendanceType)},
			{"Access", words.Label(api.AccessLevelLabels, e.AccessLevel)}, {"Timezone", e.Timezone},
			{"Start (UTC)", utc(e.StartTime)}, {"End (UTC)", utc(e.EndTime)}, {"Hub", e.HubID},
			{"Host", e.HostID}, {"URL", e.EventURL}, {"Contact", strings.TrimSpace(e.ContactName + " " + e.ContactEmail)},
		} {
			r.cells = append(r.cells, []string{kv[0], kv[1]})
		}
		if e.Recurrence != nil && e.Recurrence.Duration > 0 {
			r.cells = append(r.cells, []string{"Session length", words.Count(e.Recurrence.Duration, "minute")})
		}
		for _, kv := range append(e.Venue.Fields(), [2]string{"Location", api.DeprecatedLocation(e.PhysicalLocation)}) {
			if kv[1] != "" {
				r.cells = append(r.cells, []string{kv[0], kv[1]})
			}
		}
		return r
	})
}

// warnUnreadable tells, on standard error, which fields of an event the
// server sent in a shape evdesk cannot read: the event is listed without
// them.
func warnUnreadable(w io.Writer, e api.Event) {
	if len(e.Unreadable) > 0 {
		fmt.Fprintf(w, "evdesk: event %s (%s): could not read %s; shown without it\n", e.EventID, e.Name, api.UnreadableText(e.Unreadable))
	}
}

func newEventsCreateCmd(f *Factory, runF runFunc[eventOptions]) *cobra.Command {
	o := &eventOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "create --name NAME --description TEXT --hub ID --start TIME --end TIME [flags] | --from-file FILE",
		Short: "Create a draft event: flags for every field of the console's form, or a JSON or TOML file",
		Long: "Create a draft event. Each field of the console's create form has a flag; --from-file reads the\n" +
			"request from a JSON or TOML file with the API's field names (flags given as well win over the\n" +
			"file). Times are \"YYYY-MM-DD HH:MM\" in --timezone, or RFC 3339 with an offset. The defaults are\n" +
			"the form's: a single-session webinar, private, virtual, in UTC. A recurring event takes --repeat\n" +
			"and its schedule flags. Prints the new event (its id first); publish it with `evdesk events publish`.\n\n" +
			"A file looks like this (TOML; the same names in JSON):\n\n" + eventFileExample,
		Example: "  evdesk events create --name \"Launch\" --description \"The launch\" --hub hub_1 \\\n" +
			"      --start \"2027-03-14 09:30\" --end \"2027-03-14 11:00\" --timezone Europe/Lisbon\n" +
			"  evdesk events create --from-file event.toml --name \"Launch, take 2\"",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Fields.read(cmd); err != nil {
				return err
			}
			if _, err := o.Fields.create(); err != nil { // before signing in
				return err
			}
			return run(cmd, o, runF, eventsCreateRun)
		},
	}
	o.Fields.addFlags(cmd, true)
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

func eventsCreateRun(ctx context.Context, o *eventOptions) error {
	req, err := o.Fields.create()
	if err != nil {
		return err
	}
	return o.inSession(ctx, func(s *session) error {
		e, err := s.client.Events.Create(ctx, req)
		if err != nil {
			return err
		}
		o.EventID = e.EventID
		return showEvent(ctx, s, o)
	})
}

func newEventsUpdateCmd(f *Factory, runF runFunc[eventOptions]) *cobra.Command {
	o := &eventOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "update EVENT_ID [flags] | --from-file FILE",
		Short: "Change an event: only the fields named by flags or in the file are sent",
		Long: "Change an event. Only the fields named by a flag, or present in --from-file (JSON or TOML with\n" +
			"the API's field names), are sent; flags win over the file. --start and --end go together; times\n" +
			"are read in --timezone, else in the event's own timezone. An empty list flag (--tag \"\") clears it.",
		Example: "  evdesk events update Hb8d7l7QX88AmGvnKn9SMZ --name \"Launch (new date)\" --start \"2027-03-21 09:30\" --end \"2027-03-21 11:00\"\n" +
			"  evdesk events update Hb8d7l7QX88AmGvnKn9SMZ --from-file changes.json",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			if err := o.Fields.read(cmd); err != nil {
				return err
			}
			if _, err := o.Fields.update(nil); err != nil { // before signing in
				return err
			}
			return run(cmd, o, runF, eventsUpdateRun)
		},
	}
	o.Fields.addFlags(cmd, false)
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

func eventsUpdateRun(ctx context.Context, o *eventOptions) error {
	return o.inSession(ctx, func(s *session) error {
		var current *api.Event
		if o.Fields.needsEvent() { // times in the event's own timezone
			e, err := s.client.Events.Get(ctx, o.EventID)
			if err != nil {
				return err
			}
			current = e
		}
		u, err := o.Fields.update(current)
		if err != nil {
			return err
		}
		if err := s.client.Events.Update(ctx, o.EventID, u); err != nil {
			return err
		}
		return showEvent(ctx, s, o)
	})
}

// writeAction prints an event action's answer.
func writeAction(o *eventOptions, verb string, res *api.ActionResult) error {
	return o.Export.WriteText(o.IO.Out, res, func(w io.Writer) error {
		if res.EventID != "" && res.EventID != o.EventID {
			_, err := fmt.Fprintf(w, "%s event %s: new event %s (%s)\n", verb, o.EventID, res.EventID, words.OrDash(res.Status))
			return err
		}
		_, err := fmt.Fprintf(w, "%s event %s (%s)\n", verb, o.EventID, words.OrDash(res.Status))
		return err
	})
}

func newEventsPublishCmd(f *Factory, runF runFunc[eventOptions]) *cobra.Command {
	o := &eventOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "publish EVENT_ID",
		Example: "  evdesk events publish Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "Publish a draft event",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, func(ctx context.Context, o *eventOptions) error {
				return o.inSession(ctx, func(s *session) error {
					res, err := s.client.Events.Publish(ctx, o.EventID)
					if err != nil {
						return err
					}
					return writeAction(o, "published", res)
				})
			})
		},
	}
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

func newEventsCancelCmd(f *Factory, runF runFunc[eventOptions]) *cobra.Command {
	o := &eventOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "cancel EVENT_ID [--message TEXT] [--yes]",
		Short: "Cancel a published event; its registrants get --message",
		Long: "Cancel a published event. When people registered, the provider requires a message, which\n" +
			"they receive, and evdesk asks before cancelling unless --yes is given; without a terminal to\n" +
			"ask on, it refuses unless --yes is given.",
		Example: "  evdesk events cancel Hb8d7l7QX88AmGvnKn9SMZ --message \"Postponed to spring; we will write soon.\" --yes",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, eventsCancelRun)
		},
	}
	cmd.Flags().StringVarP(&o.Message, "message", "m", "", "the message the registrants receive (required when anyone registered)")
	cmd.Flags().BoolVarP(&o.Yes, "yes", "y", false, "cancel without asking, even when people registered")
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

func eventsCancelRun(ctx context.Context, o *eventOptions) error {
	return o.inSession(ctx, func(s *session) error {
		n, err := registrants(ctx, s, o.EventID)
		if err != nil {
			return err
		}
		if n != 0 && strings.TrimSpace(o.Message) == "" {
			return flagErrorf("--message is required: %s registered and receive it", people(n))
		}
		if err := confirm(o.deps, o.Yes, n, fmt.Sprintf("Cancel event %s? %s registered and receive your message.", o.EventID, people(n))); err != nil {
			return err
		}
		res, err := s.client.Events.Cancel(ctx, o.EventID, o.Message)
		if err != nil {
			return err
		}
		return writeAction(o, "cancelled", res)
	})
}

func newEventsDeleteCmd(f *Factory, runF runFunc[eventOptions]) *cobra.Command {
	o := &eventOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "delete EVENT_ID [--yes]",
		Short: "Delete an event (the provider deletes drafts)",
		Long: "Delete an event. When people registered, evdesk asks first unless --yes is given; without a\n" +
			"terminal to ask on, it refuses unless --yes is given.",
		Example: "  evdesk events delete Hb8d7l7QX88AmGvnKn9SMZ --yes",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, eventsDeleteRun)
		},
	}
	cmd.Flags().BoolVarP(&o.Yes, "yes", "y", false, "delete without asking, even when people registered")
	return cmd
}

func eventsDeleteRun(ctx context.Context, o *eventOptions) error {
	return o.inSession(ctx, func(s *session) error {
		n, err := registrants(ctx, s, o.EventID)
		if err != nil {
			return err
		}
		if err := confirm(o.deps, o.Yes, n, fmt.Sprintf("Delete event %s? %s registered.", o.EventID, people(n))); err != nil {
			return err
		}
		if err := s.client.Events.Delete(ctx, o.EventID); err != nil {
			return err
		}
		fmt.Fprintf(o.IO.Out, "deleted event %s\n", o.EventID)
		return nil
	})
}

func newEventsDuplicateCmd(f *Factory, runF runFunc[eventOptions]) *cobra.Command {
	o := &eventOptions{deps: f.deps()}
	var start, tz string
	cmd := &cobra.Command{
		Use:   "duplicate EVENT_ID --name NAME --start TIME [--timezone ZONE]",
		Short: "Copy an event under a new name and start",
		Long: "Copy an event under a new name and start. --start is \"YYYY-MM-DD HH:MM\" in --timezone (default:\n" +
			"the original event's), or RFC 3339 with an offset. Prints the new event's id.",
		Example: "  evdesk events duplicate Hb8d7l7QX88AmGvnKn9SMZ --name \"Launch (Porto)\" --start \"2027-04-02 10:00\" --timezone Europe/Lisbon",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			if strings.TrimSpace(o.Copy.Name) == "" {
				return flagErrorf("--name is required: the copy's name")
			}
			if start == "" {
				return flagErrorf("--start is required: when the copy starts, such as \"2027-04-02 10:00\"")
			}
			if tz != "" {
				if _, err := time.LoadLocation(tz); err != nil {
					return flagErrorf("--timezone %q is not a known timezone (use an IANA name such as Europe/Lisbon)", tz)
				}
			}
			o.Copy.Timezone = tz
			return run(cmd, o, runF, func(ctx context.Context, o *eventOptions) error {
				return o.inSession(ctx, func(s *session) error {
					if o.Copy.Timezone == "" {
						e, err := s.client.Events.Get(ctx, o.EventID)
						if err != nil {
							return err
						}
						o.Copy.Timezone = e.Timezone
						if o.Copy.Timezone == "" {
							o.Copy.Timezone = "UTC"
						}
					}
					at, err := parseTime("--start", start, o.Copy.Timezone)
					if err != nil {
						return err
					}
					o.Copy.StartTime = at
					res, err := s.client.Events.Duplicate(ctx, o.EventID, o.Copy)
					if err != nil {
						return err
					}
					return writeAction(o, "duplicated", res)
				})
			})
		},
	}
	cmd.Flags().StringVar(&o.Copy.Name, "name", "", "the copy's name (required)")
	cmd.Flags().StringVar(&start, "start", "", "when the copy starts: \"YYYY-MM-DD HH:MM\" in --timezone, or RFC 3339 (required)")
	cmd.Flags().StringVar(&tz, "timezone", "", "the copy's timezone, an IANA name (default: the original's)")
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

// registrants counts who registered for an event (-1 when it cannot be
// told: a question is asked as if someone had).
func registrants(ctx context.Context, s *session, eventID string) (int, error) {
	page, err := s.client.Attendees.RegistrantsPage(ctx, eventID, api.ListRegistrantsOptions{PageSize: 1}, "")
	if err != nil {
		if api.IsCode(err, api.CodeEventNotFound) { // not a refusal of the listing alone
			return 0, err
		}
		s.log.Warn("registrants not counted", "event", eventID, "err", err)
		return -1, nil
	}
	return page.TotalRecords, nil
}

func people(n int) string {
	switch {
	case n < 0:
		return "an unknown number of people (they could not be counted)"
	case n == 1:
		return "1 person"
	}
	return fmt.Sprintf("%d people", n)
}

// confirm asks before a change that reaches registrants (n of them; -1:
// unknown). --yes answers for the user; without a terminal nobody can
// answer, so the change is refused rather than made.
func confirm(d deps, yes bool, n int, question string) error {
	if yes || n == 0 {
		return nil
	}
	if !d.IO.CanPrompt() {
		return flagErrorf("%s\nNo terminal to ask on: add --yes to go ahead", question)
	}
	fmt.Fprintf(d.IO.ErrOut, "%s [y/N] ", question)
	answer, _ := readLine(d.IO.In)
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return &exitError{code: exitFailed, err: fmt.Errorf("not done: the answer was not yes")}
	}
	return nil
}

func utc(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
