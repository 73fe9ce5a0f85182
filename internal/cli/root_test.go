package cli

import (
	"bytes"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/config"
)

func TestEveryCommandIsRegistered(t *testing.T) {
	root := NewRootCmd(NewFactory(System()))
	for _, path := range []string{"desk", "checkin", "checkin list", "events list", "events get", "coeditors add",
		"emails status", "phone settings", "phone check", "phone compare", "links create", "ticket-types", "register",
		"exhibitors create", "transcribe", "sim", "login", "logout", "auth status", "auth token", "config set-profile", "version"} {
		words := strings.Fields(path)
		if c, _, err := root.Find(words); err != nil || c.Name() != words[len(words)-1] {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// TestRunPrintsTheErrorSanitisedAndExits runs as main does: a server's
// error message, escape sequences and all, reaches standard error only as
// plain text, and the status is 1.
func TestRunPrintsTheErrorSanitisedAndExits(t *testing.T) {
	isolateXDG(t)
	s := sim.New(sim.Options{NoRateLimit: true})
	srv := httptest.NewServer(hostile.Wrap(s, hostile.Options{Inject: true}))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	t.Setenv(config.EnvBaseURL, srv.URL+"/v2")
	t.Setenv(config.EnvToken, sim.DemoToken)

	ios, _, out, errOut := TestStreams()
	code := Run(context.Background(), NewFactory(ios), []string{"events", "get", "no-such-event"})
	if code != 1 || out.Len() != 0 || !strings.HasPrefix(errOut.String(), "evdesk: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if strings.ContainsRune(errOut.String(), 0x1b) || !strings.Contains(errOut.String(), "Event not found.") ||
		!strings.Contains(errOut.String(), "RED") {
		t.Fatalf("stderr %q: want the injected text without its escape sequences", errOut)
	}

	ios, _, _, errOut = TestStreams()
	if code := Run(context.Background(), NewFactory(ios), []string{"no-such-command"}); code != exitUsage ||
		!strings.HasPrefix(errOut.String(), "evdesk: unknown command \"no-such-command\" for \"evdesk\"\n\nUsage:") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// TestTimeoutSaysWhatItWaitedFor points a command at a server that never
// answers: --timeout ends it and says so.
func TestTimeoutSaysWhatItWaitedFor(t *testing.T) {
	isolateXDG(t)
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(srv.Close)
	t.Setenv(config.EnvBaseURL, srv.URL+"/v2")
	t.Setenv(config.EnvToken, sim.DemoToken)
	_, _, err := execute(t, "--timeout", "100ms", "events", "list")
	if err == nil || !strings.HasPrefix(err.Error(), "the command did not finish within 100ms (--timeout; 0 means no limit): gave up while waiting for: ") {
		t.Fatalf("error %v", err)
	}
}

// TestServersRunUntilInterrupted: the commands that serve or run a desk
// or the console are not ended by --timeout (the simulator was, after the
// default five minutes, taking the desks pointed at it offline).
func TestServersRunUntilInterrupted(t *testing.T) {
	root := NewRootCmd(NewFactory(System()))
	for _, path := range [][]string{{"sim"}, {"webhooks", "listen"}, {"desk"}} {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatalf("%v: %v", path, err)
		}
		if cmd.Annotations[interactive] == "" {
			t.Errorf("evdesk %s ends at --timeout", strings.Join(path, " "))
		}
	}
}

func TestVersionReportsModuleAndRevision(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/evdesk/evdesk", Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "GOOS", Value: "windows"}, {Key: "GOARCH", Value: "arm64"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-08T09:30:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"a build in a checkout", info, "evdesk v1.4.0\nrevision: 0123456789abcdef0123456789abcdef01234567\n" +
			"committed: 2026-11-08T09:30:00Z\nmodified: yes (uncommitted changes)\ngo: go1.26.8 windows/arm64\n"},
		// go install github.com/evdesk/evdesk@latest: a module version, no VCS.
		{"go install", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"},
			Settings: []debug.BuildSetting{{Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "amd64"}}},
			"evdesk v1.4.0\ngo: go1.26.8 darwin/amd64\n"},
		{"go run", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}}},
			"evdesk dev\nrevision: " + noRevision + "\ngo: go1.26.8 linux/amd64\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ios, _, out, errOut := TestStreams()
			f := NewFactory(ios)
			f.BuildInfo = func() (*debug.BuildInfo, bool) { return c.info, true }
			if got, _, err := executeOn(t, f, out, errOut, "version"); err != nil || got != c.want {
				t.Fatalf("%v\n got %q\nwant %q", err, got, c.want)
			}
			if f.version() != strings.TrimPrefix(strings.SplitN(c.want, "\n", 2)[0], "evdesk ") {
				t.Errorf("user agent version %q", f.version())
			}
			// --version: the commit when known, else that none was recorded.
			line, revision := f.versionLine(), strings.Contains(c.want, "revision: 0123")
			if revision != strings.Contains(line, "(0123456789ab, 2026-11-08T09:30:00Z)") ||
				strings.Contains(c.want, "not recorded") != strings.Contains(line, "no revision recorded") {
				t.Errorf("--version: %q", line)
			}
		})
	}
	if v := readBuildVersion("v9.9.9", func() (*debug.BuildInfo, bool) { return info, true }); v.Version != "v9.9.9" {
		t.Errorf("-ldflags version lost: %+v", v)
	}
	if v := readBuildVersion("", func() (*debug.BuildInfo, bool) { return nil, false }); v.Version != "dev" || v.Platform == "" {
		t.Errorf("without build information: %+v", v)
	}
}

