package ui

import (
	"errors"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestDefaultKeysAreOneActionEach(t *testing.T) {
	if err := DefaultGlobalKeys().clash(nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestRebindByActionName(t *testing.T) {
	k := DefaultGlobalKeys()
	origin := func(a string) string { return "/home/ada/.config/evdesk/config.toml:12" }
	if err := k.Rebind(map[string][]string{"cancel_event": {"K"}, "page_down": {"pgdown", "ctrl+d"}}, origin); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'K', Text: "K"}, k.Cancel) || key.Matches(tea.KeyPressMsg{Code: 'c', Text: "c"}, k.Cancel) {
		t.Fatal("cancel_event is not on K alone")
	}
	if k.Cancel.Help().Key != "K" || k.Cancel.Help().Desc != "cancel event" || k.PageDown.Help().Key != "pgdn/ctrl+d" {
		t.Fatalf("the help shows %q %q, %q", k.Cancel.Help().Key, k.Cancel.Help().Desc, k.PageDown.Help().Key)
	}
}

func TestRebindRefusesWithTheFileLineAndTheOtherAction(t *testing.T) {
	origin := func(a string) string { return "config.toml:7" }
	for _, c := range []struct {
		keys map[string][]string
		want string
	}{
		{map[string][]string{"cancel_event": {"C"}}, `config.toml:7: [keys] cancel_event: "C" is already compare's key (compare with another profile, on the screens)`},
		{map[string][]string{"publish_event": {"q"}}, `config.toml:7: [keys] publish_event: "q" is already quit's key (quit, everywhere)`},
		{map[string][]string{"edit": {"j"}}, `"j" is already down's key (down, in every list)`},
		{map[string][]string{"cancel_everything": {"Z"}}, "cancel_everything: no such action"},
		{map[string][]string{"retry": {"r"}}, `retry: "r" is typed where this key acts`},
		{map[string][]string{"edit": {"ctrl+shift+x"}}, `"ctrl+shift+x" is not a key`},
	} {
		k := DefaultGlobalKeys()
		before := k.Cancel.Keys()
		err := k.Rebind(c.keys, origin)
		var ke *KeyError
		if !errors.As(err, &ke) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.keys, err, c.want)
		}
		if strings.Join(k.Cancel.Keys(), ",") != strings.Join(before, ",") {
			t.Errorf("%v: a refused rebinding changed the keys", c.keys)
		}
	}
}

func TestActionNames(t *testing.T) {
	seen := map[string]string{}
	for _, nb := range DefaultGlobalKeys().All() {
		n := ActionName(nb.Name)
		if other, dup := seen[n]; dup {
			t.Fatalf("%s and %s are both %q", nb.Name, other, n)
		}
		seen[n] = nb.Name
	}
	if ActionName("Cancel") != "cancel_event" || ActionName("PageDown") != "page_down" {
		t.Fatal("names")
	}
}
