package checkin

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// registrants is the desk's registrant search: the event's registrants
// streamed page by page into a table, filtered by what the scan input holds.
type registrants struct {
	table   table.Model
	stream  ui.Stream[api.Registrant]
	loading bool
	done    bool
	err     error
}

// registrantPageSize is the largest page the listing serves.
const registrantPageSize = 300

func newRegistrants(th *ui.Theme) *registrants {
	t := table.New(th,
		table.Column{Title: "Email", Width: 24, Flex: 3},
		table.Column{Title: "Name", Width: 12, Flex: 2},
		table.Column{Title: "Registration", Width: 12},
		table.Column{Title: "Role", Width: 9},
	)
	t.SetEmptyText("Loading registrants...")
	return &registrants{table: t}
}

// openSearch shows the search over the input; the registrants load the
// first time, and again after a failed load.
func (d *Desk) openSearch() tea.Cmd {
	if d.searching {
		d.closeSearch()
		return nil
	}
	d.searching = true
	if d.reg == nil {
		d.reg = newRegistrants(d.ctx.Theme)
	}
	d.reg.table.SetSize(d.width, d.searchTableHeight())
	d.refilter()
	if d.reg.loading || d.reg.done {
		return nil
	}
	d.reg.err, d.reg.loading = nil, true
	d.reg.table.SetRows(nil)
	d.reg.table.SetLoading(true)
	return d.reg.stream.Start(d.deps.Client.Attendees.RegistrantsPager(d.eventID, api.ListRegistrantsOptions{PageSize: registrantPageSize}))
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

func (r *registrants) onPage(m ui.Page[api.Registrant]) tea.Cmd {
	if m.Err != nil {
		r.loading, r.err = false, m.Err
		r.table.SetLoading(false)
		r.table.SetEmptyText("Loading registrants failed; press ctrl+f twice to try again")
		return ui.Toast(ui.ToastError, "Registrants: "+m.Err.Error())
	}
	rows := make([]table.Row, 0, len(m.Items))
	for _, reg := range m.Items {
		rows = append(rows, registrantRow(reg))
	}
	r.table.AppendRows(rows)
	r.table.SetTotal(m.Total)
	if !m.Done {
		return r.stream.Next()
	}
	r.loading, r.done = false, true
	r.table.SetLoading(false)
	r.table.SetEmptyText("No registrant matches")
	return nil
}

func registrantRow(r api.Registrant) table.Row {
	email := api.NormalizeEmail(r.Email)
	role := "-"
	if len(r.Tickets) > 0 && r.Tickets[0].Role != "" {
		role = strings.ToLower(r.Tickets[0].Role)
	}
	status := strings.ToLower(strings.ReplaceAll(r.RegistrationStatus, "_", " "))
	if status == "" {
		status = "-"
	}
	return table.Row{ID: email, Cells: []string{email, registrantName(r), status, role}}
}

// registrantName reads a name from fields the description does not show,
// when the server sends one.
func registrantName(r api.Registrant) string {
	str := func(k string) string {
		var s string
		if raw, ok := r.Extra[k]; ok && json.Unmarshal(raw, &s) == nil {
			return strings.TrimSpace(s)
		}
		return ""
	}
	for _, k := range []string{"name", "full_name", "display_name"} {
		if s := str(k); s != "" {
			return s
		}
	}
	if s := strings.TrimSpace(str("first_name") + " " + str("last_name")); s != "" {
		return s
	}
	return "-"
}

// onSearchKey handles the keys the search gives a meaning; everything else
// edits the input, which filters.
func (d *Desk) onSearchKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, d.keys.CloseSearch):
		d.closeSearch()
		return nil, true
	case key.Matches(k, d.keys.Choose):
		d.reg.table, _ = d.reg.table.Update(k)
		return nil, true
	case d.isSubmit(k):
		raw := strings.TrimSpace(d.input.Value())
		// A scanner's address is a scan, as ever.
		if api.CheckEmail(api.NormalizeEmail(raw)) == nil {
			return nil, false
		}
		row, ok := d.reg.table.Selected()
		switch {
		case raw == "":
			return ui.Toast(ui.ToastInfo, "Type part of a name or email to find the attendee, then enter"), true
		case !ok:
			return ui.Toast(ui.ToastInfo, "No registrant matches "+quote(raw)), true
		}
		d.input.Reset()
		return d.submit(row.ID), true
	case key.Matches(k, d.keys.Search, d.keys.History, d.keys.Bell, d.keys.Retry):
		return nil, false
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(k)
	d.refilter()
	return cmd, true
}

func quote(s string) string { return "\"" + s + "\"" }
