package registration

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

// createdMsg reports a create-tickets call.
type createdMsg struct {
	emails []string
	res    *api.TicketsResult
	err    error
}

// parseAttendees reads one attendee a line: "email[, first[, last]]".
func parseAttendees(text string) []api.TicketRequest {
	var out []api.TicketRequest
	for _, line := range strings.Split(text, "\n") {
		parts := strings.Split(line, ",")
		if strings.TrimSpace(parts[0]) == "" {
			continue
		}
		t := api.TicketRequest{Email: strings.TrimSpace(parts[0])}
		if len(parts) > 1 {
			t.FirstName = strings.TrimSpace(parts[1])
		}
		if len(parts) > 2 {
			t.LastName = strings.TrimSpace(strings.Join(parts[2:], ","))
		}
		out = append(out, t)
	}
	return out
}

// request builds the tickets for the people typed, per the current choices,
// each with the answers to the required questions.
func (s *Screen) request(text string, answers map[string]string) *api.TicketsRequest {
	opt, ids, typ := s.option(), s.chosenIDs(), s.currentTypeID()
	req := &api.TicketsRequest{Option: opt}
	for _, p := range parseAttendees(text) {
		p.TicketTypeID = typ
		for _, q := range s.questions {
			if a := strings.TrimSpace(answers[q]); a != "" {
				p.SetAnswer(q, a)
			}
		}
		req.Tickets = append(req.Tickets, api.BuildTickets(opt, p, ids)...)
	}
	return req
}

func (s *Screen) openForm() tea.Cmd {
	text := new(string)
	*text = s.typed
	answers := make([]string, len(s.questions))
	for i, q := range s.questions {
		answers[i] = s.answers[q]
	}
	validate := s.validator()
	fields := []huh.Field{huh.NewText().Title("Attendees").
		Description("One a line: email, first name, last name (names optional). alt+enter or ctrl+j: new line.").
		Value(text).CharLimit(20000).Lines(6).Validate(validate)}
	for i, q := range s.questions {
		in := huh.NewInput().Title(api.QuestionLabel(q)).Value(&answers[i]).Validate(required(q))
		if i == 0 {
			in.Description("Required by the registration form, one answer for everyone above:")
		}
		fields = append(fields, in)
	}
	f := ui.NewForm(s.Ctx.Theme, "Register attendees for "+s.eventName, func() tea.Cmd {
		given := map[string]string{}
		for i, q := range s.questions {
			given[q] = answers[i]
		}
		return s.register(*text, given)
	}, huh.NewGroup(fields...))
	return s.Dialog.ShowForm(f)
}

// required refuses a blank answer to a required question.
func required(question string) func(string) error {
	return func(v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s is required by the registration form", api.QuestionLabel(question))
		}
		return nil
	}
}

// validator checks the typed attendees with the client's rules, naming the
// line of the first problem.
func (s *Screen) validator() func(string) error {
	opt, ids := s.option(), s.chosenIDs()
	return func(text string) error {
		people := parseAttendees(text)
		if len(people) == 0 {
			return errors.New("enter at least one email address")
		}
		for i, p := range people {
			if err := api.CheckEmail(p.Email); err != nil {
				return fmt.Errorf("line %d: email %v", i+1, err)
			}
		}
		req := &api.TicketsRequest{Option: opt}
		for _, p := range people {
			req.Tickets = append(req.Tickets, api.BuildTickets(opt, p, ids)...)
		}
		var ve *api.ValidationError
		if err := req.Validate(); errors.As(err, &ve) {
			return errors.New(ve.Problems[0].Field + " " + ve.Problems[0].Message)
		}
		return nil
	}
}

func (s *Screen) register(text string, answers map[string]string) tea.Cmd {
	s.typed = text
	for q, a := range answers {
		s.answers[q] = a
	}
	req := s.request(text, answers)
	var emails []string
	for _, t := range req.Tickets {
		if !slices.Contains(emails, t.Email) {
			emails = append(emails, t.Email)
		}
	}
	s.summary, s.results, s.failed = "", nil, false
	client, id, learn := s.client, s.eventID, s.learn
	return s.Do("creating tickets", func() tea.Msg {
		res, err := client.Registration.CreateTickets(context.Background(), id, req)
		if learn != nil {
			learn(id, req.Tickets, res)
		}
		return createdMsg{emails: emails, res: res, err: err}
	})
}

// learnQuestions keeps the required questions a refusal names; it reports
// whether there were any the form did not ask yet.
func (s *Screen) learnQuestions(err error) bool {
	if !api.IsCode(err, api.CodeMissingRequiredAnswers) {
		return false
	}
	added := false
	for _, q := range api.QuestionsIn(err) {
		if !slices.Contains(s.questions, q) {
			s.questions, added = append(s.questions, q), true
		}
	}
	return added
}

