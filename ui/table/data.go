package table

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// sortKey is a cell prepared once for comparison: numbers compare as numbers
// ("1,234" after "999"), everything else regardless of case and accents.
// pre holds the text's first 24 bytes, lower-cased, as three numbers, which
// order most pairs without reading the text itself (a cache miss or three
// each, in a sort); a text no longer than that is all in pre, and two that
// tie there differ only in length; a number's bits are in pre[0]. The key holds no
// pointer, so that the keys of a stream cost the collector nothing to scan
// or to copy as they grow: when a longer text is needed, an ASCII one is read
// from its cell and lower-cased as it is compared (foldCompare); any other
// is folded once (fold) and kept apart (Model.folded).
type sortKey struct {
	pre  [preWords]uint64
	n    uint32 // an ASCII text: its length, and where it starts in its cell
	lead uint16
	kind keyKind
}

// preWords is how many eight-byte words of its text a key holds.
const preWords = 3

type keyKind uint8

const (
	asciiKey  keyKind = iota // the cell, trimmed, compared lower-cased
	foldedKey                // the cell, trimmed and folded (fold): Model.folded
	numberKey
)

// keyBlock is how many keys a block of a keyStore holds.
const keyBlock = 1024

// keyStore holds the rows' sort keys in blocks, so that a table fed page by
// page adds a block now and then and never copies its keys (copying them
// into doubled arrays took about a tenth of a sorted stream's time).
type keyStore struct {
	blocks []*[keyBlock]sortKey
	n      int
}

func (s *keyStore) at(i int) *sortKey { return &s.blocks[uint(i)/keyBlock][uint(i)%keyBlock] }

// set sets row i's key; i may be the next row.
func (s *keyStore) set(i int, k sortKey) {
	if i == s.n {
		if i/keyBlock == len(s.blocks) {
			s.blocks = append(s.blocks, new([keyBlock]sortKey))
		}
		s.n++
	}
	*s.at(i) = k
}

// reset empties the store, keeping its blocks for reuse.
func (s *keyStore) reset() { s.n = 0 }

// makeKey is a cell's key and, for a text, the text it stands for when the
// first 24 bytes tie.
func makeKey(cell string) (sortKey, string) {
	s := strings.TrimSpace(cell)
	if s != "" && (s[0] == '-' || s[0] == '+' || s[0] == '.' || (s[0] >= '0' && s[0] <= '9')) {
		if f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64); err == nil {
			return sortKey{pre: [preWords]uint64{math.Float64bits(f)}, kind: numberKey}, ""
		}
	}
	var k sortKey
	if lead := leadOf(cell, s); isASCII(s) && lead <= math.MaxUint16 && len(s) <= math.MaxUint32 {
		k.lead, k.n = uint16(lead), uint32(len(s))
	} else { // kept apart, folded
		s, k.kind = fold(s), foldedKey
	}
	for w := range k.pre {
		k.pre[w] = fold8(word(s, 8*w))
	}
	return k, s
}

// fold is how a text that is not all ASCII sorts and is searched:
// lower-cased, with the accents of its letters dropped, so that "Émile"
// sorts beside "emile" and "São Paulo" before "Sydney", and typing "jose"
// finds "José"; letters with no plain base (ø, ß, other scripts) keep their
// bytes and sort after the Latin alphabet. Bytes that are not UTF-8 are
// kept as they are.
func fold(s string) string {
	d := norm.NFD.String(strings.ToLower(s))
	var b strings.Builder
	b.Grow(len(d))
	for i := 0; i < len(d); {
		r, n := utf8.DecodeRuneInString(d[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteByte(d[i])
		case !unicode.Is(unicode.Mn, r):
			b.WriteString(d[i : i+n])
		}
		i += n
	}
	return b.String()
}

// leadOf is where trimmed, cell trimmed of its spaces, starts in cell.
func leadOf(cell, trimmed string) int {
	if len(trimmed) == len(cell) {
		return 0
	}
	return strings.Index(cell, trimmed) // the first: trimmed starts with no space
}

// word is the eight bytes of s from i on as a big-endian number, zeros
// past its end, read in place: a word that s ends within is its last eight
// bytes shifted up (copying the bytes into an array first stalls the read).
func word(s string, i int) uint64 {
	switch n := len(s); {
	case i+8 <= n:
		return load8(s, i)
	case i >= n:
		return 0
	case n >= 8:
		return load8(s, n-8) << (8 * (i + 8 - n))
	}
	var w uint64
	for k := i; k < i+8; k++ {
		w <<= 8
		if k < len(s) {
			w |= uint64(s[k])
		}
	}
	return w
}

// isASCII reports whether s is all ASCII, eight bytes at a time.
func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if load8(s, i)&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fold8 lower-cases the ASCII letters among eight bytes.
func fold8(w uint64) uint64 {
	const high = 0x8080808080808080
	if w&high == 0 { // as lowerASCII does, eight at once
		return w | ((w+0x3f3f3f3f3f3f3f3f)&^(w+0x2525252525252525)&high)>>2
	}
	var out uint64
	for sh := 0; sh < 64; sh += 8 {
		out |= uint64(foldByte(byte(w>>sh))) << sh
	}
	return out
}

func foldByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// load8 reads eight bytes of s from i on as a big-endian number.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
		uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
}

