package ui

import (
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestAsyncThroughProgram runs the App in a real Bubble Tea program to check
// that Async's start/done sequence works with the runtime, not just in tests
// that unpack it.
func TestAsyncThroughProgram(t *testing.T) {
	release := make(chan struct{})
	results := make(chan int, 1)
	sized := make(chan int, 4)
	screen := &fakeScreen{title: "Events", results: results, sized: sized}
	screen.onKey = func(k string) tea.Cmd {
		if k != "x" {
			return nil
		}
		return Async(func() tea.Msg { <-release; return resultMsg{7} })
	}
	ctx := &Context{Theme: NewTheme(true, true)}
	app := NewApp(ctx, []Section{{Name: "Events", New: func(*Context) Screen { return screen }}})
	p := tea.NewProgram(app,
		tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(80, 24), tea.WithoutSignals())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()

	for w := range sized { // keys are ignored until the size is known
		if w >= MinWidth {
			break
		}
	}
	p.Send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	close(release)
	select {
	case n := <-results:
		if n != 7 {
			t.Fatalf("result %d, want 7", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the async result never reached the screen")
	}
	p.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not quit on ctrl+c")
	}
	if app.InFlight() != 0 {
		t.Fatalf("in flight after the result: %d", app.InFlight())
	}
}
