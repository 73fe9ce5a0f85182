package viewtest

import (
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/evdesk/evdesk/ui"
)

// OneMeaning fails the test when a key of the screen's bindings (its
// actions and its table's navigation) is bound twice, or is one of the
// shell's own keys (quit, help, sections), which the screen never sees.
func OneMeaning(t testing.TB, keys *ui.GlobalKeys, bindings ...key.Binding) {
	t.Helper()
	owner := map[string]string{}
	for _, b := range []key.Binding{keys.Quit, keys.Help, keys.NextTab, keys.PrevTab} {
		for _, k := range b.Keys() {
			owner[k] = "the shell's " + b.Help().Desc
		}
	}
	for _, b := range bindings {
		for _, k := range b.Keys() {
			if prev, ok := owner[k]; ok {
				t.Errorf("key %q means both %q and %q", k, prev, b.Help().Desc)
			}
			owner[k] = b.Help().Desc
		}
	}
}
