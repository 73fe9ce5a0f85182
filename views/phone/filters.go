package phone

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/policy"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// filter is one of the numbered views of the list.
type filter int

const (
	filterAll filter = iota
	filterOn
	filterOff
	filterLocked
	filterChanged   // only once a snapshot is loaded
	filterFailing   // only once a baseline is loaded
	filterDifferent // only once another profile is beside this one
	nFilters
)

var filterNames = [nFilters]string{"All", "On", "Off", "Locked", "Changed", "Failing", "Different"}

// item is one setting as the list shows it.
type item struct {
	key    string
	title  string
	group  int
	common api.PhoneSettingCommon
	known  bool // common fields could be read
	absent bool // only the other account has it
}

func (it item) on() bool     { return it.known && it.common.On() }
func (it item) off() bool    { return !it.absent && !it.on() }
func (it item) locked() bool { return it.known && it.common.IsLocked() }

// state is the item's ON/OFF word ("?" when its fields could not be read,
// "-" when this account lacks it).
func (it item) state() string {
	switch {
	case it.absent:
		return "-"
	case !it.known:
		return "?"
	case it.on():
		return "ON"
	}
	return "OFF"
}

// stateAndLock is the state with "locked" after it, for a narrow column.
func (it item) stateAndLock() string {
	if it.locked() {
		return it.state() + " locked"
	}
	return it.state()
}

// itemOf reads setting k of st.
func itemOf(st *api.PhoneSettings, k string) item {
	if st == nil || !st.Has(k) {
		return item{key: k, title: policy.Title(k), group: policy.GroupIndex(k), absent: true}
	}
	c, ok := st.Common(k)
	return item{key: k, title: policy.Title(k), group: policy.GroupIndex(k), common: c, known: ok}
}

// keep is filter f as a row predicate (nil: every row).
func (s *Screen) keep(f filter) func(table.Row) bool {
	test := map[filter]func(item) bool{
		filterOn:        item.on,
		filterOff:       item.off,
		filterLocked:    item.locked,
		filterChanged:   func(it item) bool { return s.changed[it.key] > 0 },
		filterFailing:   func(it item) bool { return s.audit.failing[it.key] > 0 },
		filterDifferent: func(it item) bool { return s.audit.differs[it.key] > 0 },
	}[f]
	if test == nil {
		return nil
	}
	return func(r table.Row) bool { return test(s.items[r.ID]) }
}

// recount works out how many settings each filter shows with the search.
func (s *Screen) recount() {
	for f := range nFilters {
		s.counts[f] = s.table.Count(s.keep(f))
	}
}

// available says why filter f cannot be used now ("" when it can).
func (s *Screen) available(f filter) string {
	switch {
	case f == filterChanged && s.snap == nil:
		return "5 shows the settings changed since a snapshot: press D to load one"
	case f == filterFailing && s.audit.base == nil:
		return "6 shows the settings that fail a baseline: press B to load one"
	case f == filterDifferent && s.audit.other == nil:
		return "7 shows the settings that differ from another profile's: press C to choose one"
	}
	return ""
}

// filterKeys are the number keys of the filters; the help names those
// the bar shows now ("1-4", "1-4,6"), while the others' keys say how to
// make them show.
func (s *Screen) filterKeys(views key.Binding) key.Binding {
	b := ui.Numbers(views, int(nFilters), "quick filters")
	var shown []string
	for f := filter(0); f < nFilters; f++ {
		if s.available(f) != "" {
			continue
		}
		if n := len(shown); n > 0 && strings.HasSuffix(shown[n-1], fmt.Sprint(int(f))) {
			// f follows the last number shown: a range.
			first, _, _ := strings.Cut(shown[n-1], "-")
			shown[n-1] = first + "-" + fmt.Sprint(int(f)+1)
			continue
		}
		shown = append(shown, fmt.Sprint(int(f)+1))
	}
	b.SetHelp(strings.Join(shown, ","), b.Help().Desc)
	return b
}

// showFilter switches to the filter of number key k.
func (s *Screen) showFilter(k tea.KeyPressMsg) tea.Cmd {
	f := filter(k.Code - '1')
	if f < 0 || f >= nFilters {
		return nil
	}
	if why := s.available(f); why != "" {
		return ui.Toast(ui.ToastInfo, why)
	}
	s.filter = f
	s.table.SetWhere(s.keep(f))
	return nil
}
