package ui

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// TestThemeModes: dark and light are what they say whatever the terminal
// reports; auto and high-contrast follow it; high-contrast has no dim
// text and marks statuses bold; NO_COLOR wins over every mode.
func TestThemeModes(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, c := range []struct {
		mode           string
		reportedDark   bool
		wantDark, high bool
	}{
		{ThemeAuto, false, false, false}, {ThemeAuto, true, true, false},
		{ThemeDark, false, true, false}, {ThemeLight, true, false, false},
		{ThemeHighContrast, true, true, true}, {ThemeHighContrast, false, false, true},
	} {
		app := NewApp(&Context{ThemeMode: c.mode}, nil)
		bg := color.Color(color.White)
		if c.reportedDark {
			bg = color.Black
		}
		app.Update(tea.BackgroundColorMsg{Color: bg})
		th := app.ctx.Theme
		if th.Dark != c.wantDark || th.HighContrast != c.high {
			t.Errorf("%s on a dark=%v terminal: dark %v high-contrast %v", c.mode, c.reportedDark, th.Dark, th.HighContrast)
		}
		if c.high && (!th.Success.GetBold() || th.Muted.GetForeground() == lipgloss.NoColor{}) {
			t.Errorf("%s: statuses not bold or text dimmed", c.mode)
		}
	}
	if th := ThemeFor(ThemeHighContrast, true, true); th.HighContrast || !th.NoColor {
		t.Errorf("NO_COLOR lost to high-contrast: %+v", th)
	}
}

// TestReduceMotionStopsTheSpinner: work in flight shows its count and a
// still mark, and no tick is ever scheduled.
func TestReduceMotionStopsTheSpinner(t *testing.T) {
	for _, reduce := range []bool{false, true} {
		app := NewApp(&Context{ReduceMotion: reduce}, nil)
		_, cmd := app.Update(asyncStartMsg{})
		if (cmd != nil) == reduce {
			t.Errorf("reduce_motion %v: tick scheduled %v", reduce, cmd != nil)
		}
	}
}
