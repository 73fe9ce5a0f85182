package console

import (
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/viewtest"
)

// The palette finds events whichever tab the console started on (evdesk
// desk EVENT starts on Check-in): it opens the events list in the
// background when no one has, and finds what it loads.
func TestPaletteFindsEventsFromAnyFirstTab(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	srv := viewtest.NewServer(t)
	env := views.Env{Client: srv.Client(t, sim.DemoToken), Now: func() time.Time { return viewtest.Now },
		Local: time.UTC, JournalDir: t.TempDir(), Desks: views.Desks{Desk: "test"}}
	for _, first := range []string{"Check-in", "Phone"} {
		t.Run(first, func(t *testing.T) {
			app := ui.NewApp(viewtest.Context(), Sections(env), ui.WithSection(first))
			d := uitest.New(t, app, 120, 36)
			d.Press(":")
			d.Type("pottery")
			d.Contains("> Event: Pottery for Beginners (weekly)")
			d.Lacks("nothing matches", "Events are loading")
			d.Press("enter")
			d.Contains("Events > Pottery for Beginners (weekly)")
		})
	}
}
