package console

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/checkin"
	"github.com/evdesk/evdesk/views/viewtest"
)

// screenKeys is one screen's keys as its ? help lists them, and, when the
// walk probes, what pressing each key did.
type screenKeys struct {
	name   string
	groups [][]key.Binding
	shell  []key.Binding   // the shell's keys, as the ? help lists them there
	acted  map[string]bool // key name: pressing it did something
	typing bool            // a field has the keyboard: characters are typed
}

// stop is a screen of the walk: the keys that lead to it from the one
// before, and what it shows once there.
type stop struct {
	name string
	keys []string // key names; "type:TEXT" types TEXT
	want []string
	// opensDesk are keys that open a check-in desk here: its sender runs
	// for real, which this synchronous driver cannot wait out, so they
	// are not pressed (views/checkin presses them).
	opensDesk []string
}

// stops are the console's screens, in the order a person reaches them.
var stops = []stop{
	{"Events list", nil, []string{"63 loaded"}, nil},
	{"Event detail", []string{"/", "type:Observability Summit", "enter", "enter"}, []string{"Overview"}, nil},
	{"Co-editors", []string{"o"}, []string{"Co-editors of"}, nil},
	{"Access links", []string{"esc", "l"}, []string{"Access links of"}, nil},
	{"Exhibitors", []string{"esc", "b"}, []string{"Exhibitors of"}, nil},
	{"Registration", []string{"esc", "t"}, []string{"Register attendees"}, nil},
	{"Check-in history", []string{"esc", "h"}, []string{"Check-in history"}, nil},
	{"Emails", []string{"esc", "m"}, []string{"Emails of"}, nil},
	{"Email send status", []string{"enter"}, []string{"loaded"}, nil},
	{"Check-in: choose a session", []string{"esc", "esc", "i"}, []string{"Whole event"}, []string{"enter", "ctrl+j"}},
	{"Check-in section", []string{"esc", "esc", "tab"}, []string{"Check-in"}, []string{"enter", "ctrl+j"}},
	{"Phone settings", []string{"tab"}, []string{"Phone settings"}, nil},
	{"Phone setting detail", []string{"enter"}, []string{"J shows the raw JSON"}, nil},
	{"Transcribe", []string{"esc", "tab"}, []string{"Transcribe"}, nil},
}

// walk opens every screen of the console the way a person does, in the
// demo's data, and records each one's keys. Probing, it presses every key
// on each screen too (probeAll), each screen in a console of its own, so
// what one screen's keys changed never leads the walk astray.
func walk(t *testing.T, probing ...bool) (*ui.GlobalKeys, []screenKeys) {
	t.Helper()
	probe := len(probing) > 0 && probing[0]
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // screens read local files (tier names)
	srv := viewtest.NewServer(t)
	client := srv.Client(t, sim.DemoToken)
	jwt, err := auth.NewJWTSource(auth.AICredentials{APIKey: sim.DemoAIKey, APISecret: sim.DemoAISecret})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := api.NewTranscriber(srv.URL, jwt, api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return viewtest.Now }
	var ctx *ui.Context
	var app *ui.App
	var d *uitest.Driver
	start := func() {
		ctx = viewtest.Context()
		app = ui.NewApp(ctx, Sections(views.Env{Client: client, Now: now, Local: time.UTC, JournalDir: t.TempDir(),
			Desks: views.Desks{Desk: "test"}, Transcribe: views.Transcribe{Transcriber: tr}}))
		d = uitest.New(t, app, 140, 44)
	}
	follow := func(keys []string) {
		for _, k := range keys {
			if text, ok := strings.CutPrefix(k, "type:"); ok {
				d.Type(text)
				continue
			}
			d.Press(k)
		}
	}
	start()
	var seen []screenKeys
	for i, st := range stops {
		reach := func() { // a console of its own, walked to this screen
			start()
			for _, before := range stops[:i+1] {
				follow(before.keys)
			}
			d.Contains(st.want...)
		}
		if probe && i > 0 {
			reach()
		} else {
			follow(st.keys)
			d.Contains(st.want...)
		}
		sk := screenKeys{name: st.name, groups: app.Top().FullHelp(), shell: app.ShellKeys()}
		if c, ok := app.Top().(ui.InputCapturer); ok && c.CapturingInput() {
			sk.typing = true
		}
		if probe {
			sk.acted = probeAll(t, func() (*uitest.Driver, *ui.App) { return d, app }, reach, ctx.Keys, st.opensDesk)
		}
		seen = append(seen, sk)
		if st.name == "Check-in: choose a session" {
			// The desk is not opened here: its sender runs for real, which
			// this synchronous driver cannot wait out (views/checkin probes
			// it). Its keys do not depend on a run.
			desk := checkin.NewDesk(ctx, views.Env{Client: client, JournalDir: t.TempDir()}, "e", "Event", "", "")
			seen = append(seen, screenKeys{name: "Check-in desk", groups: desk.FullHelp()})
		}
	}
	return ctx.Keys, seen
}

