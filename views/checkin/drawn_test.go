package checkin

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
)

// An entry's person words are made again when its person or ticket
// changes (a walk-in gets the roster's person once checked in; a settled
// entry keeps its ticket), never served from the earlier person.
func TestEntryWhoFollowsItsPersonAndTicket(t *testing.T) {
	e := entry{person: &roster.Person{Email: "ana@example.org", Name: "Ana Costa", Company: "Acme"}}
	if got := e.who(); got != personText(e) || !strings.Contains(got, "Ana Costa (Acme)") {
		t.Fatalf("who: %q, personText: %q", got, personText(e))
	}
	e.person = &roster.Person{Email: "ana@example.org", Name: "Ana C. Costa", Tickets: []roster.Ticket{{ID: "T1", Role: "SPEAKER"}}}
	if got := e.who(); got != personText(e) || strings.Contains(got, "Acme") || !strings.Contains(got, "speaker") {
		t.Fatalf("after a new person: %q, want %q", got, personText(e))
	}
	e.ticket = &e.person.Tickets[0] // the scanned ticket's role goes on its own line
	if got := e.who(); got != personText(e) || strings.Contains(got, "speaker") {
		t.Fatalf("after a ticket: %q, want %q", got, personText(e))
	}
	e.person = nil
	if got := e.who(); got != "" {
		t.Fatalf("without a person: %q", got)
	}
}

// The connection line's roster words follow a new roster (count and
// time), as the roster's memo is keyed on the roster itself.
func TestConnectionLineFollowsANewRoster(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "roster ")
	d := r.desk()
	people := []roster.Person{{Email: "a@example.org"}, {Email: "b@example.org"}, {Email: "c@example.org"}}
	for _, c := range []struct {
		ro   *roster.Roster
		want string
	}{
		{roster.New(d.eventID, time.Date(2026, 3, 1, 9, 12, 0, 0, time.UTC), 3, people), "roster 3, updated 09:12"},
		{roster.New(d.eventID, time.Date(2026, 3, 1, 10, 45, 0, 0, time.UTC), 2, people[:2]), "roster 2, updated 10:45"},
	} {
		d.rost = venue.RosterState{Roster: c.ro, Total: c.ro.Total()}
		if line := ansi.Strip(d.connLine()); !strings.Contains(line, c.want) {
			t.Fatalf("connection line %q lacks %q", line, c.want)
		}
	}
	d.rost = venue.RosterState{Loading: true, Loaded: 5, Total: 9}
	if line := ansi.Strip(d.connLine()); !strings.Contains(line, "roster loading 5 of 9") {
		t.Fatalf("connection line while loading: %q", line)
	}
}

// The empty scan input, drawn once, is drawn again at a new size and in
// a new theme: it is what a fresh textinput draws, every time.
func TestEmptyInputFollowsSizeAndTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	r := newRig(t)
	r.settle("ONLINE")
	d := r.desk()
	fresh := func() string { return ui.Fit(d.input.View(), d.Width(), 1) }
	for _, size := range [][2]int{{100, 30}, {80, 24}, {120, 40}, {80, 24}} {
		d.SetSize(size[0], size[1])
		if got := d.inputLine(); got != fresh() {
			t.Fatalf("at %dx%d the empty input is %q, want %q", size[0], size[1], got, fresh())
		}
	}
	*d.Ctx.Theme = *ui.ThemeFor(ui.ThemeAuto, true, false)
	d.Update(tea.BackgroundColorMsg{Color: color.Black})
	dark := d.inputLine()
	*d.Ctx.Theme = *ui.ThemeFor(ui.ThemeAuto, false, false)
	d.Update(tea.BackgroundColorMsg{Color: color.White})
	if got := d.inputLine(); got != fresh() || got == dark {
		t.Fatalf("after the light background the empty input is %q, want %q (dark: %q)", got, fresh(), dark)
	}
}

// The desk's actions, kept between keys, follow what they are built
// from: tab records only while the input holds text, and at a locked
// kiosk esc clears only while there is something to clear.
func TestDeskActionsFollowTheInput(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "roster 20,000")
	d := r.desk()
	r.Press("tab") // nothing typed: tab records nothing
	if d.recent.len() != 0 {
		t.Fatalf("tab on an empty input recorded %+v", *d.recent.at(0))
	}
	email := r.registered(4)
	r.Type(email)
	r.Press("tab")
	if d.recent.len() != 1 || d.recent.at(0).email != email {
		t.Fatalf("tab after %q recorded %d scans", email, d.recent.len())
	}
	r.Press("tab") // emptied by the scan
	if d.recent.len() != 1 {
		t.Fatalf("tab on the emptied input recorded %+v", *d.recent.at(0))
	}

	k := newRig(t, withKioskPIN("246813"))
	k.settle("ONLINE", "KIOSK")
	k.Type("someone@")
	k.Press("esc")
	if v := k.desk().input.Value(); v != "" {
		t.Fatalf("esc at the locked kiosk left %q", v)
	}
	view := k.View()
	k.Press("esc")
	if k.View() != view {
		t.Fatalf("esc with nothing to clear acted at the locked kiosk:\n%s", k.View())
	}
}

