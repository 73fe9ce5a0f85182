package registration

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

// refusal is the screen before the event has loaded, when it failed to
// load, or when the event takes no registrations.
func (s *Screen) refusal() string {
	th := s.Ctx.Theme
	st := ui.LoadState{Loading: s.flow.Running(), Err: s.flowErr}
	if s.closed != "" {
		st.Summary = "registration closed"
	}
	lines := []string{ui.Fit(ui.Heading(th, th.Title.Render("Register attendees: "+s.eventName), st), s.Width(), 1)}
	switch {
	case s.closed != "":
		text := th.Warning.Render("CLOSED") + " " + s.closed
		lines = append(lines, lipgloss.NewStyle().Width(s.Width()).Render(text))
	case s.flowErr != nil:
		lines = append(lines, ui.Fit(th.Error.Render(s.flowErr.Error()), s.Width(), 1))
	}
	return strings.Join(lines, "\n")
}

// steps are the lines above the sessions: one per step, done or not.
func (s *Screen) steps() []string {
	if s.event == nil {
		return nil
	}
	th, k, w := s.Ctx.Theme, s.Ctx.Keys, s.Width()
	done := func(ok bool, text string) string {
		if ok {
			return ui.Fit(th.Success.Render("[x] ")+text, w, 1)
		}
		return ui.Fit(th.Warning.Render("[ ] ")+text, w, 1)
	}
	var lines []string
	if s.flowErr != nil {
		lines = append(lines, ui.Fit(th.Error.Render("ERROR reloading: "+s.flowErr.Error()+" ("+k.Refresh.Help().Key+" retries)"), w, 1))
	}
	hub := s.event.HubID
	label := ui.OrDash(hub)
	if s.hubName != "" {
		label = s.hubName
	}
	lines = append(lines, done(hub != "", "1 Hub         "+label))
	lines = append(lines, done(true, "2 Published   "+strings.ToLower(s.event.Status)))
	choose := k.Edit.Help().Key + " to choose"
	l, hasLink := s.currentLink()
	linkText := "none: create one with " + k.Links.Help().Key + " on the event detail"
	if hasLink {
		linkText = fmt.Sprintf("%s [%s]  (%d of %d, %s)", l.Name, l.Type, s.link+1, len(s.links), choose)
	}
	lines = append(lines, done(hasLink, "3 Access link "+linkText))
	typeText := "none"
	if s.ttype < len(s.types) {
		typeText = fmt.Sprintf("%s  (%d of %d, %s)", s.types[s.ttype].Label(), s.ttype+1, len(s.types), choose)
	}
	lines = append(lines, ui.Fit("    Ticket type "+typeText, w, 1))
	opt := s.option()
	optText := "not a recurring event: sessions optional"
	if opt != "" {
		optText = api.RecurringOptionLabel(opt)
	}
	lines = append(lines, ui.Fit("    Registers   "+optText, w, 1))
	n := len(s.chosenIDs())
	sessText := fmt.Sprintf("%d of %d chosen (%s, %s all or none)", n, len(s.Items), k.Toggle.Help().Key, k.ToggleAll.Help().Key)
	if opt == api.RecurringAllSessions {
		sessText = fmt.Sprintf("all %d still to come", len(s.Items))
	}
	return append(lines, done(opt == "" || opt == api.RecurringAllSessions || n > 0, "4 Sessions    "+sessText))
}

// after is step 5 and the last registration's results.
func (s *Screen) after() []string {
	if s.event == nil {
		return nil
	}
	th, w := s.Ctx.Theme, s.Width()
	step5 := "5 Attendees   press " + s.Ctx.Keys.Add.Help().Key + " to enter emails and create tickets"
	mark := th.Warning.Render("[ ] ")
	switch why := s.missing(); {
	case why != "":
		step5 = "5 Attendees   not yet: " + why
	case s.summary != "" && !s.failed:
		mark = th.Success.Render("[x] ")
	}
	lines := []string{ui.Fit(mark+step5, w, 1)}
	if s.summary == "" {
		return lines
	}
	st := th.Success
	if s.failed {
		st = th.Error
	}
	lines = append(lines, ui.Fit(st.Render(s.summary), w, 1))
	for i, r := range s.results {
		if i == maxResults {
			lines = append(lines, ui.Fit(fmt.Sprintf("  ...and %d more", len(s.results)-i), w, 1))
			break
		}
		st := th.Success
		if !strings.HasPrefix(r, "OK") {
			st = th.Error
		}
		lines = append(lines, ui.Fit("  "+st.Render(r), w, 1))
	}
	return lines
}

// maxResults bounds the per-email lines.
const maxResults = 6
