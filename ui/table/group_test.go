package table

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/ui/internal/golden"
)

// settingsRows are a phone's settings in three groups, interleaved in the
// data as an API may return them.
func settingsRows() []Row {
	r := func(id, group, name, status, city, seats string) Row {
		return Row{ID: id, Group: group, Cells: []string{name, status, city, seats}}
	}
	return []Row{
		r("vm-greet", "Voicemail", "Greeting", "PUBLISHED", "Berlin", "3"),
		r("call-fwd", "Calls", "Forwarding", "DRAFT", "Lisbon", "12"),
		r("vm-pin", "Voicemail", "PIN", "DRAFT", "Osaka", "1"),
		r("rec-on", "Recording", "Record calls", "PUBLISHED", "Berlin", "7"),
		r("call-wait", "Calls", "Call waiting", "PUBLISHED", "Lima", "2"),
		r("vm-mail", "Voicemail", "Email copies", "cancelled", "Berlin", "40"),
		r("rec-keep", "Recording", "Keep for", "DRAFT", "Toronto", "30"),
		r("call-dnd", "Calls", "Do not disturb", "past", "Osaka", "5"),
	}
}

func groupedTable(w, h int, rows []Row) Model {
	m := New(testTheme, testColumns()...)
	m.SetSize(w, h)
	m.SetGrouped(true)
	m.SetRows(rowsOf(rows))
	return m
}

// referenceGrouped is reference's order, stably regrouped by the order in
// which group titles first appear in the data as delivered.
func referenceGrouped(rows []Row, sortCol int, desc bool, query string) []string {
	latest, rank := map[string]Row{}, map[string]int{}
	for _, r := range rows {
		latest[r.ID] = r
		if _, ok := rank[r.Group]; !ok {
			rank[r.Group] = len(rank)
		}
	}
	ids := reference(rows, sortCol, desc, query)
	slices.SortStableFunc(ids, func(a, b string) int { return cmp.Compare(rank[latest[a].Group], rank[latest[b].Group]) })
	return ids
}

func TestGroupedOrderFollowsFirstAppearanceThenSort(t *testing.T) {
	rows := settingsRows()
	m := groupedTable(80, 14, rows)
	assertIDs(t, visibleIDs(m), []string{"vm-greet", "vm-pin", "vm-mail", "call-fwd", "call-wait", "call-dnd", "rec-on", "rec-keep"})
	m.SetSort(3, true) // seats, most first, within each group
	assertIDs(t, visibleIDs(m), []string{"vm-mail", "vm-greet", "vm-pin", "call-fwd", "call-dnd", "call-wait", "rec-keep", "rec-on"})
	m.SetGrouped(false)
	assertIDs(t, visibleIDs(m), reference(rows, 3, true, ""))
}

func TestGroupedMatchesReferenceThroughPagesFiltersAndSorts(t *testing.T) {
	groupNames := []string{"Voicemail", "Calls", "Recording", "Devices", ""}
	var all []Row
	m := groupedTable(80, 15, nil)
	for _, tc := range []struct {
		sortCol int
		desc    bool
		query   string
	}{{-1, false, ""}, {0, false, "summit"}, {3, true, "berlin"}, {-1, true, "e"}, {1, false, ""}} {
		m.SetSort(tc.sortCol, tc.desc)
		m.SetFilter(tc.query)
		for page := range 3 {
			p := genRows(len(all), 200, uint64(page+20))
			r := rand.New(rand.NewPCG(uint64(len(all)), 3))
			for i := range p {
				p[i].Group = groupNames[r.IntN(len(groupNames))]
			}
			p = append(p, Row{ID: "r000001", Group: "Moved", Cells: []string{"Moved Summit", "DRAFT", "Berlin", "9"}})
			all = append(all, p...)
			m.AppendRows(rowsOf(p))
			assertIDs(t, visibleIDs(m), referenceGrouped(all, tc.sortCol, tc.desc, tc.query))
		}
	}
}

func TestGroupedGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		w, h  int
		setup func(Model) Model
	}{
		{"grouped", 80, 14, func(m Model) Model { return press(m, "j", "j", "j") }},
		// No Calls row is in Berlin: the whole group and its title go.
		{"grouped_filter_hides_group", 80, 14, func(m Model) Model {
			m = press(m, "/")
			return typeText(m, "berlin")
		}},
		// Five body lines: moving down onto Calls' first row brings its
		// title in with it; G shows the last rows and the last title.
		{"grouped_scrolled", 60, 7, func(m Model) Model { return press(m, "j", "j", "j") }},
		{"grouped_end", 60, 7, func(m Model) Model { return press(m, "G") }},
		{"grouped_sorted", 80, 14, func(m Model) Model { return press(m, "s", "s", "s", "s", "S") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.setup(groupedTable(tc.w, tc.h, settingsRows()))
			golden.Assert(t, tc.name, m.View())
		})
	}
}

func TestGroupedCursorSkipsTitles(t *testing.T) {
	m := groupedTable(80, 14, settingsRows())
	want := visibleIDs(m)
	for i := range want {
		if sel, _ := m.Selected(); sel.ID != want[i] {
			t.Fatalf("step %d: on %s, want %s", i, sel.ID, want[i])
		}
		if got := selectedLine(t, m); !strings.HasPrefix(got, "> ") {
			t.Fatalf("step %d: the cursor line is %q", i, got)
		}
		m = press(m, "down")
	}
	if m.Cursor() != len(want)-1 {
		t.Fatalf("down past the end: cursor %d", m.Cursor())
	}
	m = press(m, "home")
	if sel, _ := m.Selected(); sel.ID != want[0] {
		t.Fatalf("home: on %s", sel.ID)
	}
	m = press(m, "end")
	if sel, _ := m.Selected(); sel.ID != want[len(want)-1] {
		t.Fatalf("end: on %s", sel.ID)
	}
	m = groupedTable(60, 7, settingsRows()) // five body lines
	m = press(m, "pgdown")
	if sel, _ := m.Selected(); sel.ID != want[5] || !strings.HasPrefix(selectedLine(t, m), "> Do not disturb") {
		t.Fatalf("pgdown: on %s, want %s", sel.ID, want[5])
	}
	m = press(m, "pgdown", "pgup")
	if sel, _ := m.Selected(); sel.ID != want[2] {
		t.Fatalf("pgdown, pgup: on %s, want %s", sel.ID, want[2])
	}
	m = press(m, "end")
	if !strings.Contains(m.View(), "row 8 of 8") {
		t.Fatalf("the footer counts titles as rows:\n%s", m.View())
	}
}

// selectedLine is the View line marked with the cursor.
func selectedLine(t *testing.T, m Model) string {
	t.Helper()
	for _, l := range strings.Split(golden.Plain(m.View()), "\n") {
		if strings.HasPrefix(l, "> ") {
			return l
		}
	}
	t.Fatalf("no cursor line in\n%s", golden.Plain(m.View()))
	return ""
}

// Whatever the keys and the height, the cursor row is on screen, a group's
// first row shows its title right above it when there is room, the frame
// keeps its height, and no blank lines are left below the rows while there
// are rows above the window.
func TestGroupedWindowInvariants(t *testing.T) {
	groupNames := []string{"Voicemail", "Calls", "Recording", ""}
	rows := genRows(0, 120, 30)
	r := rand.New(rand.NewPCG(5, 5))
	for i := range rows {
		rows[i].Group = groupNames[r.IntN(len(groupNames))]
	}
	keys := []string{"down", "down", "down", "up", "pgdown", "pgup", "home", "end", "j", "k"}
	for h := 3; h <= 12; h++ {
		m := groupedTable(70, h, rows)
		for step := range 300 {
			k := keys[r.IntN(len(keys))]
			m = press(m, k)
			if step%50 == 49 {
				m.SetFilter([]string{"", "gala", "berlin", "e"}[r.IntN(4)])
			}
			checkWindow(t, m, fmt.Sprintf("h=%d step %d (%s)", h, step, k))
		}
	}
}

