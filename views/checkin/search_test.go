package checkin

import (
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
)

// TestSearchShowsNamesOnlyWhenTheRosterHasThem: the registrants list has
// names only where the service adds them; without any, no Name column.
func TestSearchShowsNamesOnlyWhenTheRosterHasThem(t *testing.T) {
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	for _, c := range []struct {
		people []roster.Person
		named  bool
	}{
		{[]roster.Person{{Email: "a@example.org"}, {Email: "b@example.org"}}, false},
		{[]roster.Person{{Email: "a@example.org"}, {Email: "b@example.org", Name: "Bea Lund"}}, true},
	} {
		r := newRegistrants(ctx.Theme, ctx.Keys, false)
		r.table.SetSize(100, 10)
		r.fill(venue.RosterState{Roster: roster.New("e1", time.Now(), len(c.people), c.people)})
		v := r.table.View()
		if strings.Contains(v, "Name") != c.named || strings.Contains(v, "Bea Lund") != c.named {
			t.Errorf("named %v:\n%s", c.named, v)
		}
	}
}
