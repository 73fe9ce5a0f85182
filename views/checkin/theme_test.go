package checkin

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui"
)

// TestDeskRedrawsInTheTerminalsTheme: the App rebuilds the theme in place
// when the terminal says its background, after the desk has drawn; the
// desk's next frame is in the new theme's colours, not its drawn lines'.
func TestDeskRedrawsInTheTerminalsTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	r := newRig(t)
	r.settle("ONLINE", "roster 20,000")
	d := r.desk()
	*d.Ctx.Theme = *ui.ThemeFor(ui.ThemeAuto, true, false)
	d.Update(tea.BackgroundColorMsg{Color: color.Black})
	dark := d.View()
	*d.Ctx.Theme = *ui.ThemeFor(ui.ThemeAuto, false, false)
	d.Update(tea.BackgroundColorMsg{Color: color.White})
	light := d.View()
	d.draw = drawCache{}
	if fresh := d.View(); light != fresh || light == dark {
		t.Fatalf("after the light background the desk drew:\n%q\nand afresh:\n%q", light, fresh)
	}
}
