package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestNewsWaitsInTheStatusBarUntilRead: the headline and its key show in
// the status bar; N opens the text and clears the headline; with no news
// N is the screen's to have.
func TestNewsWaitsInTheStatusBarUntilRead(t *testing.T) {
	startup := func() tea.Msg {
		return NewsMsg{Headline: "deprecation: recording fields", Title: "Change log", Text: "The three fields are deprecated."}
	}
	h := newHarness(t, WithStartup(startup))
	if cmd := h.app.startup; cmd == nil {
		t.Fatal("WithStartup kept no command")
	}
	h.send(startup())
	status := lastLine(h.plain())
	for _, want := range []string{"NEWS", "deprecation: recording fields", "N read"} {
		if !strings.Contains(status, want) {
			t.Errorf("status bar %q lacks %q", status, want)
		}
	}
	events := h.roots["Events"]
	h.press("N")
	if len(events.keys) != 0 {
		t.Errorf("the screen got the news key: %v", events.keys)
	}
	if v := h.plain(); !strings.Contains(v, "The three fields are deprecated.") || strings.Contains(lastLine(v), "NEWS") {
		t.Errorf("after N:\n%s", v)
	}
	h.press("x") // any key closes the notice
	h.press("N")
	if len(events.keys) != 1 || events.keys[0] != "N" {
		t.Errorf("without news N should reach the screen, got %v", events.keys)
	}
}
