package cli

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
)

// TestConsoleTellsTheChangeLogOnce: the start-up command tells the newest
// deprecation once; the next start the same day tells nothing, and the
// phone screens' lookup has the feed either way. With the notice off it
// tells nothing and reads only the offline copy.
func TestConsoleTellsTheChangeLogOnce(t *testing.T) {
	isolateXDG(t)
	s := sim.New(sim.Options{})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	sess := &session{profile: "work", changelogURL: srv.URL + sim.ChangelogPath, changelogNotice: true,
		log: slog.New(slog.DiscardHandler)}

	feed := &consoleChangelog{}
	msg := changelogStartup(context.Background(), sess, feed)()
	news, ok := msg.(ui.NewsMsg)
	if !ok || !strings.HasPrefix(news.Headline, "deprecation: Deprecated: the top-level recording") ||
		!strings.Contains(news.Text, "/changelog#2026-10-06") {
		t.Fatalf("first start: %#v", msg)
	}
	if _, ok := feed.forField("auto_call_recording.recording_explicit_consent"); !ok {
		t.Error("the phone screens' lookup has no entry")
	}
	again := &consoleChangelog{}
	if msg := changelogStartup(context.Background(), sess, again)(); msg != nil {
		t.Errorf("second start: %#v", msg)
	}
	if _, ok := again.forField("auto_call_recording.recording_start_prompt"); !ok {
		t.Error("second start: no lookup")
	}

	srv.Close() // offline, notice off: the copy, no news, no wait
	sess.changelogNotice = false
	off := &consoleChangelog{}
	if msg := changelogStartup(context.Background(), sess, off)(); msg != nil {
		t.Errorf("notice off: %#v", msg)
	}
	if _, ok := off.forField("auto_call_recording.recording_start_prompt"); !ok {
		t.Error("notice off: the offline copy was not read")
	}
	if cmd := changelogStartup(context.Background(), &session{}, off); cmd != nil {
		t.Error("no changelog_url, yet a start-up command")
	}
}

// TestChangelogClientNeverDowngrades: a feed over https that redirects to
// plain http is not followed.
func TestChangelogClientNeverDowngrades(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<rss/>")) }))
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(http.RedirectHandler(plain.URL+"/rss", http.StatusFound))
	defer tlsSrv.Close()
	c := changelogClient(tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig)
	_, err := c.Get(tlsSrv.URL + "/rss")
	if err == nil || !strings.Contains(err.Error(), "https to plain http") {
		t.Errorf("redirect to http: %v", err)
	}
}
