package changelog

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/api/sim/hostile"
)

var now = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

// simFeed serves the simulator; its feed's URL is returned.
func simFeed(t *testing.T) (string, *httptest.Server) {
	t.Helper()
	s := sim.New(sim.Options{})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL + sim.ChangelogPath, srv
}

func TestTheSimulatorsFeed(t *testing.T) {
	url, _ := simFeed(t)
	f, err := Fetch(context.Background(), nil, url, now)
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]Entry{}
	for i, e := range f.Entries {
		byTitle[e.Title] = e
		if i > 0 && e.Date.After(f.Entries[i-1].Date) {
			t.Errorf("not newest first at %d", i)
		}
		if e.ID == "" || e.Link == "" || e.Summary == "" || len(e.Tags) == 0 || len(e.Areas) == 0 {
			t.Errorf("entry incomplete: %+v", e)
		}
	}
	// The change log document's dated entries (section 9).
	for title, want := range map[string]struct {
		date, tag, area string
		uses            bool
	}{
		"Real-time media streaming requires TLS 1.2 or 1.3":          {"2026-11-15", TagBreaking, "real-time media streaming", false},
		"Phone: a new retrieval process for warm-transfer call data": {"2026-05-18", TagBreaking, AreaPhone, true},
		"Phone: filtering and pagination for several list APIs":      {"2026-09-28", TagAPIRelease, AreaPhone, true},
		"Phone: call handler and AI call summary response fields":    {"2026-08-17", TagNewFeature, AreaPhone, true},
	} {
		e, ok := byTitle[title]
		if !ok {
			t.Errorf("missing %q", title)
			continue
		}
		if e.DateText() != want.date || !e.HasTag(want.tag) || !slices.Contains(e.Areas, want.area) || e.Uses != want.uses {
			t.Errorf("%q: %+v", title, e)
		}
	}
	own := 0
	for _, e := range f.Entries {
		if slices.Contains(e.Areas, sim.ChangelogSimCategory) {
			own++
			if !strings.Contains(e.Summary, "simulator's own") {
				t.Errorf("own entry not marked in its text: %+v", e)
			}
		}
	}
	if own == 0 {
		t.Error("no entry of the simulator's own is marked")
	}
	// The three deprecated recording fields lead to their entry; the same
	// names in another setting do not.
	for _, field := range []string{"recording_start_prompt", "recording_start_prompt_audio_id", "recording_explicit_consent"} {
		e, ok := ForField(f.Entries, "auto_call_recording."+field)
		if !ok || !e.HasTag(TagDeprecation) || e.Link == "" {
			t.Errorf("auto_call_recording.%s: %+v %v", field, e, ok)
		}
		if _, ok := ForField(f.Entries, "ad_hoc_call_recording."+field); ok {
			t.Errorf("ad_hoc_call_recording.%s matched the auto_call_recording deprecation", field)
		}
	}
	if _, ok := ForField(f.Entries, "auto_call_recording.recording_calls"); ok {
		t.Error("a field not deprecated has an entry")
	}
}

func TestAtomAndJSONFeeds(t *testing.T) {
	for _, c := range []struct {
		file  string
		title string
		tags  []string
		areas []string
		sum   string
	}{
		{"atom.xml", "OAuth: refresh tokens rotate", []string{TagBreaking}, []string{AreaOAuth}, "Every refresh rotates the token."},
		{"feed.json", "Webhook retries are spaced out", []string{TagBreaking}, []string{AreaWebhooks}, "Retries wait longer."},
		{"feed.json", "Transcription: a new language", []string{TagNewFeature}, []string{AreaAIServices}, "The AI services transcribe Spanish."},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		i := slices.IndexFunc(f.Entries, func(e Entry) bool { return e.Title == c.title })
		if i < 0 {
			t.Fatalf("%s: no %q in %+v", c.file, c.title, f.Entries)
		}
		e := f.Entries[i]
		if !slices.Equal(e.Tags, c.tags) || !slices.Equal(e.Areas, c.areas) || e.Summary != c.sum || !e.Uses {
			t.Errorf("%s %q: %+v", c.file, c.title, e)
		}
	}
	if _, err := Parse([]byte("<html><body>not a feed</body></html>")); err == nil {
		t.Error("an HTML page parsed as a feed")
	}
}

