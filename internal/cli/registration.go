package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
)

// addRegistrationCommands adds `evdesk register EVENT_ID ...` and
// `evdesk ticket-types EVENT_ID`.
func addRegistrationCommands(root *cobra.Command, f *Factory) {
	root.AddCommand(newRegisterCmd(f), newTicketTypesCmd(f))
}

func newTicketTypesCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json", "csv")
	cmd := &cobra.Command{
		Use:     "ticket-types EVENT_ID",
		Example: "  evdesk ticket-types Hb8d7l7QX88AmGvnKn9SMZ",
		Short:   "List an event's ticket types",
		Args:    cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			types, err := s.client.Registration.TicketTypes(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if out.value == "json" {
				return writeJSON(cmd.OutOrStdout(), types)
			}
			rows := make([][]string, len(types))
			for i, t := range types {
				price := "free"
				if !t.Free {
					price = strings.TrimSpace(t.Price + " " + t.Currency)
				}
				rows[i] = []string{t.TicketTypeID, t.Name, price, fmt.Sprintf("%d/%d", t.SoldQuantity, t.Quantity)}
			}
			return out.writeRows(cmd.OutOrStdout(), []string{"ID", "NAME", "PRICE", "SOLD"}, rows)
		}),
	}
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	return cmd
}

// ticketOutcome is one address's result, as printed.
type ticketOutcome struct {
	Email   string   `json:"email"`
	Result  string   `json:"result"` // "ok" or "refused"
	Tickets []string `json:"tickets,omitempty"`
	Message string   `json:"message,omitempty"`
}

func newRegisterCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json", "csv")
	var emails, sessions, answers []string
	var ticketType, first, last, linkID, option string
	var notify bool
	cmd := &cobra.Command{
		Use:     "register EVENT_ID --ticket-type ID --email ADDRESS... [--first NAME --last NAME] [--session ID...] [--answer QUESTION=VALUE...]",
		Example: "  evdesk register Hb8d7l7QX88AmGvnKn9SMZ --ticket-type tt_1 --email ana@example.org --first Ana --last Lima",
		Short:   "Register attendees by creating tickets",
		Long: "Register attendees by creating tickets (the event must be published). For a recurring event the\n" +
			"access link's recurring option decides the sessions: all_sessions takes no --session, single_session\n" +
			"makes one ticket per --session, multiple_sessions one ticket with every --session. The option is\n" +
			"read from the access link --link names (default: the event's default link; the output says which)\n" +
			"unless --recurring names it.\n" +
			"--answer answers a question of the event's registration form for every --email: a standard one\n" +
			"by its field (job_title=Engineer, organization=Contoso, phone=...), a custom one by its title; an\n" +
			"event that requires answers names the missing ones.\n" +
			"Addresses the server refuses are printed with its reason and make the exit status 1.",
		Args: cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			if len(emails) == 0 {
				return fmt.Errorf("--email is required (repeat it, or separate addresses with commas)")
			}
			if len(emails) > 1 && (first != "" || last != "") {
				return fmt.Errorf("--first and --last name one person: register one --email at a time with them")
			}
			ctx := cmd.Context()
			if !cmd.Flags().Changed("recurring") {
				ev, err := s.client.Events.Get(ctx, args[0])
				if err != nil {
					return err
				}
				if ev.Status != api.StatusPublished {
					return fmt.Errorf("event %s is %s: publish it before registering attendees", args[0], strings.ToLower(ev.Status))
				}
				if ev.EventType == api.EventTypeRecurring {
					links, err := s.client.AccessLinks.List(ctx, args[0])
					if err != nil {
						return err
					}
					l, err := registrationLink(links, linkID, args[0])
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
					if linkID != "" {
						which = "access link"
					}
					fmt.Fprintf(cmd.ErrOrStderr(), "evdesk: sessions follow %s %s (%s): %s\n", which, l.AccessLinkID, l.Name, how)
				}
			}
			req := &api.TicketsRequest{Option: option}
			for _, e := range emails {
				base := api.TicketRequest{Email: e, TicketTypeID: ticketType, FirstName: first, LastName: last}
				if cmd.Flags().Changed("notify") {
					base.SendNotification = &notify
				}
				for _, a := range answers {
					q, v, err := api.ParseAnswer(a)
					if err != nil {
						return fmt.Errorf("--answer: %w", err)
					}
					base.SetAnswer(q, v)
				}
				req.Tickets = append(req.Tickets, api.BuildTickets(option, base, sessions)...)
			}
			res, err := s.client.Registration.CreateTickets(ctx, args[0], req)
			if missing := api.QuestionsIn(err); len(missing) > 0 && api.IsCode(err, api.CodeMissingRequiredAnswers) {
				return fmt.Errorf("%w; answer them with --answer QUESTION=VALUE for: %s", err, strings.Join(missing, ", "))
			}
			if err != nil {
				if res != nil {
					for _, t := range res.Tickets {
						fmt.Fprintf(cmd.ErrOrStderr(), "evdesk: created ticket %s for %s\n", t.TicketID, t.Email)
					}
				}
				return err
			}
			outcomes := ticketOutcomes(emails, res)
			if out.value == "json" {
				if err := writeJSON(cmd.OutOrStdout(), outcomes); err != nil {
					return err
				}
			} else {
				rows := make([][]string, len(outcomes))
				for i, o := range outcomes {
					rows[i] = []string{o.Email, o.Result, strings.Join(o.Tickets, ","), o.Message}
				}
				if err := out.writeRows(cmd.OutOrStdout(), []string{"EMAIL", "RESULT", "TICKETS", "MESSAGE"}, rows); err != nil {
					return err
				}
			}
			if len(res.Errors) > 0 {
				return fmt.Errorf("%d of %d tickets refused", len(res.Errors), len(req.Tickets))
			}
			return nil
		}),
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&emails, "email", nil, "attendee address (repeat, or separate with commas)")
	fl.StringVar(&ticketType, "ticket-type", "", "ticket type id (see evdesk ticket-types; default: the event's default type)")
	fl.StringVar(&first, "first", "", "first name (one --email only)")
	fl.StringVar(&last, "last", "", "last name (one --email only)")
	fl.StringSliceVar(&sessions, "session", nil, "session id (repeat; recurring events per the link's option)")
	fl.StringVar(&linkID, "link", "", "access link whose recurring option applies (default: the event's default link)")
	fl.StringVar(&option, "recurring", "", "recurring option to apply without asking the server: "+strings.Join(api.RecurringOptions, ", "))
	fl.BoolVar(&notify, "notify", false, "send the attendees the notification email")
	fl.StringArrayVar(&answers, "answer", nil, "`QUESTION=VALUE` answer to a registration question, for every --email (repeat)")
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	return cmd
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
