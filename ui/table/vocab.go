package table

import (
	"charm.land/bubbles/v2/key"

	"github.com/evdesk/evdesk/ui"
)

// KeysFrom builds the table's key map from the console's vocabulary, so a
// table moves, filters and sorts with the same keys on every screen. The
// filter input's own keys (keep, clear) apply only while it is open.
func KeysFrom(k *ui.GlobalKeys) KeyMap {
	return KeyMap{
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End,
		Filter: k.Filter, Sort: k.Sort, Reverse: k.Reverse,
		AcceptFilter: ui.With(k.Open, "keep filter"),
		ClearFilter:  ui.With(k.Back, "clear filter"),
	}
}

// Navigation lists the keys the table acts on outside its filter input.
func (k KeyMap) Navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Filter, k.Sort, k.Reverse}
}