// foldCompare compares two key texts as strings.Compare compares them
// lower-cased (a non-ASCII text is stored lower-cased already).
func foldCompare(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x, y := fold8(load8(a, i)), fold8(load8(b, i)); x != y {
			return cmp.Compare(x, y)
		}
	}
	for ; i < n; i++ {
		if x, y := foldByte(a[i]), foldByte(b[i]); x != y {
			return cmp.Compare(x, y)
		}
	}
	return cmp.Compare(len(a), len(b))
}

// keyTexts reads the texts of the keys of a column (makeKey) from the rows.
type keyTexts struct {
	cells  grid
	col    int
	folded []string
}

// compare compares the keys a and b of rows i and j.
func (t keyTexts) compare(i, j int, a, b *sortKey) int {
	switch an, bn := a.kind == numberKey, b.kind == numberKey; {
	case an && bn:
		return cmp.Compare(math.Float64frombits(a.pre[0]), math.Float64frombits(b.pre[0]))
	case an:
		return -1
	case bn:
		return 1
	}
	for w := range a.pre { // as the texts compare: a shorter one is padded with zeros
		if a.pre[w] != b.pre[w] {
			return cmp.Compare(a.pre[w], b.pre[w])
		}
	}
	if a.kind == asciiKey && b.kind == asciiKey && min(a.n, b.n) <= 8*preWords {
		return cmp.Compare(a.n, b.n) // the shorter is all in pre, where they tie
	}
	return foldCompare(t.of(i, a), t.of(j, b))
}

func (t keyTexts) of(i int, k *sortKey) string {
	if k.kind == foldedKey {
		return t.folded[i]
	}
	return t.cells.cell(i, t.col)[k.lead : uint32(k.lead)+k.n]
}

// comparer orders two row indices for display: by group when grouped,
// then by the sort; ties keep arrival order, so the result is a total order
// and the sort is stable. Its branches are taken once, for the many
// comparisons of a sort, a merge or a search: a sort by a column compares
// the keys directly. It reads the keys and groups as they are now, and
// holds neither the table nor its rows.
func (m *Model) comparer() cmpFunc {
	c := m.groupComparer()
	p := m.pinnedRow()
	if p < 0 {
		return c
	}
	return func(i, j int) int {
		switch {
		case i == j:
			return 0
		case i == p:
			return -1
		case j == p:
			return 1
		}
		return c(i, j)
	}
}

// pinnedRow is the row Pin keeps first, or -1. It looks the row up without
// the index (which would order rows to fold repeated IDs, and so compare
// them): Pin is for short lists.
func (m *Model) pinnedRow() int {
	if m.pinned == "" {
		return -1
	}
	for i := range m.rows.Len() {
		if !m.isDead(i) && m.rows.id(i) == m.pinned {
			return i
		}
	}
	return -1
}

// Pin keeps the row with this ID first, whatever the sort (the session
// picker's "Whole event"); "" pins none. For short lists: each order
// looks the row up.
func (m *Model) Pin(id string) { m.resort(func() { m.pinned = id }) }

// groupComparer is comparer without the pinned row.
func (m *Model) groupComparer() cmpFunc {
	byRow := m.rowComparer()
	if !m.grouped {
		return byRow
	}
	groupOf := m.groupOf
	return func(i, j int) int {
		if c := cmp.Compare(groupOf[i], groupOf[j]); c != 0 {
			return c
		}
		return byRow(i, j)
	}
}

