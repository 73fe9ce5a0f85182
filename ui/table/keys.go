package table

import (
	"charm.land/bubbles/v2/key"

	"github.com/evdesk/evdesk/ui"
)

// KeyMap holds the table's bindings; it implements help.KeyMap so screens can
// fold it into their own help.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	Filter, AcceptFilter, ClearFilter     key.Binding
	Sort, Reverse                         key.Binding
}

// DefaultKeyMap returns the console's standard bindings (KeysFrom the
// default vocabulary), for a table built without a program's key map.
func DefaultKeyMap() KeyMap { return KeysFrom(ui.DefaultGlobalKeys()) }

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
