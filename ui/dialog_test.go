package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui/uitest"
)

func TestDialogRoutesToTheOpenConfirmAndCloses(t *testing.T) {
	var d Dialog
	if _, handled := d.Update(uitest.Key("y")); handled || d.Open() {
		t.Fatal("a closed dialog handled a key")
	}
	yes := func() tea.Cmd { return func() tea.Msg { return "yes" } }
	d.SetSize(60, 20)
	d.Ask(NewTheme(true, true), "Delete it?", true, yes)
	if !d.Open() || len(d.ShortHelp()) == 0 {
		t.Fatal("the question is not open")
	}
	if v := d.View("base", 60, 10); v == "base" {
		t.Fatal("the question is not drawn")
	}
	cmd, handled := d.Update(uitest.Key("y"))
	if !handled || d.Open() {
		t.Fatal("y should answer and close the question")
	}
	if cmd == nil || cmd() != "yes" {
		t.Fatal("y should run onYes")
	}
	if d.View("base", 60, 10) != "base" {
		t.Fatal("a closed dialog still draws")
	}
}
