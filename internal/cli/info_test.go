package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// TestDebugLogsEachRequestRedacted: --debug and EVDESK_DEBUG=api show each
// request's method, path, status and the answer's first KB on standard
// error and in the log file, with secrets masked and the bearer token
// nowhere.
func TestDebugLogsEachRequestRedacted(t *testing.T) {
	for _, how := range []string{"--debug", "EVDESK_DEBUG=api"} {
		t.Run(how, func(t *testing.T) {
			isolateXDG(t)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				fmt.Fprint(w, `{"events":[],"total_records":0,"refresh_token":"SECRET-RT-42","note":"`+strings.Repeat("x", 3000)+`"}`)
			}))
			t.Cleanup(srv.Close)
			t.Setenv(config.EnvBaseURL, srv.URL+"/v2")
			t.Setenv(config.EnvToken, sim.DemoToken)
			args := []string{"events", "list", "--status", "draft"}
			if how == "--debug" {
				args = append([]string{"--debug"}, args...)
			} else {
				t.Setenv(config.EnvDebug, "api")
			}
			code, _, stderr := run1(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			logged, err := os.ReadFile(config.LogPath())
			if err != nil {
				t.Fatal(err)
			}
			for where, text := range map[string]string{"stderr": stderr, "log": string(logged)} {
				if !strings.Contains(text, `msg="api call" method=GET path=/vendor_events/events status=200`) ||
					!strings.Contains(text, "answer=") {
					t.Errorf("%s lacks the request:\n%s", where, text)
				}
				if strings.Contains(text, "SECRET-RT-42") || strings.Contains(text, sim.DemoToken) {
					t.Errorf("%s shows a secret:\n%s", where, text)
				}
				if strings.Contains(text, strings.Repeat("x", 1100)) {
					t.Errorf("%s shows more than the body's first KB", where)
				}
			}
			if fi, err := os.Stat(config.LogPath()); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
				t.Errorf("log file: %v %v", fi.Mode(), err)
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		simServer(t)
		if _, _, stderr := run1(t, "events", "list", "--status", "draft"); strings.Contains(stderr, "api call") {
			t.Fatalf("logged without --debug: %s", stderr)
		}
	})
}

func TestInfoNamesPathsProfileAndTerminal(t *testing.T) {
	dir := isolateXDG(t)
	ios, _, out, _ := TestStreams()
	f := NewFactory(ios)
	root := NewRootCmd(f)
	root.SetArgs([]string{"info", "--profile", "lab", "-o", "json"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	var r infoReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.HasPrefix(r.Paths.Config, dir) || !strings.HasPrefix(r.Paths.Log, dir) || !strings.HasPrefix(r.Paths.Cache, dir) ||
		!strings.HasPrefix(r.Paths.Journals, r.Paths.State) {
		t.Errorf("paths %+v outside %s", r.Paths, dir)
	}
	if r.Profile.ChosenBy != "--profile" || r.Profile.Error == "" || r.Keyring == "" || r.Terminal.ColorProfile == "" {
		t.Errorf("report %+v", r)
	}

	ios, _, out, _ = TestStreams()
	f = NewFactory(ios)
	root = NewRootCmd(f)
	root.SetArgs([]string{"--demo", "info"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"version:", "config file:", "journals:", "log:", "profile:         demo (chosen by --demo", "keyring:", "colours:", "background:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
