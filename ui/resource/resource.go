// Package resource is the base of the console's resource screens: a list
// of one kind of thing loaded from the server (co-editors, exhibitors,
// access links, email types), the actions on it, the dialog they open and
// the change in flight. A screen is its Config plus its own actions; the
// screen base (ui.ScreenBase: dialog, dispatch, busy state, capture, help)
// and the table, its stream and its heading are the base's.
package resource

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// Config describes a resource screen.
type Config[T any] struct {
	// Heading is the title line's text ("Co-editors of Go Summit").
	Heading string
	// Noun counts the items in the heading ("co-editor": "3 co-editors");
	// Summary, when set, replaces the count.
	Noun    string
	Summary func(items []T) string
	Columns []table.Column
	// Empty is shown when the list is empty ("No co-editors yet...").
	Empty string
	// Load reads the list (all of it; Pager, when set, reads it page by
	// page instead).
	Load  func(ctx context.Context) ([]T, error)
	Pager func() ui.Pager[T]
	// Row turns an item into a table row; its ID finds the item again.
	Row func(T) table.Row
	// What the load failure is called in the toast ("Loading co-editors").
	Loading string
	// Explain, when set, puts a load failure in the screen's words (what an
	// error code means here); the toast shows it, and the table does in
	// place of Empty until a load succeeds.
	Explain func(error) string
	// LoadAlso, when set, starts loading what the screen shows beside the
	// list (names for the items' ids) with every load of the list; its
	// reply is the screen's own message.
	LoadAlso func() tea.Cmd
	// Actions are what the screen lets the user do (see ui.ScreenConfig);
	// refresh is the base's. Help are keys the one-line help adds.
	Actions func() ui.Actions
	Help    []key.Binding
}

// Base is embedded (by pointer) in a resource screen.
type Base[T any] struct {
	ui.ScreenBase
	Table table.Model
	// Items is the list as last loaded; a reload keeps it on screen until
	// the new answer arrives.
	Items []T

	cfg    Config[T]
	stream ui.Stream[T]
	next   []T // the load in progress
	loaded bool
	err    error
	top    int // lines between the heading and the table
}

// New builds the base for cfg.
func New[T any](ctx *ui.Context, cfg Config[T]) *Base[T] {
	t := table.New(ctx.Theme, cfg.Columns...)
	t.Keys = table.KeysFrom(ctx.Keys)
	t.SetOrigin(0, 1) // under the heading
	if cfg.Empty != "" {
		t.SetEmptyText(cfg.Empty)
	}
	b := &Base[T]{Table: t, cfg: cfg}
	b.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: cfg.Actions, List: &b.Table,
		Refresh: b.Reload, Help: cfg.Help, Nav: t.Keys.Navigation(), Body: ui.Feed(&b.Table)})
	return b
}

// Init starts the first load.
func (b *Base[T]) Init() tea.Cmd { return b.Reload() }

// Reload loads the list again; the rows on screen stay until it answers.
func (b *Base[T]) Reload() tea.Cmd {
	b.Table.SetLoading(true)
	b.next = b.next[:0]
	var also tea.Cmd
	if b.cfg.LoadAlso != nil {
		also = b.cfg.LoadAlso()
	}
	if b.cfg.Pager != nil {
		return tea.Batch(b.stream.Start(b.cfg.Pager()), also)
	}
	return tea.Batch(b.stream.Start(ui.OnePage(b.cfg.Load)), also)
}

// Close cancels the load in flight. A change in flight finishes: a
// requested change should not be cut in half.
func (b *Base[T]) Close() {
	b.stream.Stop()
	b.ScreenBase.Close()
}

// Loading reports whether a load is under way.
func (b *Base[T]) Loading() bool { return b.stream.Loading() }

// Loaded reports whether a load has completed since the screen opened.
func (b *Base[T]) Loaded() bool { return b.loaded }

// Err is the last load's failure (nil once a load succeeds).
func (b *Base[T]) Err() error { return b.err }

// Done ends the change in flight and reloads the list.
func (b *Base[T]) Done() tea.Cmd {
	b.ScreenBase.Done()
	return b.Reload()
}

