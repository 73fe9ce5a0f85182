package checkin

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
)

// F4 shows the arrivals board in place of the result box, live: checked in
// against registered, per desk, the chart, the latest arrivals and each
// session's count; F4 or esc hides it and the scan input keeps working.
func TestDeskBoardFromAFunctionKey(t *testing.T) {
	r := newRig(t, withSize(120, 36))
	r.settle("ONLINE", "roster 20,000")
	r.checkInAs("Door B", r.registered(50), r.registered(51))
	r.Send(ctrl('r'))
	r.settle("All desks 2 of 20,000")
	r.Send(fkey(4))
	r.Contains("ARRIVALS BOARD", "Checked in 2 of 20,000 (<1%)", "Check-ins by desk", "Door B", "Check-ins by session",
		"Opening Keynote", "Latest arrivals", r.registered(50))
	// Letters are still scans under the board.
	who := r.registered(52)
	r.scan(who)
	r.settle("Checked in 3 of 20,000", "evdesk desk test")
	r.Contains("[OK] CHECKED IN", who)
	r.Golden("board_120x36")
	r.Press("esc")
	r.Lacks("ARRIVALS BOARD")
	r.Contains("[OK] CHECKED IN")
	r.Send(fkey(4))
	r.Contains("ARRIVALS BOARD")
	r.Send(fkey(4))
	r.Lacks("ARRIVALS BOARD")
}

// `evdesk desk --board` is the board alone: it syncs the history itself
// and fits 80x24.
func TestBoardScreenAlone(t *testing.T) {
	r := newRig(t, boardOnly(), withSize(80, 24))
	r.Contains("ARRIVALS BOARD", "Checked in 0 of 20,000")
	r.checkInAs("Door A", r.registered(53))
	r.Press("r")
	r.Contains("Checked in 1 of 20,000", "Door A")
	r.Golden("board_80x24")
}

// A desk of a venue shows the venue on its board: every desk heard from
// with its scans and role, the mesh's state, who sends upstream, and the
// people admitted twice during a split; at 80 columns, on one line.
func TestBoardShowsTheVenue(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	d := views.Env{Now: func() time.Time { return now }, Local: time.UTC}
	b := newBoard(&ui.Context{Theme: ui.NewTheme(true, true)}, d, "ev", "", "sess")
	b.show(roster.Stats{CheckedIn: 3, Registered: 10})
	b.venue = &venue.Info{Name: "Test Hall", State: "meshed", Upstream: "Door B", Replicas: 3, Queue: 12,
		Desks: []venue.DeskInfo{
			{Name: "Door A", Scans: 1204, Seen: now},
			{Name: "Door B", Upstream: true, Scans: 980, Pending: 5, Seen: now},
			{Name: "Door \x1b[31mC", Alone: true, Scans: 7, Seen: now},
			{Name: "Door D", Scans: 1, Seen: now.Add(-time.Minute)},
		},
		Twice: []venue.Twice{{Email: "ana@example.org", First: "Door A", Again: "Door C", At: now.Add(-time.Minute)}}}
	wide := ansi.Strip(b.view(120, 36))
	for _, want := range [][]string{{"Venue Test Hall"}, {"MESHED · upstream Door B"}, {"3 copies · 12 to send"},
		{"Door A", "1,204"}, {"Door B", "980", "upstream", "5 waiting"}, {"Door", "C", "7", "alone"}, {"Door D", "1", "silent"},
		{"Admitted twice during a split: 1"}, {"ana@example.org Door A, again Door C 09:29"}} {
		if !hasLineWith(wide, want...) {
			t.Errorf("the wide board has no line with %q:\n%s", want, wide)
		}
	}
	narrow := ansi.Strip(b.view(80, 24))
	if !strings.Contains(narrow, "Venue: MESHED · upstream Door B") {
		t.Errorf("the narrow board lacks the venue line:\n%s", narrow)
	}
	if !strings.Contains(narrow, "12 to send · 3 desks") {
		t.Errorf("the narrow board counts the silent Door D as present:\n%s", narrow)
	}
	if strings.ContainsRune(wide+narrow, '\x1b') {
		t.Error("a desk's name reached the screen with its escape")
	}
	b.venue.State, b.venue.Upstream = "alone", ""
	if s := ansi.Strip(b.view(120, 36)); !strings.Contains(s, "CUT OFF: working alone · no upstream") {
		t.Errorf("cut off:\n%s", s)
	}
	// A board that has heard no desk lately says so, and counts none.
	b.venue.State, b.venue.Replicas = "cutoff", 0
	for i := range b.venue.Desks {
		b.venue.Desks[i].Seen = now.Add(-time.Minute)
	}
	if s := ansi.Strip(b.view(80, 24)); !strings.Contains(s, "Venue: CUT OFF: no desk heard · 12 to send · 0 desks") {
		t.Errorf("a board that hears no desk:\n%s", s)
	}
}

