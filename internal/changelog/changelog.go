// Package changelog reads the provider's developer change log: a feed (RSS,
// Atom or JSON Feed, parsed by gofeed) of dated entries tagged
// api-release, breaking-change, bug-fix, deprecation, new-feature or
// sdk-version. It fetches the feed within a byte and time budget, keeps a
// copy for offline use, sorts each entry into the areas of the platform it
// touches, marks those evdesk uses, filters, finds the entry that
// deprecates a field, and picks the one start-up notice.
//
// The feed is untrusted: every text is sanitised and bounded before it is
// kept, and HTML is reduced to its words.
package changelog

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// Tags are the change log's entry tags.
var Tags = []string{TagAPIRelease, TagBreaking, TagBugFix, TagDeprecation, TagNewFeature, TagSDKVersion}

// The tags.
const (
	TagAPIRelease  = "api-release"
	TagBreaking    = "breaking-change"
	TagBugFix      = "bug-fix"
	TagDeprecation = "deprecation"
	TagNewFeature  = "new-feature"
	TagSDKVersion  = "sdk-version"
)

// Areas evdesk uses; an entry in one of them is marked.
const (
	AreaEvents     = "events"
	AreaPhone      = "phone"
	AreaAIServices = "ai-services"
	AreaWebhooks   = "webhooks"
	AreaOAuth      = "oauth"
)

// UsedAreas are the platform's parts evdesk works with.
var UsedAreas = []string{AreaEvents, AreaPhone, AreaAIServices, AreaWebhooks, AreaOAuth}

// Bounds on what a feed may make evdesk keep.
const (
	MaxEntries    = 500
	maxTitle      = 300
	maxSummary    = 4 << 10
	maxLink       = 2 << 10
	maxCategories = 16
	maxCategory   = 60
)

// Entry is one dated change.
type Entry struct {
	ID    string    `json:"id"`
	Date  time.Time `json:"date"` // zero when the feed gives none
	Title string    `json:"title"`
	Tags  []string  `json:"tags"`
	Areas []string  `json:"areas"`
	Link  string    `json:"link,omitempty"`
	// Summary is the entry's text in words (HTML removed).
	Summary string `json:"summary,omitempty"`
	// Uses is true when the entry touches an area evdesk uses.
	Uses bool `json:"evdesk_uses"`
}

// Feed is a change log as read.
type Feed struct {
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	FetchedAt time.Time `json:"fetched_at"`
	Entries   []Entry   `json:"entries"` // newest first
}

// HasTag reports whether e carries tag.
func (e Entry) HasTag(tag string) bool { return slices.Contains(e.Tags, tag) }

// DateText is the entry's day, or "-".
func (e Entry) DateText() string {
	if e.Date.IsZero() {
		return "-"
	}
	return e.Date.Format(time.DateOnly)
}

// Parse reads a feed document (RSS, Atom or JSON Feed) into entries,
// newest first, at most MaxEntries, every text sanitised and bounded.
func Parse(data []byte) (*Feed, error) {
	p := gofeed.NewParser()
	p.RSSTranslator = &gofeed.DefaultRSSTranslator{DisableContentImageScan: true}
	f, err := p.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the change log is not an RSS, Atom or JSON feed: %v", err)
	}
	out := &Feed{Title: clip(sanitize.Line(f.Title), maxTitle)}
	for _, it := range f.Items {
		if it == nil {
			continue
		}
		out.Entries = append(out.Entries, entryOf(it))
		if len(out.Entries) >= 4*MaxEntries { // enough to sort; the rest is ignored
			break
		}
	}
	slices.SortStableFunc(out.Entries, func(a, b Entry) int { return b.Date.Compare(a.Date) })
	if len(out.Entries) > MaxEntries {
		out.Entries = out.Entries[:MaxEntries]
	}
	return out, nil
}

