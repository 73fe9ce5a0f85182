package table

import "charm.land/bubbles/v2/key"

// KeyMap holds the table's bindings; it implements help.KeyMap so screens can
// fold it into their own help.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	Filter, AcceptFilter, ClearFilter     key.Binding
	Sort, Reverse                         key.Binding
}

// DefaultKeyMap returns the standard bindings.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:           b("up/k", "up", "up", "k"),
		Down:         b("down/j", "down", "down", "j"),
		PageUp:       b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown:     b("pgdn", "page down", "pgdown", "ctrl+f"),
		Home:         b("g/home", "first", "home", "g"),
		End:          b("G/end", "last", "end", "G"),
		Filter:       b("/", "filter", "/"),
		AcceptFilter: b("enter", "keep filter", "enter"),
		ClearFilter:  b("esc", "clear filter", "esc"),
		Sort:         b("s", "sort column", "s"),
		Reverse:      b("S", "reverse sort", "S"),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Filter, k.Sort}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Filter, k.AcceptFilter, k.ClearFilter, k.Sort, k.Reverse},
	}
}
