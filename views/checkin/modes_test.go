package checkin

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The PIN prompt's help is its actions: enter unlocks, esc and the kiosk
// key cancel, and every other key that is not typing (the desk's keys
// among them) does nothing while the prompt is open: the public cannot
// reach the desk's keys through it.
func TestPINPromptHelpListsExactlyTheKeysThatAct(t *testing.T) {
	r := newRig(t, withKioskPIN("246813"))
	r.settle("ONLINE", "KIOSK")
	open := func() {
		if !r.desk().kiosk.prompting {
			r.Send(ctrl('k'))
			r.Contains("PIN > ")
		}
	}
	open()
	var short []string
	for _, b := range r.desk().ShortHelp() {
		short = append(short, b.Help().Key+" "+b.Help().Desc)
	}
	if want := []string{"enter unlock", "esc cancel"}; !slices.Equal(short, want) {
		t.Fatalf("the prompt's help: %q, want %q", short, want)
	}
	listed := map[string]bool{}
	for _, g := range append(r.desk().FullHelp(), r.app.ShellKeys()) {
		for _, b := range g {
			for _, k := range b.Keys() {
				listed[k] = true
			}
		}
	}
	keys := []string{"esc", "up", "down", "pgup", "pgdown", "home", "end", "delete", "enter"}
	for i := 1; i <= 12; i++ {
		keys = append(keys, fmt.Sprintf("f%d", i))
	}
	for c := 'a'; c <= 'z'; c++ {
		if c != 'y' && c != 'j' && c != 'i' && c != 'm' { // ctrl+y answers questions; ctrl+j, i, m are Enter, Tab, Enter
			keys = append(keys, "ctrl+"+string(c))
		}
	}
	var wrong []string
	for _, k := range keys {
		open()
		before, view := r.app.Activity(), r.View()
		r.Press(k)
		acted := r.View() != view || r.app.Activity() != before
		for i := 0; r.app.Activity().Popups > 0 && i < 3; i++ {
			r.Press("esc")
		}
		switch {
		case acted && !listed[k]:
			wrong = append(wrong, k+" acts but is not in the help")
		case !acted && listed[k]:
			wrong = append(wrong, k+" is in the help but does nothing")
		}
		if r.desk().searching || r.desk().showBoard || !r.desk().kiosk.locked {
			t.Fatalf("%s in the PIN prompt reached the desk", k)
		}
	}
	if len(wrong) > 0 {
		t.Fatalf("the prompt's help is not true:\n%s", strings.Join(wrong, "\n"))
	}
}