// TestCheckinDrawsProgressOnATerminalOnly: the bar's line-clearing escape
// goes to a terminal's standard error and nowhere else.
func TestCheckinDrawsProgressOnATerminalOnly(t *testing.T) {
	s := sim.New(sim.Options{})
	event := s.Fixtures().UpcomingEventID
	emails := strings.Join(s.RegistrantEmails(event)[:3], "\n")
	for _, terminal := range []bool{false, true} {
		t.Run(fmt.Sprint("terminal ", terminal), func(t *testing.T) {
			list := filepath.Join(isolateXDG(t), "emails.txt") // and a journal of its own
			if err := os.WriteFile(list, []byte(emails), 0o600); err != nil {
				t.Fatal(err)
			}
			ios, _, out, errOut := TestStreams()
			ios.SetStderrTerminal(terminal)
			_, stderr, err := executeOn(t, NewFactory(ios), out, errOut, demo("checkin", event, list)...)
			if err != nil || !strings.Contains(out.String(), "checked in:            3") {
				t.Fatalf("%v\n%s%s", err, out, stderr)
			}
			drew := strings.Contains(stderr, "\r\x1b[2K[") && strings.Contains(stderr, "3/3 sent · done")
			if drew != terminal || (!terminal && strings.ContainsRune(stderr, 0x1b)) {
				t.Errorf("stderr %q", stderr)
			}
		})
	}
}

func TestTestStreamsFlushAHeldBackCharacter(t *testing.T) {
	ios, _, out, _ := TestStreams()
	if _, err := ios.Out.Write([]byte("caf\xc3")); err != nil {
		t.Fatal(err)
	}
	if out.String() != "caf" {
		t.Fatalf("before flush %q", out)
	}
	if err := ios.Flush(); err != nil || !bytes.HasPrefix(out.Bytes(), []byte("caf")) || out.Len() == 3 {
		t.Fatalf("after flush %q %v", out, err)
	}
}

// TestCLIImportsNoViewButTheConsole keeps domain logic out of views/: the
// commands may start the console (and its desk), nothing else of a view.
func TestCLIImportsNoViewButTheConsole(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"github.com/evdesk/evdesk/views/console": true, "github.com/evdesk/evdesk/views/checkin": true}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/evdesk/evdesk/views/") && !allowed[path] {
				t.Errorf("%s imports %s: move what it needs out of views/", name, path)
			}
		}
	}
}

// Tables say what the console says; JSON keeps the service's values.
func TestTablesSpeakWordsAndJSONStaysRaw(t *testing.T) {
	isolateXDG(t)
	out, _, err := execute(t, demo("events", "list", "--status", "upcoming")...)
	if err != nil || !strings.Contains(out, "Single") || !strings.Contains(out, "In person") || strings.Contains(out, "SIMPLE_EVENT") {
		t.Fatalf("table: %v\n%s", err, out)
	}
	out, _, err = execute(t, demo("events", "list", "--status", "upcoming", "-o", "json")...)
	if err != nil || !strings.Contains(out, `"SIMPLE_EVENT"`) || !strings.Contains(out, `"in-person"`) {
		t.Fatalf("json: %v\n%.400s", err, out)
	}
}

// A command line missing an argument says which, and how the command is
// used, with an example.
func TestMistakesShowUsageAndAnExample(t *testing.T) {
	isolateXDG(t)
	_, _, err := execute(t, "emails", "status", "ev1")
	for _, want := range []string{"emails status: missing EMAIL_TYPE", "Usage:\n  evdesk emails status EVENT_ID EMAIL_TYPE", "Example:\n  evdesk emails types"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error lacks %q: %v", want, err)
		}
	}
	_, _, err = execute(t, "events", "list", "--bogus")
	if err == nil || !strings.Contains(err.Error(), "unknown flag: --bogus") || !strings.Contains(err.Error(), "Usage:\n  evdesk events list") {
		t.Fatalf("unknown flag: %v", err)
	}
}

