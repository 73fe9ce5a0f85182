package table

import (
	"testing"

	"github.com/evdesk/evdesk/ui/internal/golden"
)

// Goldens are rendered with the no-colour theme and stripped of attributes;
// the "> " gutter shows the cursor row. Regenerate: go test ./ui/table -update
func TestGolden(t *testing.T) {
	rows := genRows(0, 40, 42)
	for _, tc := range []struct {
		name  string
		w, h  int
		setup func(Model) Model
	}{
		{"basic", 80, 12, func(m Model) Model {
			m.SetTotal(1234)
			return m
		}},
		{"scrolled", 80, 12, func(m Model) Model {
			return press(m, "pgdown", "pgdown", "j", "j")
		}},
		{"sorted_desc_filtered", 80, 12, func(m Model) Model {
			m = press(m, "s", "s", "s", "s", "S", "/")
			m = typeText(m, "berlin")
			return press(m, "enter", "j")
		}},
		{"filter_open_loading", 80, 12, func(m Model) Model {
			m.SetTotal(100000)
			m.SetLoading(true)
			m = press(m, "/")
			return typeText(m, "gala")
		}},
		{"no_match", 80, 8, func(m Model) Model {
			m.SetFilter("zzz")
			return m
		}},
		{"narrow60", 60, 10, func(m Model) Model {
			m.AppendRows(rowsOf([]Row{{ID: "long", Cells: []string{"An extraordinarily long event name that cannot fit", "PUBLISHED", "Saint-Jean-de-Luz", "12,345"}}}))
			return press(m, "G")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.setup(newTable(tc.w, tc.h, rows))
			golden.Assert(t, tc.name, m.View())
		})
	}
	t.Run("empty_loading", func(t *testing.T) {
		m := newTable(80, 6, nil)
		m.SetLoading(true)
		golden.Assert(t, "empty_loading", m.View())
	})
}
