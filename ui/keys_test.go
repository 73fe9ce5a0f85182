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