// TestSimRefusesFlagsItCannotHonour: rates and shares in range, a token
// life in whole seconds (a fraction would reach clients as 0, no expiry).
func TestSimRefusesFlagsItCannotHonour(t *testing.T) {
	for flag, want := range map[string]string{
		"--token-ttl=500ms": "--token-ttl 500ms: give whole seconds, at least 1s",
		"--token-ttl=1.5s":  "--token-ttl 1.5s: give whole seconds",
		"--token-ttl=-1s":   "must not be negative",
		"--error-rate=2":    "--error-rate",
	} {
		_, _, err := execute(t, "sim", "--addr", "127.0.0.1:0", flag)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", flag, err, want)
		}
	}
}

// A mistake names the command once: "evdesk: events list: ...", never
// "evdesk: evdesk events list: ...".
func TestMistakesNameTheCommandOnce(t *testing.T) {
	isolateXDG(t)
	ios, _, _, errOut := TestStreams()
	Run(t.Context(), NewFactory(ios), []string{"events", "list", "extra"})
	if got := errOut.String(); !strings.HasPrefix(got, "evdesk: events list: ") {
		t.Fatalf("stderr: %q", got)
	}
}

// A command a signal stopped says "interrupted", not "context canceled".
func TestInterruptedCommandSaysSo(t *testing.T) {
	isolateXDG(t)
	t.Setenv("EVDESK_BASE_URL", "http://127.0.0.1:1/v2")
	t.Setenv("EVDESK_TOKEN", "x")
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // as ctrl+c does, before the answer
	ios, _, _, errOut := TestStreams()
	if code := Run(ctx, NewFactory(ios), []string{"events", "list"}); code == 0 {
		t.Fatal("an interrupted command succeeded")
	}
	got := errOut.String()
	if !strings.Contains(got, "interrupted") || strings.Contains(got, "context canceled") {
		t.Fatalf("stderr: %q", got)
	}
}

// TestUsageMistakesExitTwo: a word that is none of a group's commands, a
// missing required flag and flags that do not go together are usage
// errors (exit 2), told before anything is opened; a group alone prints
// its help and succeeds.
func TestUsageMistakesExitTwo(t *testing.T) {
	isolateXDG(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"events", "lst"}, `unknown command "lst" for "evdesk events"; did you mean get or list?`},
		{[]string{"phone", "lst"}, `unknown command "lst" for "evdesk phone"`},
		{[]string{"auth", "stat"}, `unknown command "stat" for "evdesk auth"; did you mean status?`},
		{[]string{"venue", "init", "Hall"}, "--out is required"},
		{[]string{"desk", "ev1", "--board", "--kiosk"}, "--board and --kiosk do not go together"},
		{[]string{"desk", "ev1", "--desk", " "}, "--desk is blank"},
		{[]string{"desk", "ev1", "--listen", ":9000"}, "--listen goes with --venue FILE"},
		{[]string{"desk", "ev1", "--venue", "v.json", "--join", "nowhere"}, `--join "nowhere": give HOST:PORT`},
		{[]string{"sim", "--rps", "-1"}, "must not be negative"},
		{[]string{"sim", "--webhook-url", "http://127.0.0.1:1/hook"}, "--webhook-url needs --webhook-secret"},
		{[]string{"completion", "fsh"}, `unknown command "fsh" for "evdesk completion"`},
		{[]string{"help", "lst"}, `help: no command or help topic "lst"`},
		{[]string{"help", "events", "lst"}, `help: no command or help topic "events lst"`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, stderr := run1(t, c.args...)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, want 2 and %q in:\n%s", code, c.want, stderr)
			}
		})
	}
	for _, args := range [][]string{{"events"}, {"help", "events"}, {"help", "exit-codes"}, {"completion", "bash"}} {
		if code, out, stderr := run1(t, args...); code != exitOK || out == "" {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, stderr)
		}
	}
}

// An unreachable server is said after a few quick tries, naming the
// address, the cause and the tries, instead of retrying for minutes and
// printing nothing (the EVDESK_BASE_URL=http://127.0.0.1:1/v2).
func TestAnUnreachableServerIsSaid(t *testing.T) {
	isolateXDG(t)
	t.Setenv("EVDESK_BASE_URL", "http://127.0.0.1:1/v2")
	t.Setenv("EVDESK_TOKEN", "x")
	ios, _, out, errOut := TestStreams()
	if code := Run(t.Context(), NewFactory(ios), []string{"events", "list"}); code != 1 {
		t.Fatalf("exit %d", code)
	}
	want := "evdesk: list events: cannot reach 127.0.0.1:1: connection refused (3 attempts); check the base URL"
	if got := errOut.String(); !strings.HasPrefix(got, want) || out.Len() != 0 {
		t.Fatalf("stdout %q, stderr %q", out.String(), got)
	}
}
