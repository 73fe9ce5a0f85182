package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// cannedFactory is a factory whose session talks to a handler of the
// test's making: a command runs whole, flags to printed output, with no
// simulator booted.
func cannedFactory(t *testing.T, h http.HandlerFunc) (*Factory, func() (string, string)) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ios, _, out, errOut := TestStreams()
	f := NewFactory(ios)
	f.OpenSession = func(context.Context, rootFlags, bool) (*session, error) {
		c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken("t"))
		if err != nil {
			return nil, err
		}
		return &session{client: c, profile: "test"}, nil
	}
	return f, func() (string, string) { _ = ios.Flush(); return out.String(), errOut.String() }
}

// eventsPage answers every request with one page of events.
func eventsPage(names ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var items []string
		if r.URL.Query().Get("event_status_type") == api.ListUpcoming {
			for i, n := range names {
				name, _ := json.Marshal(n)
				items = append(items, fmt.Sprintf(`{"event_id":"e%d","name":%s,"event_type":"SIMPLE_EVENT","attendance_type":"virtual","start_time":"2027-03-14T09:30:00Z"}`, i+1, name))
			}
		}
		fmt.Fprintf(w, `{"events":[%s],"total_records":%d}`, strings.Join(items, ","), len(items))
	}
}

func TestExportFormatsWithoutASimulator(t *testing.T) {
	long := strings.Repeat("a very long event name ", 12)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"table keeps every character", nil, long},
		{"csv: snake-case header, raw values, full dates", []string{"-o", "csv"},
			"id,name,type,listing,attendance,start_utc\ne1,Launch,SIMPLE_EVENT,upcoming,virtual,2027-03-14T09:30:00Z\n"},
		{"jq: strings raw, one a line", []string{"--jq", ".[].name"}, "Launch\n" + long + "\n"},
		{"jq: other values as JSON", []string{"-q", "map(.event_id)"}, "[\"e1\",\"e2\"]\n"},
		{"template with helpers", []string{"-t", `{{range .}}{{.event_id}} {{timefmt "2006-01-02" .start_time}} {{upper .listing}}{{"\n"}}{{end}}`},
			"e1 2027-03-14 UPCOMING\ne2 2027-03-14 UPCOMING\n"},
		{"template join and pluck", []string{"-t", `{{join "," (pluck "event_id" .)}}`}, "e1,e2"},
		// JSON leaves an empty field out: a template prints it as nothing,
		// in loops and branches too, never "<no value>".
		{"template: a missing key is blank", []string{"-t", `{{range .}}{{.event_id}}={{.tagline}}{{if .name}}/{{.nope}}{{end}};{{end}}`},
			"e1=/;e2=/;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"Launch", long}
			if strings.HasPrefix(c.name, "csv") {
				names = names[:1]
			}
			f, output := cannedFactory(t, eventsPage(names...))
			err := f.Execute(context.Background(), append([]string{"events", "list", "--status", "upcoming"}, c.args...))
			out, _ := output()
			if err != nil || !strings.Contains(out, c.want) {
				t.Fatalf("%v\n got %q\nwant %q", err, out, c.want)
			}
			if strings.Contains(out, "…") {
				t.Errorf("a cell was cut: %q", out)
			}
		})
	}
}

// TestExportRefusesFlagMistakes: each is a usage error, exit 2, named.
func TestExportRefusesFlagMistakes(t *testing.T) {
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"jq with a table":    {[]string{"-o", "table", "--jq", "."}, "leave -o out or use -o json, not -o table"},
		"jq and template":    {[]string{"--jq", ".", "--template", "x"}, "--jq and --template do not go together"},
		"broken jq":          {[]string{"--jq", ".[] |"}, `--jq ".[] |"`},
		"broken template":    {[]string{"--template", "{{.x"}, "--template:"},
		"format not offered": {[]string{"-o", "yaml"}, `"yaml" is not an output format here; use table, json or csv`},
	} {
		t.Run(name, func(t *testing.T) {
			f, _ := cannedFactory(t, eventsPage("Launch"))
			err := f.Execute(context.Background(), append([]string{"events", "list"}, c.args...))
			if err == nil || !strings.Contains(err.Error(), c.want) || exitCode(context.Background(), err) != exitUsage {
				t.Fatalf("%v (exit %d), want %q and exit 2", err, exitCode(context.Background(), err), c.want)
			}
		})
	}
}

