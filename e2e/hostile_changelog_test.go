package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/config"
)

// TestHostileChangelogNeverReachesTheTerminal: a feed with escape
// sequences in every text (title, categories, description, link, guid)
// prints safely as a table, JSON and CSV; a feed over the size cap is
// refused with a clear message, and so is one that is not a feed.
func TestHostileChangelogNeverReachesTheTerminal(t *testing.T) {
	t.Parallel()
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(hostile.Payload)
	feed := fmt.Sprintf(`<?xml version="1.0"?><rss version="2.0"><channel><title>%[1]s</title>
<item><title>Breaking %[1]s</title><link>https://x.example/%[1]s</link><guid>%[1]s</guid>
<pubDate>Mon, 02 Nov 2026 09:00:00 +0000</pubDate><category>breaking-change</category><category>phone%[1]s</category>
<description>&lt;b&gt;%[1]s&lt;/b&gt;</description></item></channel></rss>`, esc)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/huge":
			w.Write([]byte(`<?xml version="1.0"?><rss version="2.0"><channel>`))
			for range 5 << 10 {
				w.Write([]byte(strings.Repeat("<item><title>x</title></item>", 40)))
			}
		case "/html":
			w.Write([]byte("<html><body>" + hostile.Payload + "</body></html>"))
		default:
			w.Write([]byte(feed))
		}
	}))
	defer srv.Close()
	env := append(isolatedEnv(t), config.EnvChangelogURL+"="+srv.URL+"/rss")
	for _, format := range []string{"table", "json", "csv"} {
		r := runBinary(t, env, "changelog", "-o", format)
		if r.err != nil {
			t.Fatalf("%s: %v\n%s", format, r.err, r.stderr)
		}
		terminalSafe(t, format, r.stdout)
		terminalSafe(t, format+" stderr", r.stderr)
		if !strings.Contains(string(r.stdout), "Breaking") || !strings.Contains(string(r.stdout), "breaking-change") {
			t.Errorf("%s: the entry is missing:\n%s", format, r.stdout)
		}
	}
	for path, want := range map[string]string{"/huge": "larger than 4 MiB", "/html": "not an RSS, Atom or JSON feed"} {
		r := runBinary(t, append(isolatedEnv(t), config.EnvChangelogURL+"="+srv.URL+path), "changelog")
		if r.err == nil || !strings.Contains(string(r.stderr), want) {
			t.Errorf("%s: %v, stderr %q, want %q", path, r.err, r.stderr, want)
		}
		terminalSafe(t, path+" stderr", r.stderr)
	}
}

// TestConsoleTellsTheChangeLog: the demo console starts at once, then its
// status bar tells the newest deprecation in evdesk's areas; N reads it,
// and the headline is gone. At 80x24 the bar still fits the key.
func TestConsoleTellsTheChangeLog(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 80, 24, "--demo")
	tm.waitText("63 loaded")
	tm.waitText("NEWS deprecation", "N read")
	tm.keys("N")
	tm.waitText("Change log: deprecation", "recording_explicit_consent", "any key closes this")
	tm.keys("Escape")
	tm.waitGone("any key closes this")
	tm.waitGone("NEWS")
	tm.quitCleanly()
}

// TestAStalledFeedNeitherHoldsNorFailsTheStart: a change log that never
// answers leaves the console to start and quit as usual, with no news.
func TestAStalledFeedNeitherHoldsNorFailsTheStart(t *testing.T) {
	t.Parallel()
	stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer stalled.Close()
	s := sim.New(sim.Options{NoRateLimit: true})
	apiSrv := httptest.NewServer(s)
	t.Cleanup(apiSrv.Close)
	t.Cleanup(s.Close)
	env := append(isolatedEnv(t), config.EnvBaseURL+"="+apiSrv.URL+"/v2", config.EnvToken+"="+sim.DemoToken,
		config.EnvChangelogURL+"="+stalled.URL+"/rss")
	tm := startTermEnv(t, 100, 30, env)
	tm.waitText("63 loaded")
	if strings.Contains(tm.screen(), "NEWS") {
		t.Error("news from a feed that never answered")
	}
	tm.quitCleanly()
}
