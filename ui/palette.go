package ui

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// PaletteItem is one thing the command palette can do: go somewhere or
// run something.
type PaletteItem struct {
	Title string // what is shown and matched ("Event: Go Summit")
	Hint  string // shown dimmed after the title ("upcoming, 12 Dec")
	// Section, when set, is switched to before Run runs, and the section
	// goes back to its root first (a jump replaces the path), unless Stay.
	Section string
	Stay    bool
	Run     func() tea.Cmd
	// Always: shown whatever is typed, after the matches (a source says
	// its items are still loading).
	Always bool
}

// PaletteSource is a screen that offers palette items wherever it sits (the
// events list offers every loaded event).
type PaletteSource interface {
	PaletteItems() []PaletteItem
}

// maxRecent is how many chosen items the palette remembers.
const maxRecent = 8

// commandPalette is the command palette's state while it is open.
type commandPalette struct {
	input  textinput.Model
	items  []PaletteItem // everything on offer, recent first
	fixed  int           // items[:fixed] do not change; the screens' offers follow, as they load
	shown  []int         // items matching the input
	cursor int
}

// openPalette gathers what can be done from here: the recent choices, the
// sections, the focused screen's actions and every open screen's items.
func (a *App) openPalette() tea.Cmd {
	in := textinput.New()
	in.Prompt = ": "
	in.Placeholder = "jump to an event, a section or an action"
	in.SetStyles(a.ctx.Theme.TextInputStyles())
	in.SetWidth(max(10, min(a.ctx.Width-12, 60)))
	p := &commandPalette{input: in}
	cmds := []tea.Cmd{p.input.Focus(), a.openSources()}
	p.items = append(p.items, a.recent...)
	for _, s := range a.sections {
		name := s.Name
		p.items = append(p.items, PaletteItem{Title: "Go to " + name, Hint: "section", Section: name, Stay: true,
			Run: func() tea.Cmd { return nil }})
	}
	if top := a.Top(); top != nil {
		for _, group := range top.FullHelp() {
			for _, b := range group {
				if len(b.Keys()) == 0 || !b.Enabled() || a.moves(b) {
					continue
				}
				k := keyPress(b.Keys()[0])
				p.items = append(p.items, PaletteItem{Title: b.Help().Desc, Hint: b.Help().Key,
					Run: func() tea.Cmd { return func() tea.Msg { return k } }})
			}
		}
	}
	p.fixed = len(p.items)
	p.items = append(p.items, a.sourceItems()...)
	p.filter()
	a.openOverlay(p)
	return tea.Batch(cmds...)
}

// openSources opens, in the background, the roots of the sections that
// offer palette items and have not been opened.
func (a *App) openSources() tea.Cmd {
	var cmds []tea.Cmd
	for i, s := range a.sections {
		if !s.Palette || len(a.stacks[i]) > 0 {
			continue
		}
		e := a.newEntry(s.New(a.ctx))
		a.stacks[i] = []entry{e}
		e.screen.SetSize(a.contentSize())
		cmds = append(cmds, addressTo(e.id, e.screen.Init()))
	}
	return tea.Batch(cmds...)
}

// sourceItems are the items every open screen offers (PaletteSource).
func (a *App) sourceItems() []PaletteItem {
	var items []PaletteItem
	for _, st := range a.stacks {
		for _, e := range st {
			if src, ok := e.screen.(PaletteSource); ok {
				items = append(items, src.PaletteItems()...)
			}
		}
	}
	return items
}

// moves reports whether b only moves in a list (up, page down): no
// action to offer in the palette.
func (a *App) moves(b key.Binding) bool {
	k := a.ctx.Keys
	for _, nav := range []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End} {
		for _, name := range nav.Keys() {
			if slices.Contains(b.Keys(), name) {
				return true
			}
		}
	}
	return false
}