func entryOf(it *gofeed.Item) Entry {
	e := Entry{Title: clip(sanitize.Line(strings.TrimSpace(it.Title)), maxTitle)}
	switch {
	case it.PublishedParsed != nil:
		e.Date = it.PublishedParsed.UTC()
	case it.UpdatedParsed != nil:
		e.Date = it.UpdatedParsed.UTC()
	}
	if l := strings.TrimSpace(it.Link); isWebLink(l) && len(l) <= maxLink {
		e.Link = sanitize.Line(l)
	}
	text := it.Description
	if text == "" {
		text = it.Content
	}
	e.Summary = clip(strings.Join(strings.Fields(sanitize.Text(htmlText(clip(text, 8*maxSummary)))), " "), maxSummary)
	e.ID = clip(sanitize.Line(strings.TrimSpace(it.GUID)), maxLink)
	if e.ID == "" {
		e.ID = e.Link
	}
	if e.ID == "" {
		e.ID = e.DateText() + " " + e.Title
	}
	cats := it.Categories
	if len(cats) > maxCategories {
		cats = cats[:maxCategories]
	}
	for _, c := range cats {
		word := normalise(c)
		if tag := strings.ReplaceAll(word, " ", "-"); slices.Contains(Tags, tag) { // "Breaking Change" too
			e.Tags = appendNew(e.Tags, tag)
			continue
		}
		e.Areas = appendNew(e.Areas, areaOf(word))
	}
	if len(e.Tags) == 0 {
		e.Tags = guessTags(e.Title)
	}
	if len(e.Areas) == 0 {
		e.Areas = guessAreas(e.Title + " " + e.Summary)
	}
	for _, a := range e.Areas {
		if slices.Contains(UsedAreas, a) {
			e.Uses = true
		}
	}
	return e
}

// normalise makes a category comparable: sanitised, lower case, words
// joined by single spaces, bounded.
func normalise(s string) string {
	return clip(strings.Join(strings.Fields(strings.ToLower(sanitize.Line(s))), " "), maxCategory)
}

// areaSynonyms name evdesk's areas the ways a feed may spell them.
var areaSynonyms = map[string]string{
	"events": AreaEvents, "event": AreaEvents, "events api": AreaEvents, "event management": AreaEvents,
	"vendor events": AreaEvents,
	"phone":         AreaPhone, "vendor phone": AreaPhone,
	"ai services": AreaAIServices, "ai-services": AreaAIServices, "ai": AreaAIServices, "scribe": AreaAIServices,
	"transcription": AreaAIServices,
	"webhooks":      AreaWebhooks, "webhook": AreaWebhooks, "event subscriptions": AreaWebhooks,
	"oauth": AreaOAuth, "oauth 2.0": AreaOAuth, "authorization": AreaOAuth, "authentication": AreaOAuth,
}

// areaOf maps a category to an area: one of evdesk's by its synonyms,
// else the category itself.
func areaOf(word string) string {
	if a, ok := areaSynonyms[word]; ok {
		return a
	}
	return word
}

// guessTags reads a tag from a title when the feed gives no category.
func guessTags(title string) []string {
	t := strings.ToLower(title)
	switch {
	case strings.Contains(t, "breaking"):
		return []string{TagBreaking}
	case strings.Contains(t, "deprecat"):
		return []string{TagDeprecation}
	case strings.Contains(t, "sdk"):
		return []string{TagSDKVersion}
	case strings.Contains(t, "fix"):
		return []string{TagBugFix}
	}
	return nil
}

// guessAreas reads the areas from the words of an entry without
// categories.
func guessAreas(text string) []string {
	t := strings.ToLower(text)
	var out []string
	for _, k := range []struct{ word, area string }{
		{"phone", AreaPhone}, {"webhook", AreaWebhooks}, {"oauth", AreaOAuth},
		{"transcri", AreaAIServices}, {"ai services", AreaAIServices}, {"scribe", AreaAIServices},
		{"events api", AreaEvents}, {"event management", AreaEvents},
	} {
		if strings.Contains(t, k.word) {
			out = appendNew(out, k.area)
		}
	}
	return out
}

func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// htmlText is the words of an HTML fragment (plain text passes as is).
func htmlText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			b.WriteByte(' ')
		}
	}
}

func isWebLink(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

// clip bounds s to n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// ForField is the newest deprecation entry that names field, given as
// "setting.field" (auto_call_recording.recording_start_prompt): the entry
// must name both the setting and the field, as whole words, so the same
// field of another setting does not match.
func ForField(entries []Entry, field string) (Entry, bool) {
	parent, name, ok := strings.Cut(field, ".")
	if !ok {
		parent, name = "", field
	}
	word := func(w string) *regexp.Regexp {
		return regexp.MustCompile(`(^|[^a-z0-9_])` + regexp.QuoteMeta(w) + `($|[^a-z0-9_])`)
	}
	nameRe := word(name)
	var parentRe *regexp.Regexp
	if parent != "" {
		parentRe = word(parent)
	}
	for _, e := range entries { // newest first
		if !e.HasTag(TagDeprecation) {
			continue
		}
		text := e.Title + " " + e.Summary
		if nameRe.MatchString(text) && (parentRe == nil || parentRe.MatchString(text)) {
			return e, true
		}
	}
	return Entry{}, false
}