// TestHostileFeed: escape sequences and controls in every text are
// sanitised, HTML is reduced to words, items and sizes are bounded.
func TestHostileFeed(t *testing.T) {
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(hostile.Payload)
	var items strings.Builder
	for i := range MaxEntries + 50 {
		fmt.Fprintf(&items, `<item><title>T%d %s</title><link>https://x.example/%d</link><guid>g%d%s</guid>
<pubDate>Mon, 02 Nov 2026 09:00:00 +0000</pubDate><category>%s</category><category>phone%s</category>
<description>%s&lt;script&gt;x&lt;/script&gt;%s</description></item>`, i, esc, i, i, esc, esc, esc, esc, strings.Repeat("long ", 900))
	}
	doc := `<?xml version="1.0"?><rss version="2.0"><channel><title>` + esc + `</title>` + items.String() + `</channel></rss>`
	f, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != MaxEntries {
		t.Errorf("%d entries kept, want %d", len(f.Entries), MaxEntries)
	}
	check := func(what, s string) {
		for _, seq := range hostile.Sequences {
			if strings.Contains(s, seq) {
				t.Fatalf("%s keeps %q: %q", what, seq, s)
			}
		}
		if strings.ContainsAny(s, "\x1b\n\r") {
			t.Fatalf("%s keeps a control: %q", what, s)
		}
	}
	check("feed title", f.Title)
	for _, e := range f.Entries {
		check("title", e.Title)
		check("summary", e.Summary)
		check("id", e.ID)
		for _, a := range append(e.Areas, e.Tags...) {
			check("category", a)
		}
		if len(e.Summary) > maxSummary+len("…") || strings.Contains(e.Summary, "<script") {
			t.Fatalf("summary %d bytes: %.80q", len(e.Summary), e.Summary)
		}
	}
}

func TestFetchBudgets(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		switch r.URL.Path {
		case "/huge":
			w.Write([]byte(`<?xml version="1.0"?><rss version="2.0"><channel>`))
			chunk := []byte(strings.Repeat("<item><title>x</title></item>", 1000))
			for range MaxFeedBytes/len(chunk) + 2 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "/stall":
			<-r.Context().Done()
		case "/gone":
			http.Error(w, "gone", http.StatusGone)
		}
	}))
	defer srv.Close()
	if _, err := Fetch(context.Background(), nil, srv.URL+"/huge", now); !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge feed: %v, want ErrTooLarge", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the caller's deadline has passed: no wait at all
	if _, err := Fetch(ctx, nil, srv.URL+"/stall", now); err == nil {
		t.Error("a stalled feed did not fail")
	}
	if _, err := Fetch(context.Background(), nil, srv.URL+"/gone", now); err == nil || !strings.Contains(err.Error(), "410") {
		t.Errorf("410: %v", err)
	}
	for _, bad := range []string{"ftp://x/feed", "not a url", "https://user:pw@x/feed", ""} {
		if err := CheckURL(bad); err == nil {
			t.Errorf("CheckURL(%q) accepted", bad)
		}
	}
}

func TestOfflineFromTheCache(t *testing.T) {
	url, srv := simFeed(t)
	c := Cache{Dir: t.TempDir()}
	res, err := Get(context.Background(), nil, c, url, now)
	if err != nil || res.Offline != nil || len(res.Feed.Entries) == 0 {
		t.Fatalf("online: %+v %v", res, err)
	}
	srv.Close()
	res, err = Get(context.Background(), nil, c, url, now.Add(time.Hour))
	if err != nil || res.Offline == nil || len(res.Feed.Entries) == 0 || !res.Feed.FetchedAt.Equal(now) {
		t.Fatalf("offline: %+v %v", res, err)
	}
	if _, err := Get(context.Background(), nil, Cache{Dir: t.TempDir()}, url, now); err == nil ||
		!strings.Contains(err.Error(), "no copy is kept") {
		t.Errorf("offline without a copy: %v", err)
	}
	// A damaged copy is named, not trusted.
	if err := os.WriteFile(c.path(url), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(url); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged cache: %v", err)
	}
}

