package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
)

// registrationOptions are `register`'s and `ticket-types`' options.
type registrationOptions struct {
	deps
	Export                                  *exporter
	EventID                                 string
	Emails, Sessions, Answers               []string
	TicketType, First, Last, LinkID, Option string
	Notify                                  *bool // nil: the provider's default
}

func newTicketTypesCmd(f *Factory, runF runFunc[registrationOptions]) *cobra.Command {
	o := &registrationOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "ticket-types EVENT_ID",
		Example: "  evdesk ticket-types Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List an event's ticket types",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, func(ctx context.Context, o *registrationOptions) error {
				return o.inSession(ctx, func(s *session) error {
					types, err := s.client.Registration.TicketTypes(ctx, o.EventID)
					if err != nil {
						return err
					}
					return o.Export.Write(o.IO.Out, types, func(bool) rows {
						r := rows{header: []string{"ID", "NAME", "PRICE", "SOLD"}}
						for _, t := range types {
							price := "free"
							if !t.Free {
								price = strings.TrimSpace(t.Price + " " + t.Currency)
							}
							r.cells = append(r.cells, []string{t.TicketTypeID, t.Name, price, fmt.Sprintf("%d/%d", t.SoldQuantity, t.Quantity)})
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

// ticketOutcome is one address's result, as printed.
type ticketOutcome struct {
	Email   string   `json:"email"`
	Result  string   `json:"result"` // "ok" or "refused"
	Tickets []string `json:"tickets,omitempty"`
	Message string   `json:"message,omitempty"`
}

func newRegisterCmd(f *Factory, runF runFunc[registrationOptions]) *cobra.Command {
	o := &registrationOptions{deps: f.deps()}
	var notify bool
	cmd := &cobra.Command{
		Use:     "register EVENT_ID --ticket-type TYPE --email ADDRESS... [--first NAME --last NAME] [--session ID...] [--answer QUESTION=VALUE...]",
		Example: "  evdesk register Hb8d7l7QX88AmGvnKn9SMZ --ticket-type \"General admission\" --email ana@example.org --first Ana --last Lima",
		Short:   "Register attendees by creating tickets",
		Long: "Register attendees by creating tickets (the event must be published). --ticket-type takes the\n" +
			"type's id or its name. For a recurring event the\n" +
			"access link's recurring option decides the sessions: all_sessions takes no --session, single_session\n" +
			"makes one ticket per --session, multiple_sessions one ticket with every --session. The option is\n" +
			"read from the access link --link names (default: the event's default link; the output says which)\n" +
			"unless --recurring names it.\n" +
			"--answer answers a question of the event's registration form for every --email: a standard one\n" +
			"by its field (job_title=Engineer, organization=Contoso, phone=...), a custom one by its title; an\n" +
			"event that requires answers names the missing ones.\n" +
			"Addresses the server refuses are printed with its reason and make the exit status 1.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			if len(o.Emails) == 0 {
				return flagErrorf("--email is required (repeat it, or separate addresses with commas)")
			}
			if len(o.Emails) > 1 && (o.First != "" || o.Last != "") {
				return flagErrorf("--first and --last name one person: register one --email at a time with them")
			}
			for _, a := range o.Answers {
				if _, _, err := api.ParseAnswer(a); err != nil {
					return flagErrorf("--answer: %v", err)
				}
			}
			if cmd.Flags().Changed("notify") {
				o.Notify = &notify
			}
			if !cmd.Flags().Changed("recurring") {
				o.Option = ""
			}
			return run(cmd, o, runF, registerRun)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&o.Emails, "email", nil, "attendee address (repeat, or separate with commas)")
	fl.StringVar(&o.TicketType, "ticket-type", "", "ticket type, by id or name (see evdesk ticket-types; default: the event's default type)")
	fl.StringVar(&o.First, "first", "", "first name (one --email only)")
	fl.StringVar(&o.Last, "last", "", "last name (one --email only)")
	fl.StringSliceVar(&o.Sessions, "session", nil, "session id (repeat; recurring events per the link's option)")
	fl.StringVar(&o.LinkID, "link", "", "access link whose recurring option applies (default: the event's default link)")
	fl.StringVar(&o.Option, "recurring", "", "recurring option to apply without asking the server: "+strings.Join(api.RecurringOptions, ", "))
	fl.BoolVar(&notify, "notify", false, "send the attendees the notification email")
	fl.StringArrayVar(&o.Answers, "answer", nil, "`QUESTION=VALUE` answer to a registration question, for every --email (repeat)")
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	registerTicketTypeCompletions(f, cmd)
	return cmd
}

func registerRun(ctx context.Context, o *registrationOptions) error {
	return o.inSession(ctx, func(s *session) error {
		option := o.Option
		if option == "" {
			ev, err := s.client.Events.Get(ctx, o.EventID)
			if err != nil {
				return err
			}
			if ev.Status != api.StatusPublished {
				return fmt.Errorf("event %s is %s: publish it before registering attendees", o.EventID, strings.ToLower(ev.Status))
			}
			if ev.EventType == api.EventTypeRecurring {
				links, err := s.client.AccessLinks.List(ctx, o.EventID)
				if err != nil {
					return err
				}
				l, err := registrationLink(links, o.LinkID, o.EventID)
				if err != nil {
					return err
				}
				option = l.RecurringRegistrationOption
				how := "its recurring option is " + option
				if option == "" {
					option = api.RecurringAllSessions
					how = "it sets no recurring option, so one registration covers all sessions (--recurring chooses another)"
				}
				which := "the default access link"
				if o.LinkID != "" {
					which = "access link"
				}
				fmt.Fprintf(o.IO.ErrOut, "evdesk: sessions follow %s %s (%s): %s\n", which, l.AccessLinkID, l.Name, how)
			}
		}
		ticketType := o.TicketType
		if ticketType != "" {
			id, err := resolveTicketType(ctx, s.client, o.EventID, ticketType)
			if err != nil {
				return err
			}
			ticketType = id
		}
		req := &api.TicketsRequest{Option: option}
		for _, e := range o.Emails {
			base := api.TicketRequest{Email: e, TicketTypeID: ticketType, FirstName: o.First, LastName: o.Last,
				SendNotification: o.Notify}
			for _, a := range o.Answers {
				q, v, _ := api.ParseAnswer(a) // checked with the flags
				base.SetAnswer(q, v)
			}
			req.Tickets = append(req.Tickets, api.BuildTickets(option, base, o.Sessions)...)
		}
		res, err := s.client.Registration.CreateTickets(ctx, o.EventID, req)
		if missing := api.QuestionsIn(err); len(missing) > 0 && api.IsCode(err, api.CodeMissingRequiredAnswers) {
			return fmt.Errorf("%w; answer them with --answer QUESTION=VALUE for: %s", err, strings.Join(missing, ", "))
		}
		if err != nil {
			if res != nil {
				for _, t := range res.Tickets {
					fmt.Fprintf(o.IO.ErrOut, "evdesk: created ticket %s for %s\n", t.TicketID, t.Email)
				}
			}
			return err
		}
		// The desks on this computer learn the names (a failure costs only
		// the names).
		if err := roster.LearnTickets(journalDir(s), o.EventID, req.Tickets, res); err != nil {
			s.log.Warn("names of the registered not kept", "err", err)
		}
		outcomes := ticketOutcomes(o.Emails, res)
		if err := o.Export.Write(o.IO.Out, outcomes, func(bool) rows {
			r := rows{header: []string{"EMAIL", "RESULT", "TICKETS", "MESSAGE"}}
			for _, oc := range outcomes {
				r.cells = append(r.cells, []string{oc.Email, oc.Result, strings.Join(oc.Tickets, ","), oc.Message})
			}
			return r
		}); err != nil {
			return err
		}
		if len(res.Errors) > 0 {
			return fmt.Errorf("%d of %d tickets refused", len(res.Errors), len(req.Tickets))
		}
		return nil
	})
}

// ticketOutcomes lists each distinct address once, in order, with its
// tickets or the server's refusal.
func ticketOutcomes(emails []string, res *api.TicketsResult) []ticketOutcome {
	tickets := map[string][]string{}
	for _, t := range res.Tickets {
		e := api.NormalizeEmail(t.Email)
		tickets[e] = append(tickets[e], t.TicketID)
	}
	refused := map[string]string{}
	for _, e := range res.Errors {
		refused[api.NormalizeEmail(e.Email)] = strings.TrimSpace(e.Message + " (" + e.ErrorCode + ")")
	}
	var out []ticketOutcome
	seen := map[string]bool{}
	for _, e := range emails {
		e = api.NormalizeEmail(e)
		if seen[e] {
			continue
		}
		seen[e] = true
		if msg, ok := refused[e]; ok {
			out = append(out, ticketOutcome{Email: e, Result: "refused", Tickets: tickets[e], Message: msg})
		} else {
			out = append(out, ticketOutcome{Email: e, Result: "ok", Tickets: tickets[e]})
		}
	}
	return out
}

// registrationLink is the access link whose recurring option a
// registration follows: the one named, else the event's default link. The
// spec does not say which link's option the service applies to tickets, so
// evdesk asks the user rather than guessing further.
func registrationLink(links []api.AccessLink, linkID, eventID string) (api.AccessLink, error) {
	for _, l := range links {
		if linkID != "" && l.AccessLinkID == linkID || linkID == "" && l.IsDefault {
			return l, nil
		}
	}
	if linkID != "" {
		return api.AccessLink{}, fmt.Errorf("--link %s: no such access link on this event (evdesk links list %s)", linkID, eventID)
	}
	return api.AccessLink{}, fmt.Errorf("event %s has no default access link: name the link whose recurring option applies with --link (evdesk links list %s), or give --recurring", eventID, eventID)
}