// The counters line, whose width is counted as it is written, is exactly
// the desk's width, cut with "…" when narrower than its words.
func TestCountersLineIsExactlyTheWidth(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	r := newRig(t)
	r.settle("ONLINE", "roster 20,000")
	d := r.desk()
	const words = "This desk today 0  All desks 0 of 20,000  Pending 0  Rejected 0  Already 0"
	for _, noColor := range []bool{false, true} {
		*d.Ctx.Theme = *ui.ThemeFor(ui.ThemeAuto, true, noColor)
		d.Update(tea.BackgroundColorMsg{Color: color.Black}) // the theme rebuilt in place: drawn afresh
		for _, w := range []int{20, 60, len(words) - 1, len(words), len(words) + 1, 100, 160} {
			d.SetSize(w, 30)
			line := d.countersLine()
			if got := ansi.StringWidth(line); got != w {
				t.Fatalf("no colour %v: at %d columns the counters line is %d wide: %q", noColor, w, got, line)
			}
			plain := strings.TrimRight(ansi.Strip(line), " ")
			if w >= len(words) && plain != words || w < len(words) && !strings.HasSuffix(plain, "…") {
				t.Fatalf("no colour %v: at %d columns the counters line reads %q", noColor, w, plain)
			}
		}
	}
}

// A frame is a string of its own: the buffer the next frame is written
// in, the desk's, never changes one already returned (the shell keeps the
// last frame to compare with the next).
func TestFramesDoNotShareTheBuffer(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "roster 20,000")
	d := r.desk()
	first := d.View()
	kept := strings.Clone(first)
	r.scan(r.registered(5))
	if second := d.View(); second == first {
		t.Fatal("the scan changed nothing in the frame")
	}
	if first != kept {
		t.Fatalf("the next frame changed the one before:\n%s\nwas:\n%s", first, kept)
	}
}

// A recent scan's line, written in one buffer, reads as the line made of
// fmt's padding and ui.Fit did, coloured or not, for notes, wide and
// non-ASCII addresses and every width.
func TestRecentLineAsPaddedAndFitted(t *testing.T) {
	reference := func(p *paints, k recentKey) string {
		emailW := max(16, min(32, k.w-8-2-19-2-24))
		em := sanitize.Line(k.email)
		if ui.Width(em) > emailW {
			em = ansi.Truncate(em, emailW, "…")
		}
		line := k.when + "  " + p.text[k.role].on(fmt.Sprintf("%-19s", k.word)) + "  " + fmt.Sprintf("%-*s", emailW, em)
		if k.note != "" || k.noted {
			line += "  " + p.muted.on(ui.OneLine(k.note))
		}
		return ui.Fit(line, k.w, 1)
	}
	t.Setenv("NO_COLOR", "")
	r := newRig(t)
	r.settle("ONLINE")
	d := r.desk()
	for _, noColor := range []bool{false, true} {
		*d.Ctx.Theme = *ui.ThemeFor(ui.ThemeAuto, true, noColor)
		d.Update(tea.BackgroundColorMsg{Color: color.Black}) // the theme rebuilt in place: drawn afresh
		p := d.paints()
		if colored := p.text[roleWarn].pre != ""; colored == noColor {
			t.Fatalf("no colour %v, yet the warning paint is %q", noColor, p.text[roleWarn].pre)
		}
		for _, w := range []int{40, 80, 100, 160} {
			for _, k := range []recentKey{
				{when: "09:12:30", word: "SAVING", email: "ana@example.org", role: roleInfo},
				{when: "09:12:31", word: "ALREADY CHECKED IN", email: "josé.müller@exämple.org", role: roleWarn, note: "first scanned 09:01:02", noted: true},
				{when: "        ", word: "QUEUED, NOT SENDING", email: strings.Repeat("long", 20) + "@example.org", role: roleWarn},
				{when: "09:12:32", word: "NOT RECORDED", email: "x@example.org", role: roleErr, noted: true},
				{when: "09:12:33", word: "REJECTED", email: "y@example.org", role: roleErr, note: "two\nlines", noted: true},
			} {
				k.paints, k.w = p, w
				if got, want := recentLine(p, k), reference(p, k); got != want {
					t.Fatalf("no colour %v, %d wide, %+v:\n got %q\nwant %q", noColor, w, k, got, want)
				}
			}
		}
	}
}

// fresh forgets everything the desk keeps of what it drew: its memos and
// every recent scan's lines.
func fresh(d *Desk) {
	d.draw = drawCache{}
	for _, e := range d.recent.all() {
		e.whenText, e.drawnWho, e.drawn = "", nil, nil
	}
}

// Every frame the desk draws from what it keeps is the frame it draws
// afresh: after scans of every kind, as each is answered by the journal
// and the server (its status changes), and after a resize.
func TestKeptDrawingsAreNeverStale(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	r := newRig(t, func(c *rigConfig) { c.checkIn = instantCheckIn })
	r.settle("ONLINE", "roster 20,000")
	d := r.desk()
	*d.Ctx.Theme = *ui.ThemeFor(ui.ThemeAuto, true, false)
	d.Update(tea.BackgroundColorMsg{Color: color.Black})
	check := func(when string) {
		t.Helper()
		kept := d.View()
		fresh(d)
		if again := d.View(); kept != again {
			t.Fatalf("%s, the kept frame:\n%s\nafresh:\n%s", when, kept, again)
		}
	}
	check("at first")
	for i, scan := range []string{r.registered(1), "stranger@example.org", r.registered(2), "ticket-nobody-has", "not an email", r.registered(1)} {
		r.Type(scan)
		r.Press("enter")
		check(fmt.Sprintf("after scan %d (%q), unanswered", i, scan))
		r.settle()
		check(fmt.Sprintf("after scan %d (%q), answered", i, scan))
	}
	d.SetSize(80, 24)
	check("at 80x24")
	d.SetSize(120, 40)
	check("at 120x40")
}
