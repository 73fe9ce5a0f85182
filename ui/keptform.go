package ui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// A kept form is never lost to a failed submit: while its request runs it
// stays on screen, frozen ("Sending..."); when the request fails it opens
// again with every value, the reason at the top and at the field the
// server or the check names, focused there; the user fixes it and submits
// again. Its fields are built through a Fields, which also tells the user
// where they are in a long form (page n of m, field i of k).

// FieldReasoner is an error that names the fields it is about, field and
// reason (the api package's ValidationError, and its Error with the
// errors array).
type FieldReasoner interface {
	FieldReasons() [][2]string
}

// Fields builds a kept form's groups: each field is wrapped so the form
// can find it by key (huh's Key), mark it with a reason and say where it is.
type Fields struct {
	all   []*trackedState
	hides []func() bool // per group, in order: hides it when true (nil: shown)
	theme *Theme
}

// Hide registers fn as the hide function of the group made last, and
// returns it: fs.Group(...).WithHideFunc(fs.Hide(fn)), so the form counts
// only the pages shown.
func (fs *Fields) Hide(fn func() bool) func() bool {
	if n := len(fs.hides); n > 0 {
		fs.hides[n-1] = fn
	}
	return fn
}

// pages is how many groups show, and the place among them of group g.
func (fs *Fields) pages(g int) (page, of int) {
	for i, hide := range fs.hides {
		if hide != nil && hide() {
			continue
		}
		of++
		if i <= g {
			page = of
		}
	}
	return page, of
}

// trackedState is a field's place in the form and its mark, shared by the
// copies huh makes of the wrapper.
type trackedState struct {
	key    string
	value  func() any // the field's value now
	pos    huh.FieldPosition
	placed bool
	width  int    // huh sets it on the field in place, ignoring the copy
	mark   string // the reason the field is marked with ("" when it is not)
	markAt string // the value when it was marked: an edit clears the mark
}

// Group is huh.NewGroup over fields the form tracks.
func (fs *Fields) Group(fields ...huh.Field) *huh.Group {
	wrapped := make([]huh.Field, len(fields))
	for i, f := range fields {
		st := &trackedState{key: f.GetKey(), value: f.GetValue}
		fs.all = append(fs.all, st)
		wrapped[i] = tracked{Field: f, st: st, theme: fs.theme}
	}
	fs.hides = append(fs.hides, nil)
	return huh.NewGroup(wrapped...)
}

// tracked wraps a huh field: it records the field's position and draws the
// field's mark under it while the value is the one that was refused.
type tracked struct {
	huh.Field
	st    *trackedState
	theme *Theme
}

func (t tracked) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	m, cmd := t.Field.Update(msg)
	if f, ok := m.(huh.Field); ok {
		t.Field = f
	}
	return t, cmd
}

func (t tracked) View() string {
	v := t.Field.View()
	if t.st.mark == "" || fmt.Sprint(t.Field.GetValue()) != t.st.markAt {
		return v
	}
	for _, l := range WrapWords("! "+t.st.mark, max(20, t.st.width-2)) {
		v += "\n" + t.theme.Error.Render(l)
	}
	return v
}

func (t tracked) WithTheme(th huh.Theme) huh.Field { t.Field = t.Field.WithTheme(th); return t }
func (t tracked) WithKeyMap(k *huh.KeyMap) huh.Field {
	t.Field = t.Field.WithKeyMap(k)
	return t
}
func (t tracked) WithWidth(w int) huh.Field  { t.Field, t.st.width = t.Field.WithWidth(w), w; return t }
func (t tracked) WithHeight(h int) huh.Field { t.Field = t.Field.WithHeight(h); return t }
func (t tracked) WithPosition(p huh.FieldPosition) huh.Field {
	t.st.pos, t.st.placed = p, true
	t.Field = t.Field.WithPosition(p)
	return t
}

// NewKeptForm builds a form that stays open until its submit succeeds
// (see Dialog.Settle). build makes the groups from the values the fields
// are bound to, with fs.Group; it runs again when the form reopens.
func NewKeptForm(theme *Theme, title string, onSubmit func() tea.Cmd, build func(fs *Fields) []*huh.Group) *Form {
	fs := &Fields{theme: theme}
	f := NewForm(theme, title, onSubmit, build(fs)...)
	f.build, f.fields = build, fs
	f.form.UpdateFieldPositions()
	return f
}

// NewFieldsForm builds a form of one page of fields that says where the
// user is in it ("field 2/5 · ctrl+s submits"), as a kept form does, but
// closes when submitted (its submit does not wait for a server).
func NewFieldsForm(theme *Theme, title string, onSubmit func() tea.Cmd, fields ...huh.Field) *Form {
	fs := &Fields{theme: theme}
	f := NewForm(theme, title, onSubmit, fs.Group(fields...))
	f.fields = fs
	f.form.UpdateFieldPositions()
	return f
}

// reopen builds the form again, with every value as submitted, err's
// reasons at the top and at the fields they name (field, when not empty,
// takes a reason that names none), and the first marked field focused.
func (f *Form) reopen(err error, field string) *Form {
	fs := &Fields{theme: f.theme}
	nf := NewForm(f.theme, f.title, f.onSubmit, f.build(fs)...)
	keys := map[string]*trackedState{}
	for _, st := range fs.all {
		if st.key != "" {
			keys[st.key] = st
		}
	}
	marks := reasonsByKey(err, field, f.aliases, keys)
	for k, reason := range marks {
		if st := keys[k]; st != nil {
			st.mark, st.markAt = reason, fmt.Sprint(st.value())
		}
	}
	nf.build, nf.fields, nf.aliases, nf.changed = f.build, fs, f.aliases, true
	nf.form.UpdateFieldPositions()
	var marked []string
	for _, st := range fs.all {
		if st.mark != "" {
			marked = append(marked, st.key)
		}
	}
	nf.refused = err.Error() + "."
	if len(marked) > 0 {
		nf.focusKey = marked[0]
		if len(marked) == len(marks) { // every reason is at its field
			nf.refused = "the reason is under the field marked ! (" + strings.Join(marked, ", ") + ")."
		}
	}
	return nf
}

