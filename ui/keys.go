package ui

import (
	"fmt"
	"reflect"
	"slices"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
)

// GlobalKeys is the console's whole vocabulary of keys: every key a screen
// acts on, outside a text input, is one of these bindings, so a key means
// the same thing wherever the user meets it. A screen names its action in
// its own words (Action.Help); the key and its meaning come from here. Each
// program builds its own copy: no key map is shared or global.
type GlobalKeys struct {
	// The shell's own. ToDesk goes back to the check-in desk (where a scan
	// typed elsewhere belongs). News reads the news the status bar shows
	// (only while it shows some, so the bar names the key then).
	Quit, Interrupt, Back, Help, HelpAnywhere, NextTab, PrevTab, Errors, Palette, ToDesk, News key.Binding

	// Moving in lists.
	Up, Down, PageUp, PageDown, Home, End, Filter, Sort, Reverse key.Binding

	// Acting on what a screen shows.
	Open, Refresh, New, Add, Edit, Delete, Save, Copy, Browse, History key.Binding
	// Event actions.
	Publish, Cancel, Duplicate key.Binding
	// From an event to its parts.
	CheckIn, Coeditors, Emails, Links, Exhibitors, Register key.Binding
	// Screen-specific, each with one meaning.
	MakeDefault, StatusFilter, ReasonFilter, Chart, Raw, Diff, Views key.Binding
	// Choosing items of a list (sessions to register for): one, or all and
	// none. (Not named All: that is the method listing the vocabulary.)
	Toggle, ToggleAll key.Binding
	// At the check-in desk, where letters are scans: only keys a barcode
	// scanner cannot type. YesChord answers yes to a question where letters
	// are typing (the quit question over the desk); Kiosk locks and unlocks
	// a kiosk desk (with its PIN).
	Find, Bell, Retry, Board, YesChord, Kiosk key.Binding
	// At the door: register a walk-in, print (or reprint) a badge.
	WalkIn, PrintBadge key.Binding
	// Phone policy audits: a baseline to check against, another account
	// beside this one.
	Baseline, Compare key.Binding
}

// DefaultGlobalKeys returns the console's bindings with their help texts.
func DefaultGlobalKeys() *GlobalKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return &GlobalKeys{
		Quit:      b("q", "quit", "q"),
		Interrupt: b("ctrl+c", "quit, from anywhere", "ctrl+c"),
		Back:      b("esc", "back", "esc"),
		Help:      b("?", "help", "?"),
		// F1 is help where letters are typing (the check-in desk).
		HelpAnywhere: b("F1", "help", "f1"),
		NextTab:      b("tab", "next section", "tab"),
		PrevTab:      b("shift+tab", "prev section", "shift+tab"),
		Errors:       b("E", "recent errors", "E"),
		Palette:      b(":", "command palette", ":"),
		ToDesk:       b("F6", "back to the check-in desk", "f6"),
		News:         b("N", "read the news in the status bar", "N"),

		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		PageUp:   b("pgup", "page up", "pgup"),
		PageDown: b("pgdn", "page down", "pgdown"),
		Home:     b("g/home", "first", "home", "g"),
		End:      b("G/end", "last", "end", "G"),
		Filter:   b("/", "filter", "/"),
		Sort:     b("s", "sort column", "s"),
		Reverse:  b("S", "reverse sort", "S"),

		// ctrl+j is a bare line feed: scanners set to end with LF send it.
		Open:    b("enter", "open", "enter", "ctrl+j"),
		Refresh: b("r", "refresh", "r"),
		New:     b("n", "new", "n"),
		Add:     b("a", "add", "a"),
		Edit:    b("e", "edit", "e"),
		Delete:  b("x", "delete", "x", "delete"),
		Save:    b("w", "write to a file", "w"),
		Copy:    b("y", "copy", "y"),
		Browse:  b("O", "open in the browser", "O"),
		History: b("h/F3", "check-in history", "h", "f3"),

		Publish:   b("p", "publish", "p"),
		Cancel:    b("c", "cancel event", "c"),
		Duplicate: b("d", "duplicate", "d"),

		CheckIn:    b("i", "check-in desk", "i"),
		Coeditors:  b("o", "co-editors", "o"),
		Emails:     b("m", "emails", "m"),
		Links:      b("l", "access links", "l"),
		Exhibitors: b("b", "booths: exhibitors", "b"),
		Register:   b("t", "tickets: register attendees", "t"),

		MakeDefault:  b("*", "make default", "*"),
		StatusFilter: b("f", "cycle status filter", "f"),
		ReasonFilter: b("F", "cycle reason filter", "F"),
		Chart:        b("v", "show/hide chart", "v"),
		Raw:          b("J", "raw JSON", "J"),
		Diff:         b("D", "compare with snapshot", "D"),
		Views:        b("1-9", "switch view", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
		Toggle:       b("space", "choose", "space"),
		ToggleAll:    b("A", "all or none", "A"),
		Find:         b("ctrl+f/F2", "find a registrant", "ctrl+f", "f2"),
		Bell:         b("ctrl+g", "bell on failure", "ctrl+g"),
		Retry:        b("ctrl+r", "retry now", "ctrl+r"),
		Board:        b("F4", "arrivals board", "f4"),
		YesChord:     b("ctrl+y", "yes, where letters are typed", "ctrl+y"),
		Kiosk:        b("ctrl+k", "kiosk: unlock with the PIN, or lock", "ctrl+k"),
		WalkIn:       b("F5", "register a walk-in", "f5"),
		PrintBadge:   b("F7", "print the badge", "f7"),
		Baseline:     b("B", "load a baseline", "B"),
		Compare:      b("C", "compare with another profile", "C"),
	}
}

