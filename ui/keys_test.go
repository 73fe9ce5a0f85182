package ui

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestOrOpenAddsEnter(t *testing.T) {
	k := DefaultGlobalKeys()
	b := k.OrOpen(k.Edit)
	if !key.Matches(tea.KeyPressMsg{Code: tea.KeyEnter}, b) || !key.Matches(tea.KeyPressMsg{Code: 'e', Text: "e"}, b) {
		t.Fatalf("keys %v: want e and enter", b.Keys())
	}
	if h := b.Help(); h.Key != "e/enter" || h.Desc != k.Edit.Help().Desc {
		t.Fatalf("help %+v", h)
	}
	if len(k.Edit.Keys()) != 1 {
		t.Fatalf("the vocabulary's Edit changed: %v", k.Edit.Keys())
	}
}

// One key means one thing: no key belongs to two bindings of the
// vocabulary.
func TestVocabularyHasNoKeyTwice(t *testing.T) {
	owner := map[string]string{}
	for _, nb := range DefaultGlobalKeys().All() {
		for _, k := range nb.Binding.Keys() {
			if prev, ok := owner[k]; ok {
				t.Errorf("key %q is both %s and %s", k, prev, nb.Name)
			}
			owner[k] = nb.Name
		}
	}
	for _, want := range []string{"space", "A"} {
		if owner[want] == "" {
			t.Errorf("key %q is not in the vocabulary", want)
		}
	}
}