// rowComparer is comparer without the groups.
func (m *Model) rowComparer() cmpFunc {
	switch {
	case m.sortCol < 0 && m.desc:
		return func(i, j int) int { return cmp.Compare(j, i) }
	case m.sortCol < 0:
		return cmp.Compare[int]
	}
	keys, texts, sign := m.keys, keyTexts{m.rows.grid, m.sortCol, m.folded}, 1
	if m.desc {
		sign = -1
	}
	return func(i, j int) int {
		if c := texts.compare(i, j, keys.at(i), keys.at(j)); c != 0 {
			return sign * c
		}
		return cmp.Compare(i, j)
	}
}

// SetRows replaces every row with rows (nil: none), keeping the filter, the
// sort and (when the row is still there) the cursor's row. The table takes
// rows as they are, leaving the caller's list empty.
func (m *Model) SetRows(rows *Rows) {
	keep := m.mark()
	m.rows, m.dead, m.folded = Rows{}, m.dead[:0], nil
	m.keys.reset()
	m.hay.reset()
	m.order.reset()
	m.filtered.reset()
	m.unindex()
	m.unchecked = false
	m.live = 0
	m.groupOf = m.groupOf[:0]
	m.groups.reset()
	m.cursor, m.offset, m.topHead = 0, 0, false
	m.appendRows(rows)
	m.restore(keep)
}

// AppendRows adds a page. The filter and sort are applied to the new rows
// only, which take their places; the cursor stays on its row. A row whose
// ID is already loaded replaces it instead. The table takes the page (or
// copies it), leaving the caller's list empty.
func (m *Model) AppendRows(rows *Rows) {
	keep := m.mark()
	m.appendRows(rows)
	m.restore(keep)
}

func (m *Model) appendRows(rows *Rows) {
	if rows.Len() == 0 || m.rows.Len() == 0 && m.adopt(rows) {
		return
	}
	first := m.rows.Len()
	m.rows.reserve(rows)
	if m.grouped {
		m.groupOf = grow(m.groupOf, rows.Len())
	}
	for k := range rows.Len() {
		r := rows.row(k)
		if i, ok := m.lookup(r.ID); ok {
			if i < first {
				m.replace(i, r)
			} else { // twice in this batch: not placed yet, overwrite
				m.rows.set(i, r)
				m.derive(i)
			}
			continue
		}
		i := m.rows.Len()
		m.rows.Add(r)
		m.byID[m.rows.id(i)] = i // the table's copy of the ID: the page goes
		m.derive(i)
		m.live++
	}
	*rows = Rows{}
	m.place(first)
}

// adopt takes a whole load into an empty table as it is, when no ID comes
// twice in it. A load in arrival order with no filter is adopted without
// that check, which would be most of its cost: rows sharing an ID are
// folded into one when the table first needs the IDs (settleIDs).
func (m *Model) adopt(rows *Rows) bool {
	plain := m.sortCol < 0 && !m.desc && !m.grouped && m.query == "" && m.where == nil
	if !plain && !distinctIDs(rows) {
		return false
	}
	m.rows, *rows = *rows, Rows{}
	n := m.rows.Len()
	m.live = n
	m.unindex()
	m.unchecked = plain && n > 1
	if m.sortCol >= 0 || m.grouped {
		m.groupOf = slices.Grow(m.groupOf, n)
		for i := range n {
			m.derive(i)
		}
	}
	m.place(0)
	return true
}

// isDead reports whether row i was removed.
func (m *Model) isDead(i int) bool { return i < len(m.dead) && m.dead[i] }

// kill marks row i removed, growing the removal marks on first use.
func (m *Model) kill(i int) {
	if len(m.dead) <= i {
		m.dead = append(m.dead, make([]bool, m.rows.Len()-len(m.dead))...)
	}
	m.dead[i] = true
	m.rows.release(i)
	m.hay.drop(i)
	if i < len(m.folded) {
		m.folded[i] = ""
	}
	m.live--
}

// derive computes what the table keeps about row i besides the row: its
// filter text (once the hay covers it), its sort key and its group. i may be
// the newest row.
func (m *Model) derive(i int) {
	m.hay.set(i, m.rows.of(i))
	if m.sortCol >= 0 {
		m.setKey(i)
	}
	if m.grouped {
		m.groupOf = setAt(m.groupOf, i, m.groups.rankOf(m.rows.group(i)))
	}
}

