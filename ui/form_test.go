package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

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

type fieldErr struct{ reasons [][2]string }

func (e fieldErr) Error() string             { return "invalid request" }
func (e fieldErr) FieldReasons() [][2]string { return e.reasons }

// A kept form stays on screen while it is sent and opens again, every
// value kept, when the request fails: the reason under the field it names,
// focused there; ctrl+s submits from any field; success closes it.
func TestKeptFormSurvivesAFailedSubmit(t *testing.T) {
	var name, country, note string
	submits := 0
	var d Dialog
	d.SetSize(80, 30)
	th := NewTheme(true, true)
	form := func() *Form {
		return NewKeptForm(th, "New event", func() tea.Cmd { submits++; return nil }, func(fs *Fields) []*huh.Group {
			return []*huh.Group{
				fs.Group(huh.NewInput().Key("name").Title("Name").Value(&name)),
				fs.Group(huh.NewInput().Key("blocked_countries").Title("Blocked countries").Value(&country),
					huh.NewInput().Key("note").Title("Note").Value(&note)),
			}
		})
	}
	d.ShowForm(form())
	typ := func(s string) {
		for _, r := range s {
			d.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
	view := func() string { return ansi.Strip(d.View("", 80, 30)) }
	typ("Launch")
	if !strings.Contains(view(), "page 1/2 · field 1/1") {
		t.Fatalf("no position:\n%s", view())
	}
	d.Update(uitest.Key("enter"))
	typ("XX")
	d.Update(uitest.Key("ctrl+s")) // from the middle of page 2
	if submits != 1 || !d.Sending() || !strings.Contains(view(), "Sending...") || !strings.Contains(view(), "XX") {
		t.Fatalf("submits %d, sending %v:\n%s", submits, d.Sending(), view())
	}
	if d.QuitReason() == "" {
		t.Fatal("quitting while a form is sent should ask")
	}
	if _, handled := d.Update(uitest.Key("x")); !handled || name != "Launch" {
		t.Fatal("keys reached the screen while the form was sent")
	}
	d.Settle(fieldErr{[][2]string{{"blocked_countries[0]", "XX is not a country code"}}}, "")
	v := view()
	for _, want := range []string{"Not saved: the reason is under the field marked ! (blocked_countries)",
		"! blocked_countries[0] XX is not a country code", "> XX", "page 2/2 · field 1/2"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the reopened form lacks %q:\n%s", want, v)
		}
	}
	d.Update(uitest.Key("ctrl+u"))
	typ("FR")
	if strings.Contains(view(), "! blocked_countries") {
		t.Fatalf("the mark stayed on a changed value:\n%s", view())
	}
	d.Update(uitest.Key("ctrl+s"))
	if submits != 2 || country != "FR" || name != "Launch" {
		t.Fatalf("submits %d, %q %q", submits, name, country)
	}
	d.Settle(nil, "")
	if d.Open() {
		t.Fatal("a form that was saved stays open")
	}
	// A reason that names no field goes to the field the screen names.
	d.ShowForm(form())
	d.Update(uitest.Key("ctrl+s"))
	d.Settle(errors.New("error 261203: each join link needs a unique name"), "name")
	if v := view(); !strings.Contains(v, "! error 261203") || !strings.Contains(v, "page 1/2") {
		t.Fatalf("the code's reason is not at the name:\n%s", v)
	}
}

// ctrl+s on a page with a refused value stops there, focused on the first
// field its check refuses, not on the page's last field.
func TestSubmitFromAnyFieldStopsAtTheFirstRefusal(t *testing.T) {
	var name, tagline string
	desc := "Two hours of robots"
	required := func(v string) error {
		if v == "" {
			return errors.New("required")
		}
		return nil
	}
	submitted := false
	f := NewKeptForm(NewTheme(true, true), "New", func() tea.Cmd { submitted = true; return nil }, func(fs *Fields) []*huh.Group {
		return []*huh.Group{fs.Group(
			huh.NewInput().Key("name").Title("Name").Value(&name).Validate(required),
			huh.NewInput().Key("tagline").Title("Tagline").Value(&tagline),
			huh.NewInput().Key("description").Title("Description").Value(&desc).Validate(required),
		)}
	})
	f.SetSize(80, 30)
	f.Init()
	f.Update(uitest.Key("ctrl+s")) // the name is empty
	if submitted {
		t.Fatal("submitted with an empty name")
	}
	if got := f.form.GetFocusedField().GetKey(); got != "name" {
		t.Fatalf("focus on %q, want the name", got)
	}
	f.Update(tea.KeyPressMsg{Code: 'N', Text: "N"})
	if _, done := f.Update(uitest.Key("ctrl+s")); !done || !submitted || name != "N" || desc != "Two hours of robots" {
		t.Fatalf("done %v, submitted %v, %q %q", done, submitted, name, desc)
	}
}

// The form says by the focused field what was not typed into it, and the
// note goes once the user moves on.
func TestAFormSaysWhatWasNotTyped(t *testing.T) {
	var zone, name string
	f := NewForm(NewTheme(true, true), "New event", nil,
		huh.NewGroup(huh.NewInput().Title("Name").Value(&name), huh.NewInput().Title("Time zone").Value(&zone)))
	f.SetSize(80, 24)
	f.Init()
	f.Update(uitest.Key("enter"))
	f.Update(NotTypedMsg{Text: "Europe/Lisbon\x1b[2J"})
	view := ansi.Strip(f.View())
	zoneAt, noteAt := strings.Index(view, "Time zone"), strings.Index(view, "NOT TYPED")
	if zoneAt < 0 || noteAt < zoneAt || !strings.Contains(uitest.Words(view), `17 characters came at once`) ||
		!strings.Contains(view, "Europe/Lisbon") || strings.Contains(view, "\x1b[2J") {
		t.Fatalf("the note is not under the field, or not sanitised:\n%s", view)
	}
	if zone != "" {
		t.Fatalf("typed %q", zone)
	}
	f.Update(uitest.Key("tab"))
	if strings.Contains(ansi.Strip(f.View()), "NOT TYPED") {
		t.Fatal("the note stayed after the user moved on")
	}
}

// A form of fields says where the user is and that ctrl+s submits, as a
// kept form does, and closes when submitted.
func TestFieldsFormSaysWhereTheUserIs(t *testing.T) {
	var a, b, c, d string
	submitted := false
	f := NewFieldsForm(NewTheme(true, true), "Walk-in", func() tea.Cmd { submitted = true; return nil },
		huh.NewInput().Title("A").Value(&a), huh.NewInput().Title("B").Value(&b),
		huh.NewInput().Title("C").Value(&c), huh.NewInput().Title("D").Value(&d))
	f.SetSize(80, 24)
	f.Init()
	if v := ansi.Strip(f.View()); !strings.Contains(v, "field 1/4 · ctrl+s submits") {
		t.Fatalf("no place in the form:\n%s", v)
	}
	f.Update(uitest.Key("enter"))
	if v := ansi.Strip(f.View()); !strings.Contains(v, "field 2/4") {
		t.Fatalf("the place does not follow the focus:\n%s", v)
	}
	if _, done := f.Update(uitest.Key("ctrl+s")); !done || !submitted {
		t.Fatal("ctrl+s submits the form")
	}
}