// NeedsSelection is an Action.Why for actions on the selected item.
func (b *Base[T]) NeedsSelection(hint string) func() string {
	return func() string {
		if why := b.NotBusy(); why != "" {
			return why
		}
		if _, ok := b.Selected(); !ok {
			return hint
		}
		return ""
	}
}

// Selected returns the item under the cursor.
func (b *Base[T]) Selected() (T, bool) {
	var zero T
	row, ok := b.Table.Selected()
	if !ok {
		return zero, false
	}
	for _, it := range b.Items {
		if b.cfg.Row(it).ID == row.ID {
			return it, true
		}
	}
	return zero, false
}

// Update handles what every resource screen handles: its pages, its open
// dialog, the actions' keys, refresh, and the table. A screen handles its
// own messages first and passes the rest here.
func (b *Base[T]) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.Page[T]:
		if !b.stream.Owns(msg) {
			return nil
		}
		return b.onPage(msg)
	case table.ActivatedMsg: // a double click is Enter on the row
		return b.Activate()
	}
	return b.ScreenBase.Update(msg)
}

func (b *Base[T]) onPage(p ui.Page[T]) tea.Cmd {
	if p.Err != nil {
		b.err = p.Err
		what := b.cfg.Loading
		if what == "" {
			what = "Loading"
		}
		err := p.Err
		if b.cfg.Explain != nil {
			why := b.cfg.Explain(p.Err)
			b.Table.SetEmptyText(why)
			err = ui.Explain(why, p.Err)
		}
		b.Table.LoadFailed(err.Error())
		return ui.Fail(what, err)
	}
	b.next = append(b.next, p.Items...)
	if !p.Done {
		return b.stream.Next()
	}
	b.Table.SetLoading(false)
	if b.err != nil && b.cfg.Explain != nil {
		b.Table.SetEmptyText(b.cfg.Empty)
	}
	b.err, b.loaded = nil, true
	b.Items = append(b.Items[:0:0], b.next...)
	b.Redraw()
	return nil
}

// Redraw builds the rows again from Items, for a screen whose rows show
// more than the items (names it loads for their ids) when that changes.
// The cursor stays on its row.
func (b *Base[T]) Redraw() {
	rows := table.NewRows(len(b.Items))
	for _, it := range b.Items {
		rows.Add(b.cfg.Row(it))
	}
	b.Table.SetRows(rows)
}

// SetSize records the screen's size and fits the dialog; the screen lays
// out the rest and gives the table its height with SetTableHeight.
func (b *Base[T]) SetSize(w, h int) {
	b.ScreenBase.SetSize(w, h)
	b.Table.SetSize(w, max(h-1, 3))
}

// SetTableHeight gives the table h lines (header and footer included).
func (b *Base[T]) SetTableHeight(h int) { b.Table.SetSize(b.Width(), max(h, 3)) }

// SetTableTop says how many lines the screen draws between the heading and
// the table (View's above), so the mouse finds the rows.
func (b *Base[T]) SetTableTop(lines int) {
	b.top = lines
	b.Table.SetOrigin(0, 1+lines)
}

// Heading is the screen's title line: the heading and what the screen is
// doing, or how many items there are.
func (b *Base[T]) Heading() string {
	th := b.Ctx.Theme
	st := ui.LoadState{Loading: b.stream.Loading() && !b.loaded, Err: b.err}
	if b.loaded {
		switch {
		case b.cfg.Summary != nil:
			st.Summary = b.cfg.Summary(b.Items)
		case b.cfg.Noun != "":
			st.Summary = ui.Count(len(b.Items), b.cfg.Noun)
		}
		if b.stream.Loading() {
			st.Summary += ", refreshing..."
		}
	}
	return b.ScreenBase.Heading(th.Title.Render(sanitize.Line(b.cfg.Heading)), st)
}

// View draws the heading, the lines above the table, the table and the
// lines below it, under the open dialog.
func (b *Base[T]) View(above, below []string) string {
	lines := append([]string{b.Heading()}, above...)
	lines = append(lines, b.Table.View())
	lines = append(lines, below...)
	return b.Frame(strings.Join(lines, "\n"))
}
