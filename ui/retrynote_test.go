package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui/internal/golden"
)

// While work is in flight the status bar counts the client's retries; once
// nothing is retried it says nothing of them.
func TestStatusBarCountsTheRetries(t *testing.T) {
	note := &RetryNote{}
	app := NewApp(&Context{Theme: NewTheme(true, true), Retries: note},
		[]Section{{Name: "Events", New: func(*Context) Screen { return &fakeScreen{title: "Events"} }}})
	app.Init()
	app.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	app.Update(asyncStartMsg{})
	note.Set("list events: try 2 of 8 in 1s (HTTP 503)")
	if v := golden.Plain(app.View().Content); !strings.Contains(v, "1 in flight, list events: try 2 of 8 in 1s (HTTP 503)") {
		t.Fatalf("the retry is not in view:\n%s", v)
	}
	note.Set("")
	if v := golden.Plain(app.View().Content); strings.Contains(v, "try 2") || !strings.Contains(v, "1 in flight") {
		t.Fatalf("a finished retry stays in view:\n%s", v)
	}
	var none *RetryNote
	none.Set("ignored")
	if none.Text() != "" {
		t.Fatal("a nil note said something")
	}
}

// At 80 columns a long retry is cut before the keys on the right are, and
// what the server side put in it reaches the terminal sanitised.
func TestStatusBarCutsALongRetryBeforeItsKeys(t *testing.T) {
	note := &RetryNote{}
	app := NewApp(&Context{Theme: NewTheme(true, true), Retries: note, Profile: "test"},
		[]Section{{Name: "Events", New: func(*Context) Screen { return &fakeScreen{title: "Events"} }}})
	app.Init()
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	app.Update(asyncStartMsg{})
	note.Set("list events: try 2 of 3 in 2s (cannot reach evil\x1b]0;owned\x07.example.org:443: no such host, the whole long cause)")
	raw := app.View().Content
	if strings.Contains(raw, "\x1b]0;") {
		t.Fatal("the note's escape sequence reached the terminal")
	}
	lines := strings.Split(strings.TrimRight(golden.Plain(raw), "\n"), "\n")
	bar := lines[len(lines)-1]
	if !strings.Contains(bar, "1 in flight, list events: try 2 of 3") || !strings.Contains(bar, "…") || !strings.HasSuffix(strings.TrimRight(bar, " "), "? help") {
		t.Fatalf("the status bar at 80 columns:\n%q", bar)
	}
}
