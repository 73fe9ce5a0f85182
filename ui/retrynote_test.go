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
