package table

import (
	"charm.land/bubbles/v2/key"

	"github.com/evdesk/evdesk/ui"
)

// KeysFrom builds the table's key map from the console's vocabulary, so a
// table moves, filters and sorts with the same keys on every screen. The
// filter input's own keys (keep, clear) apply only while it is open.
func KeysFrom(k *ui.GlobalKeys) KeyMap {
	km := DefaultKeyMap()
	km.Up, km.Down, km.PageUp, km.PageDown = k.Up, k.Down, k.PageUp, k.PageDown
	km.Home, km.End, km.Filter, km.Sort, km.Reverse = k.Home, k.End, k.Filter, k.Sort, k.Reverse
	return km
}

// Navigation lists the keys the table acts on outside its filter input.
func (k KeyMap) Navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Filter, k.Sort, k.Reverse}
}
