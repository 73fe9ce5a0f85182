package checkin

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scancode"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// registrants is the desk's registrant search: the event's roster in a
// table, filtered by what the scan input holds (by email or name). It
// needs no server: the roster answers offline.
type registrants struct {
	table table.Model
	from  *roster.Roster // the roster the rows came from
	// masked: a locked kiosk's search, for the public: names only, partly
	// masked (maskName), and only people with a name.
	masked bool
}

func newRegistrants(th *ui.Theme, k *ui.GlobalKeys, masked bool) *registrants {
	cols := searchColumns(true)
	if masked {
		cols = maskedColumns
	}
	t := table.New(th, cols...)
	t.Keys = table.KeysFrom(k)
	return &registrants{table: t, masked: masked}
}

// maskedColumns are a locked kiosk's search: the name alone.
var maskedColumns = []table.Column{{Title: "Name (type part of your first name)", Width: 24, Flex: 1}}

// fill shows the roster at hand; a refreshed roster replaces the rows.
func (r *registrants) fill(st venue.RosterState) {
	switch {
	case st.Roster == nil && st.Loading:
		r.table.SetEmptyText("The roster is loading (" + ui.Thousands(st.Loaded) + " of " + ui.Thousands(st.Total) + ")...")
	case st.Roster == nil && st.Refused:
		r.table.SetEmptyText("No roster: " + roster.EmailOnly)
	case st.Roster == nil && st.Err != nil:
		r.table.SetEmptyText("No roster yet: " + ui.OneLine(st.Err.Error()) + " (ctrl+r tries again)")
	case st.Roster == nil:
		r.table.SetEmptyText("No roster yet")
	default:
		r.table.SetEmptyText("No registrant matches")
	}
	r.table.SetLoading(st.Loading)
	if st.Roster == nil || st.Roster == r.from {
		return
	}
	r.from = st.Roster
	people := st.Roster.People()
	if r.masked {
		rows := table.NewRows(len(people))
		for _, p := range people {
			if name := maskName(p.Name); name != "" {
				rows.Add(table.Row{ID: p.Email, Cells: []string{name}})
			}
		}
		r.table.SetRows(rows)
		return
	}
	// The registrants list carries names only where the service adds
	// them: without any, the column would be a wall of dashes.
	named := slices.ContainsFunc(people, func(p roster.Person) bool { return p.Name != "" })
	r.table.SetColumns(searchColumns(named)...)
	rows := table.NewRows(len(people))
	for _, p := range people {
		rows.Add(registrantRow(p, named))
	}
	r.table.SetRows(rows)
	r.table.SetTotal(st.Roster.Total())
}

// openSearch shows the search over the input, on the roster.
func (d *Desk) openSearch() tea.Cmd {
	if d.searching {
		d.closeSearch()
		return nil
	}
	d.searching = true
	if d.reg == nil || d.reg.masked != d.kioskLocked() {
		d.reg = newRegistrants(d.Ctx.Theme, d.Ctx.Keys, d.kioskLocked())
	}
	d.reg.table.SetSize(d.Width(), d.searchTableHeight())
	d.reg.fill(d.rost)
	d.refilter()
	return nil
}

func (d *Desk) closeSearch() {
	d.searching = false
	d.input.Reset()
}

// refilter applies the input as the search's filter.
func (d *Desk) refilter() {
	if d.searching && d.reg != nil {
		d.reg.table.SetFilter(strings.TrimSpace(d.input.Value()))
	}
}

// searchColumns are the search's columns, Name among them when the roster
// has names.
func searchColumns(named bool) []table.Column {
	cols := []table.Column{{Title: "Email", Width: 24, Flex: 3}}
	if named {
		cols = append(cols, table.Column{Title: "Name", Width: 12, Flex: 2})
	}
	return append(cols, table.Column{Title: "Registration", Width: 12}, table.Column{Title: "Role", Width: 9})
}

func registrantRow(p roster.Person, named bool) table.Row {
	cells := []string{p.Email}
	if named {
		cells = append(cells, ui.OrDash(p.Name))
	}
	return table.Row{ID: p.Email, Cells: append(cells, ui.OrDash(words(p.Status)), ui.OrDash(words(p.Role())))}
}

// words turns an upper-case value of the service into words:
// "DIRECT_JOIN" reads "direct join".
func words(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", " ")) }

// searchActions are the search's keys, then the desk's that work in it;
// typing filters. Enter checks in the chosen registrant, unless the input
// reads as a scan: what a scanner reads (an address, a ticket, a badge, a
// vCard's lines) is a scan, as ever.
func (d *Desk) searchActions(as ui.Actions) ui.Actions {
	as = append(as,
		ui.Action{Key: d.keys.Choose, RunKey: func(k tea.KeyPressMsg) tea.Cmd {
			d.reg.table, _ = d.reg.table.Update(k)
			return nil
		}},
		ui.Action{Key: d.enter(d.keys.Pick), Run: d.pick},
		ui.Action{Key: d.keys.CloseSearch, Run: func() tea.Cmd { d.closeSearch(); return nil }},
	)
	if d.kiosk != nil {
		as = append(as, ui.Action{Key: d.keys.Kiosk, Run: d.lockOrPrompt, Minor: true})
	}
	return d.commonActions(as, true)
}

// pick checks in the registrant chosen in the search.
func (d *Desk) pick() tea.Cmd {
	raw := strings.TrimSpace(d.input.Value())
	if isScan(raw) || d.card != nil {
		return d.submitInput()
	}
	row, ok := d.reg.table.Selected()
	switch {
	case raw == "":
		return ui.Toast(ui.ToastInfo, "Type part of a name or email to find the attendee, then enter")
	case !ok:
		return ui.Toast(ui.ToastInfo, "No registrant matches "+quote(raw))
	}
	d.input.Reset()
	return d.submit(row.ID)
}

// isScan reports whether search text is a scan rather than a search: it
// reads as an email or a ticket, or starts a vCard.
func isScan(raw string) bool {
	_, err := scancode.Read(raw)
	return err == nil || scancode.Unfinished(raw)
}

func quote(s string) string { return "\"" + s + "\"" }