func (s *Screen) onCreated(m createdMsg) tea.Cmd {
	s.results = nil
	if m.res != nil {
		counts := map[string]int{}
		for _, t := range m.res.Tickets {
			counts[api.NormalizeEmail(t.Email)]++
		}
		refused := map[string]string{}
		for _, e := range m.res.Errors {
			refused[api.NormalizeEmail(e.Email)] = strings.TrimSuffix(e.Message, ".") + " (" + e.ErrorCode + ")"
		}
		refusal, refusedAt := wholeRefusal(m.err), -1
		for i, e := range m.emails {
			switch {
			case refused[e] != "":
				s.results = append(s.results, "REFUSED "+e+": "+refused[e])
			case counts[e] > 0:
				s.results = append(s.results, fmt.Sprintf("OK      %s: %s", e, ui.Count(counts[e], "ticket")))
			case refusal != "":
				// The refused request's people, and those after it,
				// which were never sent: nobody of them was registered.
				if refusedAt < 0 {
					refusedAt = i - i%api.MaxTicketsPerRequest
				}
				why := "the request was refused " + refusal
				if i >= refusedAt+api.MaxTicketsPerRequest {
					why = "not sent (an earlier request was refused)"
				}
				s.results = append(s.results, "NOT REGISTERED "+e+": "+why)
			case m.err != nil:
				s.results = append(s.results, "UNKNOWN "+e+": not sent or no answer")
			}
		}
	}
	var level ui.ToastLevel
	switch {
	case s.learnQuestions(m.err):
		s.summary, s.failed, level = fmt.Sprintf("NEEDS ANSWERS nobody was registered: the registration form requires %s (%s: the form asks for them)",
			ui.Count(len(s.questions), "answer"), s.Ctx.Keys.Add.Help().Key), true, ui.ToastError
		s.results = nil
		for _, q := range s.questions {
			s.results = append(s.results, "ASK     "+api.QuestionLabel(q))
		}
	case m.err != nil && errors.Is(m.err, api.ErrOutcomeUnknown):
		s.summary, s.failed, level = "ERROR no answer arrived: check the registrants before trying again. "+m.err.Error(), true, ui.ToastError
	case m.err != nil && wholeRefusal(m.err) != "" && (m.res == nil || len(m.res.Tickets) == 0):
		s.summary, s.failed, level = "ERROR nobody was registered: "+m.err.Error(), true, ui.ToastError
	case m.err != nil:
		s.summary, s.failed, level = "ERROR "+m.err.Error(), true, ui.ToastError
	case len(m.res.Errors) > 0:
		s.summary, s.failed, level = fmt.Sprintf("PARTLY registered %d of %d people", len(m.emails)-len(m.res.Errors), len(m.emails)), true, ui.ToastError
	default:
		s.summary, level = fmt.Sprintf("OK registered %d %s (%s)", len(m.emails), people(len(m.emails)),
			ui.Count(len(m.res.Tickets), "ticket")), ui.ToastSuccess
	}
	if level != ui.ToastError {
		return tea.Batch(ui.Toast(level, strings.TrimPrefix(s.summary, "OK ")), s.Done())
	}
	// All that is known of the failure goes to the recent errors: the
	// call's own error, or each refused person with the server's code and
	// its meaning.
	failure := m.err
	if s.questions != nil && api.IsCode(m.err, api.CodeMissingRequiredAnswers) {
		failure = ui.Explain(s.summary, m.err) // what to do, and the server's all
	}
	if failure == nil && m.res != nil {
		items := make([][2]string, len(m.res.Errors))
		for i, e := range m.res.Errors {
			why := e.Meaning()
			if e.Message != "" && !strings.EqualFold(strings.TrimSuffix(e.Message, "."), why) {
				why += " (server: " + e.Message + ")"
			}
			items[i] = [2]string{e.Email, why + " [" + e.ErrorCode + "]"}
		}
		failure = &ui.ItemsRefused{Summary: fmt.Sprintf("registered %d of %d people", len(m.emails)-len(m.res.Errors), len(m.emails)), Items: items}
	}
	if failure == nil {
		failure = errors.New(strings.TrimPrefix(s.summary, "ERROR "))
	}
	return tea.Batch(ui.Fail("Register attendees", failure), s.Done())
}

// wholeRefusal is the meaning of a 4xx answer to the whole request (the
// server registered nobody it names), or "" for any other failure, whose
// outcome is not known.
func wholeRefusal(err error) string {
	var ae *api.Error
	if err == nil || errors.Is(err, api.ErrOutcomeUnknown) || !errors.As(err, &ae) || ae.Status < 400 || ae.Status >= 500 {
		return ""
	}
	ref := fmt.Sprintf("HTTP %d", ae.Status)
	if ae.Code != 0 {
		ref = fmt.Sprintf("error %d", ae.Code)
	}
	return "(" + ref + "): " + ae.Meaning()
}

func people(n int) string {
	if n == 1 {
		return "person"
	}
	return "people"
}
