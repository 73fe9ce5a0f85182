package timer

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
)

func TestIsKnowsTimersByTheirCode(t *testing.T) {
	after := After(time.Hour, func(time.Time) tea.Msg { return nil })
	if !Is(after) || !Is(Map(after, nil)) {
		t.Fatal("After and Map make timers")
	}
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	if !Is(c.Blink()) {
		t.Fatal("a text cursor's blink is a timer")
	}
	if Is(func() tea.Msg { return nil }) || Is(nil) {
		t.Fatal("a plain command is not a timer")
	}
}