// setKey computes row i's sort key; a text that lower-casing changed is
// kept apart, as keys hold no text. i may be the newest row.
func (m *Model) setKey(i int) {
	k, text := makeKey(m.rows.cell(i, m.sortCol))
	m.keys.set(i, k)
	switch {
	case k.kind == foldedKey:
		if len(m.folded) <= i {
			m.folded = slices.Grow(m.folded, i+1-len(m.folded))[:i+1]
		}
		m.folded[i] = text
	case i < len(m.folded):
		m.folded[i] = ""
	}
}

// grow is slices.Grow, doubling: a list fed page by page is copied at every
// quarter of growth otherwise (append's rate for a large slice).
func grow[S ~[]E, E any](s S, n int) S {
	if need := len(s) + n; need > cap(s) {
		t := make(S, len(s), max(need, 2*cap(s)))
		copy(t, s)
		return t
	}
	return s
}

// setAt sets s[i], appending when i is just past the end.
func setAt[T any](s []T, i int, v T) []T {
	if i == len(s) {
		return append(s, v)
	}
	s[i] = v
	return s
}

// arrival reports whether the order is the rows' arrival order.
func (m *Model) arrival() bool { return m.sortCol < 0 && !m.desc && !m.grouped && m.pinned == "" }

// place puts the rows from first on into the order and, when they pass the
// filter, into the view.
func (m *Model) place(first int) {
	n := m.rows.Len() - first
	if m.order.len() == 0 { // a one-shot load: the new rows are the whole order
		m.reorder()
		return
	}
	c := m.comparer()
	added := appendRange(make([]int, 0, n), first, m.rows.Len())
	if m.filters() { // an array of its own: add reorders added
		m.filtered.add(m.appendMatching(make([]int, 0, n), added), c)
	}
	if m.order.ident && m.order.n == first && m.follows(added, c) {
		m.order.toRange(m.rows.Len()) // still every row, in arrival order
	} else {
		m.order.add(added, c)
	}
}

// follows reports whether added, the rows from the order's end on in
// arrival order, are in display order and after every row in it.
func (m *Model) follows(added []int, c cmpFunc) bool {
	if len(added) == 0 {
		return true
	}
	return (m.order.n == 0 || c(m.order.n-1, added[0]) < 0) && slices.IsSortedFunc(added, c)
}

