package sim

import (
	"encoding/xml"
	"net/http"
	"strings"
	"time"
)

// ChangelogPath is where the simulator serves the developer change log as
// an RSS 2.0 feed (no access token: the provider's feed is public).
const ChangelogPath = "/changelog/rss"

// ChangelogSimCategory marks the feed's entries of the simulator's own
// making (doc.go).
const ChangelogSimCategory = "simulator"

// changelogEntry is one item of the simulator's feed.
type changelogEntry struct {
	date  string // yyyy-mm-dd
	tags  []string
	areas []string
	title string
	text  string
	// own marks an entry the simulator made up; invented marks an entry
	// of the change log whose date the document does not give.
	own, invented bool
}

// changelogEntries are the change log document's dated entries (section
// 9), its webhook changes (section 6) and deprecations, and a few of the
// simulator's own, newest first.
var changelogEntries = []changelogEntry{
	{date: "2026-11-15", tags: []string{"breaking-change"}, areas: []string{"real-time media streaming"},
		title: "Real-time media streaming requires TLS 1.2 or 1.3",
		text:  "From 15 November 2026 the real-time media streaming service requires TLS 1.2 or 1.3 on all connections."},
	{date: "2026-10-20", tags: []string{"sdk-version"}, areas: []string{"events"}, own: true,
		title: "Event API SDK 3.4.0",
		text:  "A new SDK version for the event-management API."},
	{date: "2026-10-06", tags: []string{"deprecation"}, areas: []string{"phone"}, invented: true,
		title: "Deprecated: the top-level recording prompt and consent fields of auto_call_recording",
		text: "The fields recording_start_prompt, recording_start_prompt_audio_id and recording_explicit_consent of " +
			"auto_call_recording are deprecated and announced for removal in a future release; read " +
			"inbound_audio_notification and outbound_audio_notification instead."},
	{date: "2026-09-28", tags: []string{"api-release"}, areas: []string{"phone"},
		title: "Phone: filtering and pagination for several list APIs",
		text:  "Filtering and pagination request fields were added to several phone list APIs."},
	{date: "2026-09-21", tags: []string{"new-feature"}, areas: []string{"phone"},
		title: "Phone: emergency-service, routing-rule, emergency-number and fax cover page APIs",
		text:  "Emergency-service, routing-rule, emergency-number and fax cover page APIs were added."},
	{date: "2026-09-02", tags: []string{"new-feature"}, areas: []string{"webhooks"}, invented: true,
		title: "Webhooks: new event meeting.participant_phone_callout_failed",
		text:  "A new webhook event, meeting.participant_phone_callout_failed."},
	{date: "2026-09-02", tags: []string{"new-feature"}, areas: []string{"webhooks"}, invented: true,
		title: "Webhooks: vendor_thin_client_plugin_version and rc_reason in participant data events",
		text: "meeting.participant_data, webinar.participant_data, meeting.participant_data_summary and " +
			"webinar.participant_data_summary carry the new fields vendor_thin_client_plugin_version and rc_reason; " +
			"session.user_data and session.user_data_summary carry rc_reason."},
	{date: "2026-09-02", tags: []string{"new-feature"}, areas: []string{"webhooks"}, invented: true,
		title: "Webhooks: external_storage_url in session.recording_completed",
		text:  "session.recording_completed carries the new field external_storage_url."},
	{date: "2026-08-17", tags: []string{"new-feature"}, areas: []string{"phone"},
		title: "Phone: call handler and AI call summary response fields",
		text:  "Call handler and AI call summary response fields were added."},
	{date: "2026-07-08", tags: []string{"bug-fix"}, areas: []string{"events"}, own: true,
		title: "Fixed: a listing's last page could repeat its first item",
		text:  "Event listings no longer repeat an item across the last page boundary."},
	{date: "2026-06-01", tags: []string{"api-release"}, areas: []string{"oauth"}, own: true,
		title: "OAuth: the token endpoint names the account in its answer",
		text:  "The token endpoint's answer carries the user and account ids."},
	{date: "2026-05-18", tags: []string{"breaking-change"}, areas: []string{"phone"},
		title: "Phone: a new retrieval process for warm-transfer call data",
		text:  "Since 18 May 2026 a new retrieval process applies to warm-transfer call data."},
}

// rssFeed is the RSS 2.0 document.
type rssFeed struct {
	XMLName xml.Name   `xml:"rss"`
	Version string     `xml:"version,attr"`
	Channel rssChannel `xml:"channel"`
}

type rssChannel struct {
	Title       string    `xml:"title"`
	Link        string    `xml:"link"`
	Description string    `xml:"description"`
	Items       []rssItem `xml:"item"`
}

type rssItem struct {
	Title       string   `xml:"title"`
	Link        string   `xml:"link"`
	GUID        string   `xml:"guid"`
	PubDate     string   `xml:"pubDate"`
	Categories  []string `xml:"category"`
	Description string   `xml:"description"`
}

func (s *Sim) changelogRoutes() {
	s.mux.HandleFunc("GET "+ChangelogPath, s.changelogFeed)
}

// changelogFeed serves the feed; each item links to its place on the
// simulator's own host.
func (s *Sim) changelogFeed(w http.ResponseWriter, r *http.Request) {
	base := "http://" + r.Host + "/changelog"
	ch := rssChannel{Title: "Developer change log (simulator)", Link: base,
		Description: "The platform's dated changes: API releases, breaking changes, deprecations, bug fixes and SDK versions."}
	for _, e := range changelogEntries {
		day, _ := time.Parse(time.DateOnly, e.date)
		slug := e.date + "-" + slugOf(e.title)
		cats := append(append([]string(nil), e.tags...), e.areas...)
		text := e.text
		switch {
		case e.own:
			cats = append(cats, ChangelogSimCategory)
			text += " (An entry of the simulator's own making.)"
		case e.invented:
			text += " (The date is the simulator's: the change log document gives none.)"
		}
		ch.Items = append(ch.Items, rssItem{Title: e.title, Link: base + "#" + slug, GUID: slug,
			PubDate: day.Add(9 * time.Hour).Format(time.RFC1123Z), Categories: cats, Description: text})
	}
	b, err := xml.MarshalIndent(rssFeed{Version: "2.0", Channel: ch}, "", "  ")
	if err != nil {
		writeErr(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
	_, _ = w.Write(append([]byte(xml.Header), b...))
}

// slugOf makes an anchor of a title: lower-case letters and digits, dashes.
func slugOf(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
