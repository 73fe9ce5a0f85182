package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/changelog"
	"github.com/evdesk/evdesk/ui"
)

// consoleChangelog is the console's copy of the change log: filled in the
// background at start, read by the phone screens' deprecation links.
type consoleChangelog struct {
	mu   sync.Mutex
	feed *changelog.Feed
}

func (c *consoleChangelog) set(f *changelog.Feed) {
	c.mu.Lock()
	c.feed = f
	c.mu.Unlock()
}

// forField is the entry that deprecates field, from the copy in hand.
func (c *consoleChangelog) forField(field string) (changelog.Entry, bool) {
	c.mu.Lock()
	f := c.feed
	c.mu.Unlock()
	if f == nil {
		return changelog.Entry{}, false
	}
	return changelog.ForField(f.Entries, field)
}

// changelogClient reads the change log with the profile's TLS (its
// ca_file too), sends no credentials of any kind, and follows a few
// redirects but never from https down to plain http.
func changelogClient(tlsConf *tls.Config) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsConf
	return &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		switch {
		case len(via) >= 5:
			return errors.New("the change log redirects more than 5 times")
		case via[0].URL.Scheme == "https" && req.URL.Scheme != "https":
			return errors.New("the change log redirects from https to plain http: not followed")
		}
		return nil
	}}
}

// changelogPlaces are the cache and notice state of a session: the XDG
// ones, or for --demo (whose server's address changes every run) the
// run's own folder, so the demo tells its news at every start.
func changelogPlaces(s *session) (changelog.Cache, changelog.StateFile) {
	if s.demo {
		dir := filepath.Join(s.journalDir, "changelog")
		return changelog.Cache{Dir: dir}, changelog.StateFile{Path: filepath.Join(dir, "notice.json")}
	}
	return changelog.DefaultCache(), changelog.DefaultStateFile(s.profile)
}

// changelogStartup is the console's start-up command: it reads the change
// log in the background (within changelog.NoticeTimeout, the offline copy
// when the network fails), keeps it for the phone screens, and returns the
// news to tell, if any. It never fails the start: a problem is logged.
// With changelog_notice = false it only reads the offline copy.
func changelogStartup(ctx context.Context, s *session, into *consoleChangelog) tea.Cmd {
	if s.changelogURL == "" {
		return nil
	}
	url, notice, log, client := s.changelogURL, s.changelogNotice, s.log, s.feedClient
	cache, state := changelogPlaces(s)
	return func() tea.Msg {
		if !notice {
			if f, err := cache.Load(url); err == nil {
				into.set(f)
			}
			return nil
		}
		n, err := changelog.StartupNotice(ctx, changelog.NoticeOptions{URL: url, Client: client, Cache: cache, State: state,
			Now: time.Now()})
		if n.Feed != nil {
			into.set(n.Feed)
		}
		if err != nil {
			log.Info("change log not read at start", "err", err)
		}
		if !n.Show {
			return nil
		}
		return newsOf(n.Entry)
	}
}

// newsOf tells an entry: a headline for the status bar, the whole entry
// for the panel (in sentences: the panel wraps the text as one paragraph).
func newsOf(e changelog.Entry) ui.NewsMsg {
	what := strings.ReplaceAll(strings.Join(e.Tags, ", "), "-", " ")
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s in %s, dated %s.", e.Title, what, strings.Join(e.Areas, ", "), e.DateText())
	if e.Summary != "" {
		b.WriteString(" " + e.Summary)
	}
	if e.Link != "" {
		b.WriteString(" Read it at " + e.Link + " .")
	}
	b.WriteString(" `evdesk changelog --tag breaking-change,deprecation` lists them all; " +
		"changelog_notice = false in the profile turns this notice off.")
	return ui.NewsMsg{Headline: what + ": " + e.Title, Title: "Change log: " + what, Text: b.String()}
}
