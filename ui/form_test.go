package ui

import (
	"fmt"
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

// The form styles are built once per theme (huh asks for them per option
// drawn), and a theme replaced in place (the terminal's background became
// known) builds its own.
func TestFormStylesFollowTheTheme(t *testing.T) {
	th := NewTheme(true, false)
	dark := th.FormStyles()
	if th.FormStyles() != dark {
		t.Fatal("the styles were built again for the same theme")
	}
	*th = *NewTheme(false, false)
	light := th.FormStyles()
	if light == dark || light.Focused.Title.GetForeground() != th.Title.GetForeground() {
		t.Fatalf("a replaced theme kept the old form styles: %v", light.Focused.Title.GetForeground())
	}
}

// BenchmarkFormViewManyOptions moves through a select of 40 options (as
// the session and tier pickers have) and draws the form.
//
//	go test ./ui -run '^$' -bench FormViewManyOptions -benchmem
func BenchmarkFormViewManyOptions(b *testing.B) {
	var choice string
	opts := make([]huh.Option[string], 40)
	for i := range opts {
		opts[i] = huh.NewOption(fmt.Sprintf("Session %02d", i), fmt.Sprint(i))
	}
	f := NewForm(NewTheme(true, false), "Sessions", func() tea.Cmd { return nil },
		huh.NewGroup(huh.NewSelect[string]().Title("Session").Options(opts...).Value(&choice)))
	f.SetSize(100, 60)
	f.Init()
	down, up := uitest.Key("down"), uitest.Key("up")
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			f.Update(down)
		} else {
			f.Update(up)
		}
		_ = f.View()
	}
}