// hasLineWith reports whether a line of s holds every part, in order.
func hasLineWith(s string, parts ...string) bool {
	for _, line := range strings.Split(s, "\n") {
		rest, ok := line, true
		for _, p := range parts {
			i := strings.Index(rest, p)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(p):]
		}
		if ok {
			return true
		}
	}
	return false
}

// fakeVenue is a venue as a board watcher sees it.
type fakeVenue struct {
	in   venue.Info
	seen []roster.Arrival
}

func (f fakeVenue) Info() venue.Info                     { return f.in }
func (f fakeVenue) Admissions() ([]roster.Arrival, bool) { return f.seen, true }
func (f fakeVenue) Close() error                         { return nil }

// `evdesk desk --board --venue` watches the venue: its desks, who sends
// upstream and the mesh's state join the board.
func TestBoardScreenWatchesItsVenue(t *testing.T) {
	ids := sim.New(sim.Options{}).Fixtures()
	who := sim.New(sim.Options{}).RegistrantEmails(ids.LargeConferenceEventID)[53]
	watch := func(ev, sess string) (views.VenueWatch, error) {
		return fakeVenue{in: venue.Info{Name: "Test Hall", State: "meshed", Upstream: "Door B", Replicas: 3,
			Desks: []venue.DeskInfo{{Name: "Door A", Scans: 12, Seen: testClock()}, {Name: "Door B", Upstream: true, Seen: testClock()}}},
			seen: []roster.Arrival{{Email: who, Desk: "Door A", At: testNow.Add(-25 * time.Minute)}}}, nil
	}
	r := newRig(t, boardOnly(), withSize(120, 36), withVenueWatch(watch))
	r.Contains("ARRIVALS BOARD", "Venue Test Hall", "MESHED · upstream Door B", "3 copies")
	// The service's history has no times: the board takes each venue
	// check-in's from the scan (09:35), not from when it found it (10:00).
	r.checkInAs("Door A", who)
	r.Press("r")
	r.Contains("Checked in 1 of 20,000", "09:35:00  "+who)
	r.Lacks("10:00:00  " + who)
}

// A desk of a venue says so on its connection line: joining, meshed with
// the desk that sends upstream, or cut off and working alone; a scan on its
// way names the desk that sends it.
func TestDeskLineSpeaksForTheVenue(t *testing.T) {
	d := &Desk{deps: views.Env{Now: testClock, Local: time.UTC}}
	if _, word, _ := d.connWords(); word != "CONNECTING" {
		t.Fatalf("a desk without a venue: %q", word)
	}
	d.vinfo = &venue.Info{Name: "Test \x1b[2JHall", State: "joining"}
	if r, word, detail := d.connWords(); r != roleInfo || word != "JOINING VENUE" || !strings.Contains(detail, "Test") || strings.ContainsRune(detail, '\x1b') {
		t.Fatalf("joining: %v %q %q", r, word, detail)
	}
	d.vinfo = &venue.Info{Name: "Test Hall", State: "meshed", Upstream: "Door B", Desks: make([]venue.DeskInfo, 3)}
	if r, word, detail := d.connWords(); r != roleOK || word != "MESHED" || detail != "Test Hall, 3 desks · upstream Door B" {
		t.Fatalf("meshed: %v %q %q", r, word, detail)
	}
	e := entry{kind: kindPending, expect: scanqueue.ExpectRegistered}
	if v := describe(&e, new(d.conn()), time.UTC); v.word != "RECORDED, SENDING" || !strings.Contains(v.detail, "Door B sends it to the server") {
		t.Fatalf("a pending scan at a meshed desk: %+v", v)
	}
	d.vinfo.State = "alone"
	if _, word, detail := d.connWords(); word != "CONNECTING" || !strings.HasPrefix(detail, "cut off from the venue, working alone") {
		t.Fatalf("cut off: %q %q", word, detail)
	}
}