// TestExportHostileNamesStayText: a server's escape sequences reach a
// terminal through --jq and --template only as text.
func TestExportHostileNamesStayText(t *testing.T) {
	hostile := "Launch\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u202e"
	for _, args := range [][]string{{"--jq", ".[].name"}, {"--template", "{{range .}}{{.name}}{{end}}"}, {"-o", "csv"}, nil} {
		f, output := cannedFactory(t, eventsPage(hostile))
		if err := f.Execute(context.Background(), append([]string{"events", "list", "--status", "upcoming"}, args...)); err != nil {
			t.Fatal(err)
		}
		out, _ := output()
		if strings.ContainsAny(out, "\x1b\x07\u202e") || !strings.Contains(out, "Launch") {
			t.Errorf("%v: %q", args, out)
		}
	}
}

// TestExitCodes runs one command line for each documented status, as main
// runs it.
func TestExitCodes(t *testing.T) {
	t.Run("0 success", func(t *testing.T) {
		if code, _, _ := run1(t, "version"); code != exitOK {
			t.Fatalf("exit %d", code)
		}
	})
	t.Run("1 failure", func(t *testing.T) {
		simServer(t)
		if code, _, stderr := run1(t, "events", "get", "no-such-event"); code != exitFailed || !strings.Contains(stderr, "not found") {
			t.Fatalf("exit %d %s", code, stderr)
		}
	})
	t.Run("2 usage", func(t *testing.T) {
		for _, args := range [][]string{{"events", "list", "--bogus"}, {"events", "get"}, {"events", "list", "--status", "someday"},
			{"no-such-command"}} {
			if code, _, stderr := run1(t, args...); code != exitUsage {
				t.Errorf("%v: exit %d %s", args, code, stderr)
			}
		}
	})
	t.Run("3 interrupted", func(t *testing.T) {
		isolateXDG(t)
		arrived := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-r.Context().Done()
		}))
		t.Cleanup(srv.Close)
		t.Setenv(config.EnvBaseURL, srv.URL+"/v2")
		t.Setenv(config.EnvToken, sim.DemoToken)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-arrived; cancel() }() // ctrl+c once the request is out
		ios, _, _, errOut := TestStreams()
		if code := Run(ctx, NewFactory(ios), []string{"events", "list"}); code != exitInterrupted || errOut.String() != "evdesk: list events: interrupted\n" {
			t.Fatalf("exit %d %q", code, errOut)
		}
	})
	t.Run("4 sign-in needed", func(t *testing.T) {
		isolateXDG(t) // no login, no token
		t.Setenv(config.EnvBaseURL, "http://127.0.0.1:9/v2")
		if code, _, stderr := run1(t, "events", "list"); code != exitSignIn || !strings.Contains(stderr, "no credentials") {
			t.Fatalf("not logged in: exit %d %s", code, stderr)
		}
		simServer(t)
		t.Setenv(config.EnvToken, "a-token-the-server-does-not-know")
		if code, _, stderr := run1(t, "events", "list"); code != exitSignIn {
			t.Fatalf("refused token: exit %d %s", code, stderr)
		}
	})
}

func TestHelpTopics(t *testing.T) {
	code, out, _ := run1(t, "help", "exit-codes")
	for _, want := range []string{"0  success", "1  the command failed", "2  a usage error", "3  interrupted", "4  sign-in needed"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit-codes lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run1(t, "help", "environment")
	for _, v := range config.EnvVars {
		if code != 0 || !strings.Contains(out, v.Name) {
			t.Errorf("environment lacks %s:\n%s", v.Name, out)
		}
	}
}

// TestEveryListTakesCSV: the list commands offer -o csv, and every command
// with -o json offers --jq and --template.
func TestEveryListTakesCSV(t *testing.T) {
	ios, _, _, _ := TestStreams()
	root := NewRootCmd(NewFactory(ios))
	for _, path := range []string{"events list", "links list", "checkin list", "coeditors list", "emails types",
		"emails status", "ticket-types", "exhibitors list", "phone settings"} {
		c, _, err := root.Find(strings.Fields(path))
		if err != nil {
			t.Fatal(err)
		}
		if f := c.Flag("output"); f == nil || !strings.Contains(f.Usage, "csv") {
			t.Errorf("%s: no -o csv", path)
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if f := c.Flags().Lookup("output"); f != nil && strings.Contains(f.Usage, "json") &&
			(c.Flags().Lookup("jq") == nil || c.Flags().Lookup("template") == nil) {
			t.Errorf("%s: -o json without --jq and --template", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