// OrOpen is b that enter (Open) triggers too, for a screen where opening
// an item means acting on it ("e/enter edit").
func (k *GlobalKeys) OrOpen(b key.Binding) key.Binding {
	b.SetKeys(slices.Concat(b.Keys(), k.Open.Keys())...) // never append into the vocabulary's slice
	b.SetHelp(b.Help().Key+"/"+k.Open.Help().Key, b.Help().Desc)
	return b
}

// NamedBinding is one binding of the vocabulary with its field name.
type NamedBinding struct {
	Name    string
	Binding key.Binding
}

// All lists the vocabulary, in declaration order (for clash checks and the
// cheatsheet).
func (k *GlobalKeys) All() []NamedBinding {
	v := reflect.ValueOf(k).Elem()
	out := make([]NamedBinding, 0, v.NumField())
	for i := range v.NumField() {
		out = append(out, NamedBinding{Name: v.Type().Field(i).Name, Binding: v.Field(i).Interface().(key.Binding)})
	}
	return out
}

// ShortHelp makes GlobalKeys a help.KeyMap.
func (k GlobalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit}
}

// FullHelp lists the shell's own keys; screens list the keys they act on.
func (k GlobalKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.NextTab, k.PrevTab, k.Back, k.Palette, k.Errors, k.Help, k.Quit}}
}

// NewViewport is a scrolling pane that moves with the vocabulary's keys
// only: the viewport's own letters (d, u, f, b, h, l) mean other things
// here.
func NewViewport(k *GlobalKeys) viewport.Model {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown}
	return vp
}

// Only is b with fewer of its keys and its own help: a screen where some
// of a binding's keys are text (the desk's letters) binds the rest.
func Only(b key.Binding, help, desc string, keys ...string) key.Binding {
	b.SetKeys(keys...)
	b.SetHelp(help, desc)
	return b
}

// Numbers is the number keys binding b with the keys 1 to n only, its
// help saying so ("1-5"), for a screen with n views.
func Numbers(b key.Binding, n int, desc string) key.Binding {
	n = min(max(n, 1), 9)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = string(rune('1' + i))
	}
	return Only(b, fmt.Sprintf("1-%d", n), desc, keys...)
}

// With is b with a screen's own words for it.
func With(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// Combine is one help entry for several bindings of the vocabulary ("↑/↓
// choose" for up, down and the page keys).
func Combine(help, desc string, bs ...key.Binding) key.Binding {
	var keys []string
	for _, b := range bs {
		keys = append(keys, b.Keys()...)
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}
