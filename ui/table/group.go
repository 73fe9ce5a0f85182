package table

import (
	"slices"
	"sort"
	"strconv"
)

// groups numbers group titles in the order they first appear.
type groups struct {
	titles []string
	rank   map[string]int32
	last   int32 // the previous row's group: rows mostly come grouped
}

func (g *groups) reset() {
	g.titles, g.last = g.titles[:0], 0
	clear(g.rank)
}

func (g *groups) rankOf(title string) int32 {
	if int(g.last) < len(g.titles) && g.titles[g.last] == title {
		return g.last
	}
	r, ok := g.rank[title]
	if !ok {
		if g.rank == nil {
			g.rank = map[string]int32{}
		}
		r = int32(len(g.titles))
		g.titles = append(g.titles, title)
		g.rank[title] = r
	}
	g.last = r
	return r
}

// SetGrouped turns grouping on or off. Grouped, the visible rows are ordered
// by Row.Group, groups in the order the table first met their titles (in the
// rows as loaded since the last SetRows, or as loaded when grouping was
// turned on), then by the sort within each group; a title line is drawn before
// each group's first visible row (none for an empty Group), so a filter that
// hides a whole group hides its title too. The cursor moves over rows only,
// and "row X of Y" counts rows only.
func (m *Model) SetGrouped(on bool) {
	if on == m.grouped {
		return
	}
	m.resort(func() {
		m.grouped = on
		m.groups.reset()
		m.groupOf = m.groupOf[:0]
		if on {
			m.groupOf = slices.Grow(m.groupOf, m.rows.Len())
			for i := range m.rows.Len() {
				if m.isDead(i) { // never shown; must not claim a place for ""
					m.groupOf = append(m.groupOf, 0)
					continue
				}
				m.groupOf = append(m.groupOf, m.groups.rankOf(m.rows.group(i)))
			}
		}
	})
}

// SetGroupCounts makes each group title say how many of its rows are
// visible ("Voicemail (5)"), so a filter shows what it left in each group.
func (m *Model) SetGroupCounts(on bool) { m.counted = on }

// groupTitle is the title drawn before visible row p, and whether one is:
// p opens a group with a title.
func (m *Model) groupTitle(p int) (string, bool) {
	if !m.grouped || p < 0 || p >= m.visible().len() {
		return "", false
	}
	g := m.groupOf[m.rowAt(p)]
	if p > 0 && m.groupOf[m.rowAt(p-1)] == g {
		return "", false
	}
	t := m.groups.titles[g]
	return t, t != ""
}

// titleText is the title line's text before visible row p, with the
// group's count when asked for.
func (m *Model) titleText(p int) string {
	t, _ := m.groupTitle(p)
	if m.counted {
		t += " (" + strconv.Itoa(m.groupLen(p)) + ")"
	}
	return t
}

// groupLen is the number of visible rows in the group that visible row p
// opens. The view is ordered by group, so the group ends where the rank
// first grows: a binary search, whatever the group's size.
func (m *Model) groupLen(p int) int {
	g := m.groupOf[m.rowAt(p)]
	return sort.Search(m.visible().len()-p, func(k int) bool { return m.groupOf[m.rowAt(p+k)] != g })
}

// opensGroup reports whether a title line comes before visible row p.
func (m *Model) opensGroup(p int) bool {
	_, ok := m.groupTitle(p)
	return ok
}