// boardWithData is a busy event's board: two desks, a morning of
// arrivals, eight latest arrivals and eight sessions whose names repeat
// the event's.
func boardWithData() board {
	now := time.Date(2026, 11, 23, 11, 0, 0, 0, time.UTC)
	d := views.Env{Now: func() time.Time { return now }, Local: time.UTC}
	b := newBoard(&ui.Context{Theme: ui.NewTheme(true, true)}, d, "ev", "Pottery for Beginners (weekly)", "")
	st := roster.Stats{CheckedIn: 412, Registered: 900, Synced: now,
		PerDesk: []roster.DeskCount{{Desk: "North Entrance Door A", Count: 260}, {Desk: "Door B", Count: 152}}}
	for i := range 24 {
		st.Buckets = append(st.Buckets, roster.Bucket{Start: now.Add(time.Duration(i-24) * 5 * time.Minute), Count: (i * 7) % 23})
	}
	for i := range boardLatest {
		st.Latest = append(st.Latest, roster.Arrival{Email: fmt.Sprintf("guest.number.%d@example.org", i), Desk: "Door B",
			At: now.Add(-time.Duration(i) * time.Minute)})
	}
	b.show(st)
	for i, day := range []string{"Tue 17 Nov 2026", "Thu 19 Nov 2026", "Tue 24 Nov 2026", "Thu 26 Nov 2026",
		"Tue 1 Dec 2026", "Thu 3 Dec 2026", "Tue 8 Dec 2026", "Hands-on Glazing Masterclass for Returning Students"} {
		name := "Pottery for Beginners (weekly): " + day
		if i == 7 {
			name = day
		}
		b.sessions = append(b.sessions, roster.SessionCount{Name: name, CheckedIn: i})
	}
	return b
}

// The board uses its width: at 120 columns the sessions' names are whole
// (without the event's name they repeat) and so are the desks'; at 80x24,
// on the desk itself (a board of 12 rows) and alone (19), it still shows
// the desks, the latest arrivals and the sessions, giving the chart fewer
// rows first.
func TestBoardLaysOutToItsSize(t *testing.T) {
	b := boardWithData()
	wide := ansi.Strip(b.view(120, 26))
	for _, want := range [][]string{{"North Entrance Door A", "260"}, {"Tue 17 Nov 2026", "0"},
		{"Hands-on Glazing Masterclass for Returning", "7"}, {"guest.number.0@example.org", "Door B"}, {"Arrivals per 5 minutes"}} {
		if !hasLineWith(wide, want...) {
			t.Errorf("the wide board has no line with %q:\n%s", want, wide)
		}
	}
	if strings.Contains(wide, "Pottery for Beginners (weekly): Tue") {
		t.Errorf("the sessions repeat the event's name:\n%s", wide)
	}
	for _, h := range []int{12, 19} {
		s := ansi.Strip(b.view(80, h))
		if n := len(strings.Split(s, "\n")); n != h {
			t.Errorf("80x%d: %d lines", h, n)
		}
		for _, want := range [][]string{{"Desks: North Entrance Door A 260 · Door B 152"}, {"Latest arrivals"},
			{"guest.number.0@example.org", "Door B"}, {"Check-ins by session"}, {"Tue 17 Nov 2026", "0"}} {
			if !hasLineWith(s, want...) {
				t.Errorf("80x%d has no line with %q:\n%s", h, want, s)
			}
		}
		for _, line := range strings.Split(s, "\n") {
			if ansi.StringWidth(line) > 80 {
				t.Errorf("80x%d: a line of %d columns: %q", h, ansi.StringWidth(line), line)
			}
		}
	}
	if s := ansi.Strip(b.view(80, 12)); !strings.Contains(s, "Arrivals per 5 minutes") || !strings.Contains(s, "... and 5 more") {
		t.Errorf("80x12: a chart of one row, and the sessions that do not fit counted:\n%s", s)
	}
	if s := ansi.Strip(b.view(80, 19)); !hasLineWith(s, "Hands-on Glazing Masterclass", "7") || strings.Contains(s, "... and") {
		t.Errorf("80x19: every session:\n%s", s)
	}
	t.Logf("120x26:\n%s\n80x12:\n%s\n80x19:\n%s", wide, ansi.Strip(b.view(80, 12)), ansi.Strip(b.view(80, 19)))
}