// TestOneKeyMeansOneThing walks every screen and fails when a screen acts
// on a key the console's vocabulary does not give that meaning: a key
// outside the vocabulary is the start of one key meaning two things.
func TestOneKeyMeansOneThing(t *testing.T) {
	vocab, screens := walk(t)
	owner := map[string]string{}
	for _, nb := range vocab.All() {
		for _, k := range nb.Binding.Keys() {
			owner[k] = nb.Name
		}
	}
	for _, s := range screens {
		for _, g := range s.groups {
			for _, b := range g {
				for _, k := range b.Keys() {
					if owner[k] == "" {
						t.Errorf("%s: %q (%s) is not a key of the vocabulary (ui.GlobalKeys)", s.name, k, b.Help().Desc)
					}
				}
			}
		}
	}
}

// TestReadmeKeysAreCurrent checks the README's key section against the
// screens' own key tables; go test ./views/console -update rewrites it.
func TestReadmeKeysAreCurrent(t *testing.T) {
	vocab, screens := walk(t)
	got := cheatsheet(vocab, screens)
	const path, begin, end = "../../README.md", "<!-- keys:begin -->\n", "<!-- keys:end -->"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", strings.TrimSpace(begin), end)
	}
	current := readme[i+len(begin) : j]
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(readme[:i+len(begin)]+got+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if current != got {
		t.Errorf("README.md's keys are stale: run go test ./views/console -update\n--- want ---\n%s", got)
	}
}

// cheatsheet writes the keys of the shell and of every screen as Markdown
// tables.
func cheatsheet(vocab *ui.GlobalKeys, screens []screenKeys) string {
	var b strings.Builder
	lists := []key.Binding{vocab.Up, vocab.Down, vocab.PageUp, vocab.PageDown, vocab.Home, vocab.End,
		vocab.Filter, vocab.Sort, vocab.Reverse}
	listKey := map[string]bool{}
	for _, k := range lists {
		listKey[k.Help().Key] = true
	}
	table := func(title string, groups [][]key.Binding) {
		fmt.Fprintf(&b, "**%s**\n\n| key | what it does |\n|---|---|\n", title)
		seen := map[string]bool{}
		for _, g := range groups {
			for _, k := range g {
				h := k.Help()
				if h.Key == "" || seen[h.Key+h.Desc] || (title != "In every list" && listKey[h.Key]) {
					continue
				}
				seen[h.Key+h.Desc] = true
				fmt.Fprintf(&b, "| `%s` | %s |\n", strings.ReplaceAll(h.Key, "|", "\\|"), h.Desc)
			}
		}
		b.WriteString("\n")
	}
	table("Everywhere", append(vocab.FullHelp(), []key.Binding{vocab.HelpAnywhere, vocab.Interrupt, vocab.ToDesk}))
	table("In every list", [][]key.Binding{lists})
	for _, s := range screens {
		table(s.name, s.groups)
	}
	b.WriteString("**Action names**, to rebind in a profile's `[keys]` table\n\n| action | default key | where |\n|---|---|---|\n")
	for _, nb := range vocab.All() {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", ui.ActionName(nb.Name),
			strings.ReplaceAll(nb.Binding.Help().Key, "|", "\\|"), ui.ScopeOf(nb.Name))
	}
	b.WriteString("\n")
	return b.String()
}

// listKeys are the keys every list has: the table answers them, and
// whether one moves anything depends on where the cursor is.
func listKeys(v *ui.GlobalKeys) map[string]bool {
	out := map[string]bool{}
	for _, b := range []key.Binding{v.Up, v.Down, v.PageUp, v.PageDown, v.Home, v.End, v.Filter, v.Sort, v.Reverse} {
		for _, k := range b.Keys() {
			out[k] = true
		}
	}
	return out
}

// candidates is every key a person may press: the vocabulary's keys, every
// printable character, the function keys and the control chords.
func candidates(v *ui.GlobalKeys) []string {
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, nb := range v.All() {
		for _, k := range nb.Binding.Keys() {
			add(k)
		}
	}
	for r := '!'; r <= '~'; r++ {
		add(string(r))
	}
	for _, k := range []string{"space", "enter", "tab", "shift+tab", "esc", "backspace", "delete", "left", "right"} {
		add(k)
	}
	for i := 1; i <= 12; i++ {
		add(fmt.Sprintf("f%d", i))
	}
	for r := 'a'; r <= 'z'; r++ {
		add("ctrl+" + string(r))
	}
	return out
}