func TestFilter(t *testing.T) {
	url, _ := simFeed(t)
	f, err := Fetch(context.Background(), nil, url, now)
	if err != nil {
		t.Fatal(err)
	}
	tags, err := ParseTags("breaking-change, deprecation")
	if err != nil {
		t.Fatal(err)
	}
	areas, err := ParseAreas("Phone,webhook")
	if err != nil || !slices.Equal(areas, []string{AreaPhone, AreaWebhooks}) {
		t.Fatalf("areas %v %v", areas, err)
	}
	since, err := ParseSince("2026-06-01")
	if err != nil {
		t.Fatal(err)
	}
	got := Filter{Tags: tags, Areas: areas, Since: since}.Apply(f.Entries)
	if len(got) != 1 || !got[0].HasTag(TagDeprecation) {
		t.Errorf("breaking or deprecation, phone or webhooks, since June: %+v", got)
	}
	if n := len(Filter{Tags: []string{TagBreaking}}.Apply(f.Entries)); n != 2 {
		t.Errorf("%d breaking changes, want 2", n)
	}
	if _, err := ParseTags("breaking"); err == nil || !strings.Contains(err.Error(), "breaking-change") {
		t.Errorf("bad tag: %v", err)
	}
	if _, err := ParseSince("1 Sept"); err == nil || !strings.Contains(err.Error(), "2026-09-01") {
		t.Errorf("bad day: %v", err)
	}
}

func TestNoticeOnceADayAndOnlyNewer(t *testing.T) {
	url, _ := simFeed(t)
	o := NoticeOptions{URL: url, Cache: Cache{Dir: t.TempDir()}, State: StateFile{Path: filepath.Join(t.TempDir(), "s.json")}, Now: now}
	n, err := StartupNotice(context.Background(), o)
	if err != nil || !n.Show {
		t.Fatalf("first start: %+v %v", n, err)
	}
	// The newest breaking change or deprecation evdesk's areas have: the
	// TLS change is newer but in an area evdesk does not use.
	if !n.Entry.HasTag(TagDeprecation) || n.Entry.DateText() != "2026-10-06" {
		t.Errorf("told %+v", n.Entry)
	}
	// The same day: nothing, even restarted.
	o.Now = now.Add(time.Hour)
	if n, _ := StartupNotice(context.Background(), o); n.Show || n.Feed == nil {
		t.Errorf("second start the same day: %+v", n)
	}
	// The next day: the older breaking change is not news (only entries
	// newer than the last one told are).
	o.Now = now.Add(NoticeEvery)
	if n, _ := StartupNotice(context.Background(), o); n.Show {
		t.Errorf("next day, told an older entry: %+v", n.Entry)
	}
	// A newer one appears in the feed: told, once.
	newer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>c</title>
<item><title>Webhooks: v1 signatures end</title><guid>w1</guid><pubDate>Fri, 20 Nov 2026 09:00:00 +0000</pubDate>
<category>breaking-change</category><category>webhooks</category></item></channel></rss>`))
	}))
	defer newer.Close()
	o.URL, o.Now = newer.URL, now.Add(3*NoticeEvery)
	if n, _ := StartupNotice(context.Background(), o); !n.Show || n.Entry.ID != "w1" {
		t.Errorf("a newer entry was not told: %+v", n)
	}
	o.Now = now.Add(5 * NoticeEvery)
	if n, _ := StartupNotice(context.Background(), o); n.Show {
		t.Errorf("told twice: %+v", n.Entry)
	}
}

func TestNoticeNeverFailsTheStartWhenUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	o := NoticeOptions{URL: srv.URL + "/feed", Cache: Cache{Dir: t.TempDir()}, State: StateFile{Path: filepath.Join(t.TempDir(), "s.json")}, Now: now}
	n, err := StartupNotice(context.Background(), o)
	if err == nil || n.Show {
		t.Errorf("unreachable feed: %+v %v (want an error to log, no notice)", n, err)
	}
}
