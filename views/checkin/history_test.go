package checkin

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
)

// TestHistoryReloadKeepsTheRows feeds pages by hand: the first load shows
// as it arrives, a reload keeps the rows until its answer is whole, and a
// failed reload keeps them and says so.
func TestHistoryReloadKeepsTheRows(t *testing.T) {
	client, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	h := NewHistory(ctx, views.Env{Client: client}, "e1", "Launch", "").(*History)
	h.SetSize(100, 20)
	_ = h.Init() // not run: pages are fed by hand
	page := func(n int, done bool) ui.Page[api.AttendeeAction] {
		p := ui.Page[api.AttendeeAction]{Total: n, Done: done}
		for i := range n {
			p.Items = append(p.Items, api.AttendeeAction{Email: fmt.Sprintf("p%d@example.org", i), Action: "check-in", Source: "Desk 1"})
		}
		return p
	}
	view := func(want ...string) {
		t.Helper()
		v := h.View()
		for _, w := range want {
			if !strings.Contains(v, w) {
				t.Fatalf("view lacks %q:\n%s", w, v)
			}
		}
	}
	h.onPage(page(3, true))
	view("3 check-ins", "p2@example.org")

	_ = h.reload()
	view("3 check-ins, refreshing...", "p2@example.org")
	h.onPage(page(5, false))
	view("3 check-ins, refreshing...", "p2@example.org")
	if strings.Contains(h.View(), "p4@example.org") {
		t.Fatalf("a partial reload reached the table:\n%s", h.View())
	}
	h.onPage(ui.Page[api.AttendeeAction]{Err: fmt.Errorf("connection refused")})
	view("3 check-ins", "ERROR: reload failed", "p2@example.org")

	_ = h.reload()
	h.onPage(page(5, true))
	view("5 check-ins", "p4@example.org")
}

// TestHistoryShowsWhenADeskHereFirstSawEach: the service keeps no times,
// so the history shows when a desk on this computer first knew of each
// check-in, from the desks' arrivals cache, with the date on another day.
func TestHistoryShowsWhenADeskHereFirstSawEach(t *testing.T) {
	client, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	ar := roster.NewArrivals()
	ar.Note("p0@example.org", "Door B", now.Add(-5*time.Minute))
	ar.Note("P1@Example.org", "Door B", now.Add(-26*time.Hour))
	if err := ar.Save(roster.ArrivalsPath(dir, "e1", ""), "e1", ""); err != nil {
		t.Fatal(err)
	}
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	h := NewHistory(ctx, views.Env{Client: client, JournalDir: dir, Now: func() time.Time { return now }, Local: time.UTC},
		"e1", "Launch", "").(*History)
	h.SetSize(110, 20)
	h.Update(h.Init()()) // the cache is read; the listing's pages are fed by hand
	p := ui.Page[api.AttendeeAction]{Total: 3, Done: true}
	for i := range 3 {
		p.Items = append(p.Items, api.AttendeeAction{Email: fmt.Sprintf("p%d@example.org", i), Action: "check-in", Source: "Door B"})
	}
	h.onPage(p)
	v := h.View()
	for _, want := range []string{"First seen here", "09:55:00", "Sun 22 Nov 08:00"} {
		if !strings.Contains(v, want) {
			t.Fatalf("view lacks %q:\n%s", want, v)
		}
	}
	if row := lineWith(v, "p2@example.org"); !strings.HasSuffix(strings.TrimSpace(row), "-") {
		t.Fatalf("a check-in no desk here saw should show -: %q", row)
	}
}

func lineWith(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