// appendRange appends from, from+1, ..., to-1.
func appendRange(s []int, from, to int) []int {
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// merge merges sorted b into sorted a in place, from the back. Each row of
// b finds its place in the rows of a not passed yet, and the rows of a after
// it move in one copy, so b costs about its length times log(len(a)/its
// length) compares and one pass of copying, however the two interleave.
// The search first steps back by the gap expected between two places (the
// rows left over the rows of b left), then bisects within the last step.
func merge(a, b []int, c cmpFunc) []int {
	n := len(a)
	a = grow(a, len(b))[:n+len(b)]
	hi, end := n, len(a) // a[:hi] not moved yet; a[end:] final
	for j := len(b) - 1; j >= 0; j-- {
		x := b[j]
		step := max(1, hi/(j+1))
		lo, k := hi, hi // the first of a[:hi] after x is in a[lo:k+1]
		for lo > 0 && c(a[lo-1], x) > 0 {
			k = lo - 1
			lo = max(0, lo-step)
		}
		for lo < k { // bisect a[lo:k]: the first after x, or k
			mid := int(uint(lo+k) >> 1)
			if c(a[mid], x) > 0 {
				k = mid
			} else {
				lo = mid + 1
			}
		}
		copy(a[end-(hi-k):end], a[k:hi])
		end -= hi - k
		hi = k
		end--
		a[end] = x
	}
	return a
}

// UpdateRow replaces the row with r.ID, moving it if the sort or filter
// says so. It reports false (and changes nothing) for an unknown ID.
func (m *Model) UpdateRow(r Row) bool {
	i, ok := m.lookup(r.ID)
	if !ok {
		return false
	}
	keep := m.mark()
	m.replace(i, r)
	m.restore(keep)
	return true
}

func (m *Model) replace(i int, r Row) {
	moves := m.sortCol >= 0 || m.grouped // in arrival order a row keeps its place
	if moves {
		m.order.remove(i, m.comparer())
	}
	m.filtered.remove(i, m.comparer())
	m.rows.set(i, r)
	m.derive(i)
	c := m.comparer() // the new key
	if moves {
		m.order.add([]int{i}, c)
	}
	if m.filters() && m.matches(i) {
		m.filtered.add([]int{i}, c)
	}
}

// unplace takes row i out of the order and the view, by its current key.
func (m *Model) unplace(i int) {
	c := m.comparer()
	m.order.remove(i, c)
	m.filtered.remove(i, c)
}

// RemoveRow drops the row with this ID; its slot stays so indices hold.
func (m *Model) RemoveRow(id string) bool {
	i, ok := m.lookup(id)
	if !ok {
		return false
	}
	keep := m.mark()
	if sel, ok := m.Selected(); ok && sel.ID == id {
		keep.id = "" // stay at the same position: the next row
	}
	delete(m.byID, id)
	m.unplace(i)
	m.kill(i)
	m.restore(keep)
	return true
}

// positionOf is the position of row i among the visible rows, or -1.
func (m *Model) positionOf(i int) int { return m.visible().rank(i, m.comparer()) }

// rowAt is the row at visible position p.
func (m *Model) rowAt(p int) int {
	if i, ok := m.visible().settled(p); ok {
		return i
	}
	return m.visible().at(p, m.comparer())
}

// settle puts in order the visible rows up to the window's end and the
// cursor (positions.settle), so that drawing and moving read them
// directly; every row while grouped, as a title reads the row before its
// group's first and may count its group's rows. While a filter applies
// nothing reads the order by position, so it is only trimmed: new rows
// then seldom merge into it.
func (m *Model) settle() {
	q := m.visible()
	need := max(m.offset, m.cursor) + max(1, m.bodyHeight()) + 1
	if m.grouped {
		need = q.len()
	}
	q.settle(need, m.comparer())
	if m.filters() {
		m.order.trim(need)
	}
}

// resort makes a change to the sort or the grouping, then rebuilds the
// order and the filter. The cursor's row is remembered before the change,
// while the order still reads by the old one.
func (m *Model) resort(change func()) {
	keep := m.mark()
	change()
	m.keys.reset()
	m.folded = nil
	if m.sortCol >= 0 {
		for i := range m.rows.Len() {
			m.setKey(i)
		}
	}
	m.settleIDs()
	m.reorder()
	m.restore(keep)
}

// reorder builds the order of every live row, then the filter. In arrival
// order, or when the rows come sorted, the order is the range of the rows;
// otherwise the rows are put in order as the window reaches them (settle).
func (m *Model) reorder() {
	if n := m.rows.Len(); m.live == n && (m.arrival() || m.inOrder()) {
		m.order.toRange(n)
	} else {
		m.order.unordered(n, func(i int) bool { return !m.isDead(i) })
	}
	m.refilter()
}

// inOrder reports whether the rows, in arrival order, are in display order.
func (m *Model) inOrder() bool {
	c := m.comparer()
	for i := 1; i < m.rows.Len(); i++ {
		if c(i-1, i) > 0 {
			return false
		}
	}
	return true
}

// cycleSort moves the sort to the next column: none, 1, 2, ..., none.
func (m *Model) cycleSort() {
	next := m.sortCol + 1
	if next >= len(m.cols) {
		next = -1
	}
	m.SetSort(next, m.desc)
}

// mark remembers the cursor's row and its line on screen.
type mark struct {
	id     string
	row    int // index in rows, a hint for finding id
	cursor int
	line   int
}

func (m *Model) mark() mark {
	k := mark{cursor: m.cursor, line: m.lineOf(m.cursor, m.bodyHeight())}
	if r, ok := m.Selected(); ok {
		k.id, k.row = r.ID, m.rowAt(m.cursor)
	}
	return k
}

// restore puts the cursor back on the remembered row (or the same position
// when that row is gone) on the same screen line.
func (m *Model) restore(k mark) {
	m.cursor = k.cursor
	if k.id != "" {
		if i, ok := m.find(k); ok {
			if p := m.positionOf(i); p >= 0 {
				m.cursor = p
			}
		}
	}
	m.cursor = max(0, min(m.cursor, m.visible().len()-1))
	m.settle() // before topFor reads the rows above the cursor
	m.offset, m.topHead = m.topFor(m.cursor, k.line)
	m.clampOffset()
}