// Alias names the form field (by key) that an API field is about, where
// they differ ("security_at_join" is the "flags" multi-select).
func (f *Form) Alias(apiField, key string) *Form {
	if f.aliases == nil {
		f.aliases = map[string]string{}
	}
	f.aliases[apiField] = key
	return f
}

// reasonsByKey maps err's field reasons to form keys: a reason is about the
// field keyed by its whole name ("recurrence.end_times"), or by its name up
// to an index ("allow_domain_list[2]") or a dot ("security_at_join.x"), or
// by an alias of these; a reason that names no field goes to field, when
// not empty.
func reasonsByKey(err error, field string, aliases map[string]string, keys map[string]*trackedState) map[string]string {
	out := map[string]string{}
	add := func(key, reason string) {
		if prev := out[key]; prev != "" {
			reason = prev + "; " + reason
		}
		out[key] = reason
	}
	var fr FieldReasoner
	if errors.As(err, &fr) {
		for _, r := range fr.FieldReasons() {
			name, reason := r[0], r[1]
			key := keyFor(name, aliases, keys)
			if key != name {
				reason = name + " " + reason
			}
			add(key, reason)
		}
	}
	if len(out) == 0 && field != "" {
		add(field, err.Error())
	}
	return out
}

// focusMarked moves the focus to the first marked field, never past the
// last field (which would submit).
func (f *Form) focusMarked() tea.Cmd {
	if f.focusKey == "" {
		return nil
	}
	var cmds []tea.Cmd
	for range len(f.fields.all) + 1 {
		t, ok := f.form.GetFocusedField().(tracked)
		if !ok || t.st.key == f.focusKey {
			break
		}
		p := t.st.pos
		if p.Group >= p.LastGroup && p.Field >= p.LastField {
			break
		}
		cmds = append(cmds, f.settle(f.feed(huh.NextField())))
	}
	f.focusKey = ""
	return tea.Batch(cmds...)
}

// where says where the focus is in a long form: "page 2/4 · field 3/5"
// (hidden pages not counted), or "" for a form of one short page.
func (f *Form) where() string {
	if f.fields == nil {
		return ""
	}
	t, ok := f.form.GetFocusedField().(tracked)
	if !ok || !t.st.placed {
		return ""
	}
	p := t.st.pos
	inGroup := 0
	for _, st := range f.fields.all {
		if st.placed && st.pos.Group == p.Group {
			inGroup++
		}
	}
	page, pages := f.fields.pages(p.Group)
	switch {
	case pages > 1:
		return fmt.Sprintf("page %d/%d · field %d/%d", page, pages, p.Field+1, inGroup)
	case inGroup > 3:
		return fmt.Sprintf("field %d/%d", p.Field+1, inGroup)
	}
	return ""
}

// submitAll submits from any field (ctrl+s): it moves through the fields
// to the end, each checked on the way, and stops at the first page whose
// fields refuse their values (their reasons show).
func (f *Form) submitAll() tea.Cmd {
	var cmds []tea.Cmd
	limit := 64
	if f.fields != nil {
		limit = len(f.fields.all) + 8
	}
	stuck := false
	for range limit {
		before := f.form.GetFocusedField()
		cmds = append(cmds, f.settle(f.feed(huh.NextField())))
		if f.form.State != huh.StateNormal {
			break
		}
		if f.form.GetFocusedField() == before {
			stuck = true
			break
		}
	}
	if stuck { // back to the first field of the page that refuses its value
		cmds = append(cmds, f.focusFirstError())
	}
	return tea.Batch(cmds...)
}

// focusFirstError moves the focus back, within the page, to the first field
// whose value its check refuses.
func (f *Form) focusFirstError() tea.Cmd {
	first := f.form.GetFocusedField()
	var cmds []tea.Cmd
	for range 64 {
		t, ok := f.form.GetFocusedField().(tracked)
		if !ok || t.st.pos.Field <= t.st.pos.FirstField {
			break
		}
		cmds = append(cmds, f.settle(f.feed(huh.PrevField())))
	}
	// Forward again to the first field with an error (the walk back
	// checked each one it left).
	for range 64 {
		cur := f.form.GetFocusedField()
		if cur.Error() != nil || cur == first {
			break
		}
		cmds = append(cmds, f.settle(f.feed(huh.NextField())))
	}
	return tea.Batch(cmds...)
}

// keyFor finds the form field an API field name is about (see
// reasonsByKey); a name no field takes is returned as it is.
func keyFor(name string, aliases map[string]string, keys map[string]*trackedState) string {
	candidates := []string{name}
	if i := strings.IndexByte(name, '['); i > 0 {
		candidates = append(candidates, name[:i])
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		candidates = append(candidates, name[:i])
	}
	for _, c := range candidates {
		if _, ok := keys[c]; ok {
			return c
		}
		if a, ok := aliases[c]; ok {
			return a
		}
	}
	return name
}
