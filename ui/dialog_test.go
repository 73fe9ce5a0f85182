package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

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

// The replace question reads whole at 80 columns however long the folder
// is: the file is named by its base name, and the folder has a line of its
// own (a test that looked for the question beside a temporary folder failed
// whenever the folder's length made the question wrap).
func TestReplaceQuestionKeepsItsWordsTogether(t *testing.T) {
	theme := NewTheme(true, true)
	root := t.TempDir()
	for n := 1; n <= 90; n += 7 {
		dir := filepath.Join(root, strings.Repeat("d", n))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "transcript.srt")
		if err := os.WriteFile(path, []byte("mine"), 0o600); err != nil {
			t.Fatal(err)
		}
		var d Dialog
		d.SetSize(80, 24)
		if cmd := d.Replace(theme, path, func() tea.Cmd { t.Fatal("wrote without asking"); return nil }); cmd != nil || !d.Open() {
			t.Fatal("an existing file should be asked about")
		}
		view := uitest.Words(d.View("", 80, 24))
		if !strings.Contains(ansi.Strip(d.View("", 80, 24)), "transcript.srt already exists. Replace it?") {
			t.Fatalf("folder of %d: the question wraps:\n%s", n, d.View("", 80, 24))
		}
		if !strings.Contains(view, "(in "+filepath.Join(root, "d")) {
			t.Fatalf("folder of %d: the folder is not named:\n%s", n, d.View("", 80, 24))
		}
	}
}

// Esc on a form with changes asks before it throws them away (issue 20
// item 4: nothing typed is lost): no, esc again and a stray enter go back
// to the form with its text; y discards; esc on an untouched form closes
// it at once.
func TestEscOnAFormWithChangesAsksFirst(t *testing.T) {
	theme := NewTheme(true, true)
	var name string
	open := func(d *Dialog) {
		d.ShowForm(NewForm(theme, "Walk-in", nil, huh.NewGroup(huh.NewInput().Title("First name").Value(&name))))
	}
	var d Dialog
	d.SetSize(80, 24)
	open(&d)
	d.Update(uitest.Key("esc"))
	if d.Open() {
		t.Fatal("esc on an untouched form should close it")
	}
	open(&d)
	for _, r := range "Ada" {
		d.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	for _, answer := range []string{"esc", "n", "enter"} {
		d.Update(uitest.Key("esc"))
		if !d.Open() || !d.Asking() || !strings.Contains(ansi.Strip(d.View("", 80, 24)), "Discard what you typed in Walk-in?") {
			t.Fatalf("esc on a form with changes should ask; view:\n%s", ansi.Strip(d.View("", 80, 24)))
		}
		if d.QuitReason() == "" {
			t.Fatal("the form waiting under the question is work ctrl+c would lose")
		}
		d.Update(uitest.Key(answer))
		if v := ansi.Strip(d.View("", 80, 24)); !strings.Contains(v, "Ada") || !strings.Contains(v, "First name") {
			t.Fatalf("%s to the question should go back to the form with its text:\n%s", answer, v)
		}
	}
	d.Update(uitest.Key("esc"))
	d.Update(uitest.Key("y"))
	if d.Open() {
		t.Fatal("y should discard the form")
	}
}
