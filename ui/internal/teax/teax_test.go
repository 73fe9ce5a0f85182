package teax

import (
	"os"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// TestKnowsTheseVersions fails on a Bubble Tea or bubbles this package was
// not checked against (the versions the module requires, in go.mod):
// read the internals it relies on in the new version, fix what changed,
// then put the version in Known.
func TestKnowsTheseVersions(t *testing.T) {
	mod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]string{}
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 {
			if _, watched := Known[f[0]]; watched {
				required[f[0]] = f[1]
			}
		}
		if strings.HasPrefix(strings.TrimSpace(line), "replace") {
			for path := range Known {
				if strings.Contains(line, path) {
					t.Errorf("go.mod replaces %s: check its internals, then say so here", path)
				}
			}
		}
	}
	for path, want := range Known {
		switch got := required[path]; got {
		case want:
		case "":
			t.Errorf("go.mod does not require %s any more: drop it from Known", path)
		default:
			t.Errorf("go.mod requires %s %s; ui/internal/teax knows its internals at %s only", path, got, want)
		}
	}
}

func TestSequenceUnpacksTeaSequence(t *testing.T) {
	a := func() tea.Msg { return "a" }
	b := func() tea.Msg { return "b" }
	cmds, ok := Sequence(tea.Sequence(a, b)())
	if !ok || len(cmds) != 2 || cmds[0]() != "a" || cmds[1]() != "b" {
		t.Fatalf("tea.Sequence's message not unpacked: %v %d", ok, len(cmds))
	}
	if _, ok := Sequence(tea.BatchMsg{a, b}); ok {
		t.Fatal("a batch is not a sequence")
	}
	if _, ok := Sequence("text"); ok {
		t.Fatal("a string is not a sequence")
	}
}

func TestProgramMessages(t *testing.T) {
	for _, m := range []tea.Msg{tea.QuitMsg{}, tea.KeyPressMsg{}, tea.WindowSizeMsg{}, tea.SetClipboard("x")()} {
		if !ProgramMsg(m) {
			t.Errorf("%T is the program's", m)
		}
	}
	if ProgramMsg(struct{}{}) || ProgramMsg(nil) {
		t.Fatal("a message of ours is not the program's")
	}
}

// A text input's blink, made anywhere, is known by the sample's code; a
// command of ours is not.
func TestLibraryTimersAreKnownByTheirCode(t *testing.T) {
	codes := map[uintptr]bool{}
	for _, c := range LibraryTimers() {
		codes[CodeOf(c)] = true
	}
	in := textinput.New()
	blink := in.Focus()
	if blink == nil || !codes[CodeOf(blink)] {
		t.Fatal("a focused text input's blink is not known")
	}
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	if !codes[CodeOf(c.Blink())] {
		t.Fatal("a cursor's blink is not known")
	}
	if codes[CodeOf(func() tea.Msg { return nil })] || codes[CodeOf(tea.Tick(time.Second, nil))] {
		t.Fatal("a command that is not a blink was taken for one")
	}
}
