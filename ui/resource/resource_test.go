package resource

import (
	"context"
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
	"github.com/evdesk/evdesk/ui/uitest"
)

// namesMsg is the fake screen's LoadAlso reply.
type namesMsg struct{}

// fake is the smallest resource screen: a list of strings.
type fake struct {
	*Base[string]
	answers [][]string // one per load; nil answers an error
	loads   int
	also    int    // LoadAlso replies received
	mark    string // shown before each row's text, as names loaded beside the list are
}

func newFake(ctx *ui.Context, answers ...[]string) *fake {
	f := &fake{answers: answers}
	f.Base = New(ctx, Config[string]{
		Heading: "Things", Noun: "thing", Empty: "No things yet.", Loading: "Loading things",
		Columns:  []table.Column{{Title: "Name", Width: 10}},
		Load:     func(context.Context) ([]string, error) { return f.next() },
		Explain:  func(err error) string { return "in our words: " + err.Error() },
		LoadAlso: func() tea.Cmd { return func() tea.Msg { return namesMsg{} } },
		Row:      func(s string) table.Row { return table.Row{ID: s, Cells: []string{f.mark + s}} },
	})
	return f
}

func (f *fake) next() ([]string, error) {
	a := f.answers[min(f.loads, len(f.answers)-1)]
	f.loads++
	if a == nil {
		return nil, errors.New("server down")
	}
	return a, nil
}

func (f *fake) Title() string { return "Things" }
func (f *fake) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if _, ok := msg.(namesMsg); ok {
		f.also++
		return f, nil
	}
	return f, f.Base.Update(msg)
}
func (f *fake) View() string { return f.Base.View(nil, nil) }

func open(t *testing.T, answers ...[]string) (*uitest.Driver, *fake) {
	t.Helper()
	var f *fake
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	app := ui.NewApp(ctx, []ui.Section{{Name: "Things", New: func(c *ui.Context) ui.Screen {
		f = newFake(c, answers...)
		return f
	}}})
	return uitest.New(t, app, 80, 24), f
}

// A load failure is told in the screen's words, in the table while it has
// no rows, until a load succeeds.
func TestExplainUntilALoadSucceeds(t *testing.T) {
	d, f := open(t, nil, []string{})
	d.Contains("in our words: server down", "ERROR: load failed")
	if f.Err() == nil {
		t.Fatal("Err is nil after a failed load")
	}
	d.Press("r")
	d.Contains("No things yet.", "0 things") // the toast of the failure stays a while
	if f.Err() != nil {
		t.Fatalf("Err after a good load: %v", f.Err())
	}
}

// LoadAlso runs with every load, the first and each reload.
func TestLoadAlsoWithEveryLoad(t *testing.T) {
	d, f := open(t, []string{"a", "b"})
	if f.also != 1 {
		t.Fatalf("after opening: %d LoadAlso replies, want 1", f.also)
	}
	d.Press("r")
	d.Contains("2 things")
	if f.also != 2 || f.loads != 2 {
		t.Fatalf("after r: %d LoadAlso replies and %d loads, want 2 and 2", f.also, f.loads)
	}
}

// Redraw shows what the rows show beside the items once it changes,
// without a reload, and the cursor stays on its row.
func TestRedraw(t *testing.T) {
	d, f := open(t, []string{"a", "b"})
	d.Press("down")
	f.mark = "named "
	f.Redraw()
	d.Contains("named a", "> named b")
	if f.loads != 1 {
		t.Fatalf("Redraw loaded again: %d loads", f.loads)
	}
}

// A reload keeps the rows on screen until its answer, and a failed reload
// keeps them too (with the failure told), so r against a server that is
// down loses nothing.
func TestAFailedReloadKeepsTheRows(t *testing.T) {
	d, f := open(t, []string{"alpha", "beta"}, nil)
	d.Contains("alpha", "beta", "2 things")
	d.Press("r")
	d.Contains("alpha", "beta", "2 things  ERROR: reload failed, r to retry", "server down")
	if f.loads != 2 || len(f.Items) != 2 {
		t.Fatalf("after a failed reload: %d loads, items %v", f.loads, f.Items)
	}
}
