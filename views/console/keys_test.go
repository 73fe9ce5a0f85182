package console

import (
	"flag"
	"fmt"
	"os"
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

// screenKeys is one screen's keys as its ? help lists them.
type screenKeys struct {
	name   string
	groups [][]key.Binding
}

// walk opens every screen of the console the way a person does, in the
// demo's data, and records each one's keys.
func walk(t *testing.T) (*ui.GlobalKeys, []screenKeys) {
	t.Helper()
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
	ctx := viewtest.Context()
	now := func() time.Time { return viewtest.Now }
	app := ui.NewApp(ctx, Sections(views.Env{Client: client, Now: now, Local: time.UTC, JournalDir: t.TempDir(),
		Desks: views.Desks{Desk: "test"}, Transcribe: views.Transcribe{Transcriber: tr}}))
	d := uitest.New(t, app, 140, 44)

	var seen []screenKeys
	record := func(name string, want ...string) {
		t.Helper()
		d.Contains(want...)
		seen = append(seen, screenKeys{name: name, groups: app.Top().FullHelp()})
	}
	record("Events list", "63 loaded")
	d.Press("/")
	d.Type("Observability Summit")
	d.Press("enter", "enter")
	record("Event detail", "Overview")
	for _, sub := range []struct{ key, name, want string }{
		{"o", "Co-editors", "Co-editors of"},
		{"l", "Access links", "Access links of"},
		{"b", "Exhibitors", "Exhibitors of"},
		{"t", "Registration", "Register attendees"},
		{"h", "Check-in history", "Check-in history"},
	} {
		d.Press(sub.key)
		record(sub.name, sub.want)
		d.Press("esc")
	}
	d.Press("m")
	record("Emails", "Emails of")
	d.Press("enter")
	record("Email send status", "loaded")
	d.Press("esc", "esc", "i")
	record("Check-in: choose a session", "Whole event")
	// The desk is not opened here: its sender runs for real, which this
	// synchronous driver cannot wait out. Its keys do not depend on a run.
	desk := checkin.NewDesk(ctx, views.Env{Client: client, JournalDir: t.TempDir()}, "e", "Event", "", "")
	seen = append(seen, screenKeys{name: "Check-in desk", groups: desk.FullHelp()})
	d.Press("esc", "esc", "tab")
	record("Check-in section", "Check-in")
	d.Press("tab")
	record("Phone settings", "Phone settings")
	d.Press("enter")
	record("Phone setting detail", "J shows the raw JSON")
	d.Press("esc", "tab")
	record("Transcribe", "Transcribe")
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
	return b.String()
}