// keyPress builds the key press a binding's key name stands for, so running
// an action from the palette is exactly pressing its key.
func keyPress(name string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"delete": tea.KeyDelete, "space": tea.KeySpace, "f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4}
	if r, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: r}
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(name, "f")); err == nil && strings.HasPrefix(name, "f") && n >= 1 && n <= 20 {
		return tea.KeyPressMsg{Code: tea.KeyF1 + rune(n-1)}
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok && len(rest) == 1 {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// filter keeps the items whose title holds every word typed, in order of
// where the first word matches (recent and earlier items first on ties).
func (p *commandPalette) filter() {
	words := strings.Fields(strings.ToLower(p.input.Value()))
	p.shown = p.shown[:0]
	type hit struct{ i, at int }
	var hits []hit
	for i, it := range p.items {
		title := strings.ToLower(it.Title + " " + it.Hint)
		at, ok := 0, true
		for j, w := range words {
			k := strings.Index(title, w)
			if k < 0 {
				ok = false
				break
			}
			if j == 0 {
				at = k
			}
		}
		if ok {
			hits = append(hits, hit{i, at})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.at - b.at })
	for _, h := range hits {
		p.shown = append(p.shown, h.i)
	}
	for i, it := range p.items {
		if it.Always && !slices.Contains(p.shown, i) {
			p.shown = append(p.shown, i)
		}
	}
	p.cursor = max(0, min(p.cursor, len(p.shown)-1))
}

// updatePalette handles a key while the palette is open.
func (a *App) updatePalette(p *commandPalette, k tea.KeyPressMsg) tea.Cmd {
	keys := a.ctx.Keys
	switch {
	case key.Matches(k, keys.Back):
		a.closeOverlay(p)
		return nil
	case k.Code == tea.KeyUp:
		p.cursor = max(0, p.cursor-1)
		return nil
	case k.Code == tea.KeyDown:
		p.cursor = min(len(p.shown)-1, p.cursor+1)
		return nil
	case k.Code == tea.KeyEnter:
		a.closeOverlay(p)
		if len(p.shown) == 0 {
			return nil
		}
		it := p.items[p.shown[p.cursor]]
		var cmds []tea.Cmd
		if it.Section != "" {
			for i, s := range a.sections {
				if s.Name == it.Section {
					cmds = append(cmds, a.switchTo(i))
				}
			}
		}
		if it.Section != "" && !it.Stay {
			// A jump goes from the section's root: the path is replaced,
			// never piled onto, and esc goes one level up.
			if why := a.toRoot(); why != "" {
				return tea.Batch(append(cmds, Toast(ToastInfo, why))...)
			}
		}
		a.remember(it)
		return tea.Batch(append(cmds, it.Run())...)
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(k)
	p.items = append(p.items[:p.fixed], a.sourceItems()...) // a list loaded meanwhile
	p.filter()
	return cmd
}

// toRoot closes the active section's screens above its root, for a jump.
// A screen that would lose work (a form with changes, scans not yet sent)
// stops it: the reason is returned, and nothing closes.
func (a *App) toRoot() string {
	st := a.stack()
	for _, e := range st[min(1, len(st)):] {
		if g, ok := e.screen.(QuitGuard); ok {
			if r := g.ConfirmQuit(); r != "" {
				return e.screen.Title() + ": " + r + "; close it first, then jump"
			}
		}
	}
	for len(a.stack()) > 1 {
		a.pop()
	}
	return ""
}

// remember puts it first among the recent choices.
func (a *App) remember(it PaletteItem) {
	a.recent = slices.DeleteFunc(a.recent, func(r PaletteItem) bool { return r.Title == it.Title })
	if !strings.HasPrefix(it.Hint, "recent") {
		it.Hint = strings.TrimSpace("recent · " + it.Hint)
	}
	a.recent = append([]PaletteItem{it}, a.recent[:min(len(a.recent), maxRecent-1)]...)
}

// paletteView draws the input and the matches that fit.
func (a *App) paletteView(p *commandPalette, w, h int) string {
	th := a.ctx.Theme
	width := max(20, min(w-4, 72))
	rows := max(3, min(12, h-6))
	lines := []string{p.input.View(), ""}
	if a.notTyped != "" { // a burst the palette did not take, until a person's key
		for _, l := range wrapWords(NotTypedNote(a.notTyped), width-4) {
			lines = append(lines, th.Error.Render(l))
		}
		lines = append(lines, "")
	}
	from := max(0, min(p.cursor-rows+1, len(p.shown)-rows))
	for i := from; i < min(len(p.shown), from+rows); i++ {
		it := p.items[p.shown[i]]
		text := sanitize.Line(it.Title)
		if it.Hint != "" {
			text += th.Muted.Render("  " + sanitize.Line(it.Hint))
		}
		text = ansi.Truncate(text, width-6, "…") // inside the border and padding, after "> "
		if i == p.cursor {
			lines = append(lines, th.Selected.Render("> "+text))
		} else {
			lines = append(lines, "  "+text)
		}
	}
	if len(p.shown) == 0 {
		lines = append(lines, th.Muted.Render("  nothing matches"))
	}
	lines = append(lines, "", th.Muted.Render("enter go · ↑/↓ choose · esc close"))
	return th.Border.Padding(0, 1).Width(width).Render(strings.Join(lines, "\n"))
}