// probeAll presses every candidate key on the screen on top, one at a
// time, notes whether it did anything (the screen changed, a screen,
// section or popup opened, a toast, a call or a quit), and puts the
// console back as it was after each.
func probeAll(t *testing.T, now func() (*uitest.Driver, *ui.App), reach func(), v *ui.GlobalKeys, unpressed []string) map[string]bool {
	t.Helper()
	lists := listKeys(v)
	acted := map[string]bool{}
	for _, name := range candidates(v) {
		if lists[name] {
			continue
		}
		if slices.Contains(unpressed, name) {
			acted[name] = true
			continue
		}
		d, app := now()
		content := func() string { // the view without the toast and status lines
			lines := strings.Split(d.View(), "\n")
			return strings.Join(lines[:max(0, len(lines)-2)], "\n")
		}
		before, view := app.Activity(), content()
		d.Press(name)
		after := app.Activity()
		acted[name] = content() != view || after != before
		// Back as it was: popups closed, the section and the screen again,
		// or, where the screen has gone, the walk to it again.
		for i := 0; app.Activity().Popups > 0 && i < 4; i++ {
			d.Press("esc")
		}
		if app.Activity().Section != before.Section {
			d.Send(ui.SectionMsg{Name: before.Section})
		}
		for i := 0; app.Activity().Depth > before.Depth && i < 8; i++ {
			d.Send(ui.PopMsg{})
		}
		if c, ok := app.Top().(ui.InputCapturer); ok && c.CapturingInput() {
			d.Press("esc") // a dialog or a filter the key opened
		}
		if app.Top() != before.Top || app.Activity().Popups > 0 {
			reach()
		}
	}
	return acted
}

// TestHelpListsExactlyTheKeysThatAct presses every key on every screen and
// compares what acted with the screen's ? help (its keys and the shell's
// there): a key that acts is listed, once, with one meaning (the clash
// test: a screen's keys and the shell's never share a key), and a listed
// binding acts by one of
// its keys at least (1-9 choose among the views there are; a why-not
// counts, as the key answers). The list keys are the table's and left
// out; where a field has the keyboard, what types is typing. Pressing
// some 150 keys on 14 screens, each in a console of its own walked to it,
// takes seconds: .ci/run sets EVDESK_KEY_PROBE.
func TestHelpListsExactlyTheKeysThatAct(t *testing.T) {
	if os.Getenv("EVDESK_KEY_PROBE") == "" {
		t.Skip("set EVDESK_KEY_PROBE=1 to press every key on every screen (.ci/run does)")
	}
	vocab, screens := walk(t, true)
	lists := listKeys(vocab)
	for _, s := range screens {
		if s.acted == nil {
			continue
		}
		listed := map[string]bool{}
		meaning := map[string]string{}
		var idle, clash []string
		for _, g := range append(s.groups, s.shell) {
			for _, b := range g {
				if !b.Enabled() {
					continue
				}
				any := false
				for _, k := range b.Keys() {
					if m, ok := meaning[k]; ok && m != b.Help().Desc {
						clash = append(clash, fmt.Sprintf("%s is both %q and %q", k, m, b.Help().Desc))
					}
					meaning[k] = b.Help().Desc
					listed[k] = true
					any = any || s.acted[k] || lists[k]
				}
				if !any {
					idle = append(idle, b.Help().Key+" ("+b.Help().Desc+")")
				}
			}
		}
		var acts []string
		for k, did := range s.acted {
			if did && !listed[k] && !(s.typing && typed(k)) {
				acts = append(acts, k)
			}
		}
		slices.Sort(acts)
		slices.Sort(idle)
		if len(acts) > 0 {
			t.Errorf("%s: these keys act but its help does not list them: %s", s.name, strings.Join(acts, " "))
		}
		if len(idle) > 0 {
			t.Errorf("%s: its help lists keys that do nothing there: %s", s.name, strings.Join(idle, ", "))
		}
		if len(clash) > 0 { // one key, one meaning on a screen, the shell's keys included
			t.Errorf("%s: %s", s.name, strings.Join(clash, "; "))
		}
	}
}

// typed reports whether a key is typing in a field: a character, or a key
// that moves in the text or the form.
func typed(k string) bool {
	switch k {
	case "space", "enter", "ctrl+j", "tab", "shift+tab", "backspace", "delete", "left", "right":
		return true
	}
	return len([]rune(k)) == 1
}
