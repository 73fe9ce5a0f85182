package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/ui/uitest"
)

// A key typed right after Enter, before the program has run anything,
// belongs to the next field.
func TestKeysAfterEnterLandInTheNextField(t *testing.T) {
	var name, host string
	submitted := false
	f := NewForm(NewTheme(true, true), "New event", func() tea.Cmd { submitted = true; return nil },
		huh.NewGroup(huh.NewInput().Title("Name").Value(&name), huh.NewInput().Title("Host").Value(&host)))
	f.SetSize(80, 24)
	f.Init()
	typ := func(s string) {
		for _, r := range s {
			f.Update(tea.KeyPressMsg{Code: r, Text: string(r)}) // commands deliberately not run
		}
	}
	typ("Fast Typist Event")
	f.Update(uitest.Key("enter"))
	typ("Dana")
	if _, done := f.Update(uitest.Key("enter")); !done || !submitted {
		t.Fatal("enter on the last field submits")
	}
	if name != "Fast Typist Event" || host != "Dana" {
		t.Fatalf("name %q, host %q", name, host)
	}
}
