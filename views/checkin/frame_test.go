package checkin

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
)

// TestDeskFrameLinesAreExact: the desk draws its frame without measuring
// it (fitted), so each of its lines must already be as wide as the desk,
// in every state and size: the frame is what ui.Fit would make of it.
func TestDeskFrameLinesAreExact(t *testing.T) {
	r := newRig(t, withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE", "of 20,000")
	d := r.desk()
	check := func(state string) {
		t.Helper()
		for _, sz := range [][2]int{{100, 30}, {80, 24}, {64, 17}, {40, 12}, {9, 40}} {
			// The desk's own size (the shell keeps rows for itself).
			d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			w, h := d.Width(), d.Height()
			if !d.ViewIsExact() {
				continue
			}
			if v := d.View(); v != ui.Fit(v, w, h) {
				t.Fatalf("%s at %dx%d: a line is not %d wide:\n%s", state, w, h, w, v)
			}
		}
		d.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	}
	check("ready")
	r.scan(r.registered(0))
	r.settle("CHECKED IN")
	check("checked in")
	r.scan(r.registered(0))
	r.settle("ALREADY CHECKED IN")
	check("already")
	r.scan("nobody-at-all@example.org")
	r.settle("NOT REGISTERED")
	check("not registered")
	for i := 1; i <= 12; i++ {
		r.scan(r.registered(i))
	}
	r.settle(fmt.Sprintf("This desk today %d", 13))
	check("a full list of recent scans")
	d.openSearch()
	d.input.SetValue("ana")
	check("the search")
	d.closeSearch()
	d.toggleBoard()
	check("the board")
	d.toggleBoard()
	// A dialog over the desk is measured by the shell.
	r.scan("walk.in@example.org")
	r.settle("NOT REGISTERED", "F5: register them")
	r.Send(fkey(5)) // the walk-in form
	r.Contains("Walk-in: register and check in")
	if !d.Dialog.Open() || d.ViewIsExact() {
		t.Fatalf("the walk-in form open %v, the frame said to be exact %v", d.Dialog.Open(), d.ViewIsExact())
	}
}
