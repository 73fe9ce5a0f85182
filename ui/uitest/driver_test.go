package uitest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui/timer"
)

type counter struct{ n int }

type bumpMsg struct{}

func (c *counter) Init() tea.Cmd { return nil }
func (c *counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg:
		// A sequence of two bumps plus a timer that must never run.
		return c, tea.Batch(
			tea.Sequence(func() tea.Msg { return bumpMsg{} }, func() tea.Msg { return bumpMsg{} }),
			timer.After(time.Hour, func(time.Time) tea.Msg { return bumpMsg{} }),
		)
	case bumpMsg:
		c.n++
	}
	return c, nil
}
func (c *counter) View() tea.View { return tea.NewView("") }

func TestDriverRunsSequencesAndSkipsTimers(t *testing.T) {
	c := &counter{}
	d := New(t, c, 80, 24)
	d.Press("x") // a timer that ran would hold the test for an hour
	if c.n != 2 {
		t.Fatalf("bumps = %d, want 2", c.n)
	}
}

// Words reads a question the same wherever a box wraps it.
func TestWordsIgnoresWrapsAndBorders(t *testing.T) {
	view := "╭──────────────╮\n│ /tmp/x/a.srt │\n│ already      │\n│ exists.  Re- │\n╰──────────────╯\n"
	if got, want := Words(view), "/tmp/x/a.srt already exists. Re-"; got != want {
		t.Fatalf("Words = %q, want %q", got, want)
	}
}