func checkWindow(t *testing.T, m Model, where string) {
	t.Helper()
	lines := strings.Split(golden.Plain(m.View()), "\n")
	if len(lines) != m.height+1 { // Plain adds a final newline
		t.Fatalf("%s: %d lines, want %d", where, len(lines)-1, m.height)
	}
	if m.VisibleLen() == 0 {
		return
	}
	body := lines[1 : 1+m.bodyHeight()]
	at := slices.IndexFunc(body, func(l string) bool { return strings.HasPrefix(l, "> ") })
	if at < 0 {
		t.Fatalf("%s: cursor row not on screen\n%s", where, strings.Join(lines, "\n"))
	}
	if m.opensGroup(m.Cursor()) && len(body) > 1 && (at == 0 || !strings.HasPrefix(body[at-1], "── ")) {
		t.Fatalf("%s: the cursor's group title is not above it\n%s", where, strings.Join(lines, "\n"))
	}
	if m.offset > 0 || m.topHead {
		if body[len(body)-1] == "" {
			t.Fatalf("%s: blank line at the bottom with rows above\n%s", where, strings.Join(lines, "\n"))
		}
	}
}

func TestGroupedAppendKeepsCursorLineAndAddsNewGroupsLast(t *testing.T) {
	m := groupedTable(80, 10, settingsRows())
	m = press(m, "j", "j", "j", "j") // call-wait
	want, _ := m.Selected()
	line := m.lineOf(m.Cursor(), m.bodyHeight())
	m.AppendRows(rowsOf([]Row{
		{ID: "vm-new", Group: "Voicemail", Cells: []string{"Language", "DRAFT", "Lima", "1"}},
		{ID: "dev-1", Group: "Devices", Cells: []string{"Desk phone", "DRAFT", "Lima", "1"}},
	}))
	if got, _ := m.Selected(); got.ID != want.ID {
		t.Fatalf("cursor on %s after append, want %s", got.ID, want.ID)
	}
	if got := m.lineOf(m.Cursor(), m.bodyHeight()); got != line {
		t.Fatalf("cursor moved on screen from line %d to %d", line, got)
	}
	ids := visibleIDs(m)
	if ids[3] != "vm-new" || ids[len(ids)-1] != "dev-1" {
		t.Fatalf("order %v: vm-new should join Voicemail, Devices come last", ids)
	}
}

func TestGroupTitleIsSanitisedAndCutToWidth(t *testing.T) {
	rows := []Row{
		{ID: "1", Group: "A very long group title \x1b[31mwith an escape\nand a line break, far wider than the table", Cells: []string{"x"}},
		{ID: "2", Group: "", Cells: []string{"no title"}},
	}
	m := groupedTable(40, 6, rows)
	view := m.View()
	if strings.Contains(view, "\x1b[31m") {
		t.Fatal("a group title's escape sequence reached the terminal")
	}
	lines := strings.Split(golden.Plain(view), "\n")
	if !strings.HasPrefix(lines[1], "── A very long") || !strings.HasSuffix(lines[1], "…") {
		t.Fatalf("title line %q: want it cut with an ellipsis", lines[1])
	}
	for i, l := range strings.Split(view, "\n") {
		if w := lipgloss.Width(l); w > 40 {
			t.Fatalf("line %d is %d cells wide: %q", i, w, l)
		}
	}
	if strings.Count(golden.Plain(view), "──") != 1 {
		t.Fatalf("rows with no group got a title line:\n%s", golden.Plain(view))
	}
}

func TestGroupCountsFollowTheFilter(t *testing.T) {
	m := groupedTable(80, 14, settingsRows())
	m.SetGroupCounts(true)
	view := golden.Plain(m.View())
	for _, want := range []string{"── Voicemail (3) ──", "── Calls (3) ──", "── Recording (2) ──"} {
		if !strings.Contains(view, want) {
			t.Fatalf("no %q in\n%s", want, view)
		}
	}
	m.SetFilter("berlin")
	view = golden.Plain(m.View())
	if !strings.Contains(view, "── Voicemail (2) ──") || !strings.Contains(view, "── Recording (1) ──") || strings.Contains(view, "Calls") {
		t.Fatalf("counts after a filter:\n%s", view)
	}
	m.SetWhere(func(r Row) bool { return r.Group != "Voicemail" })
	if view = golden.Plain(m.View()); strings.Contains(view, "Voicemail") || !strings.Contains(view, "── Recording (1) ──") {
		t.Fatalf("counts after SetWhere:\n%s", view)
	}
}
