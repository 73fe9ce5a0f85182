package phone

import (
	"context"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/changelog"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/viewtest"
)

// TestDeprecatedFieldsLinkToTheirEntry: the detail of auto_call_recording
// names each of its three deprecated fields with the change log entry that
// deprecates it and the entry's address; ad hoc recording, whose fields of
// the same names are not deprecated, has none.
func TestDeprecatedFieldsLinkToTheirEntry(t *testing.T) {
	srv := viewtest.NewServer(t)
	feed, err := changelog.Fetch(context.Background(), nil, strings.TrimSuffix(srv.URL, "/v2")+sim.ChangelogPath, viewtest.Now)
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(field string) (changelog.Entry, bool) { return changelog.ForField(feed.Entries, field) }
	client := srv.Client(t, sim.DemoToken)
	var opened []string
	d := viewtest.OpenSection(t, "Phone", 100, 40, func(c *ui.Context) ui.Screen {
		c.OpenURL = func(u string) error { opened = append(opened, u); return nil }
		return newScreen(c, views.Env{Client: client, Now: viewtest.Clock, Phone: views.Phone{Changelog: lookup}})
	})
	d.Press("/")
	d.Type("automatic call recording")
	d.Press("enter", "enter")
	d.Contains("Change log", "DEPRECATED recording_start_prompt: 2026-10-06 Deprecated: the top-level recording",
		"DEPRECATED recording_start_prompt_audio_id:", "DEPRECATED recording_explicit_consent:", "/changelog#2026-10-06-deprecated",
		"O open the change log entry")
	// The entry names the replacements; they are not deprecated.
	d.Lacks("DEPRECATED inbound_audio_notification", "DEPRECATED outbound_audio_notification")
	d.Press("O")
	if len(opened) != 1 || !strings.Contains(opened[0], "/changelog#2026-10-06-deprecated") {
		t.Errorf("opened %v", opened)
	}
	d.Press("esc", "esc", "esc", "/")
	d.Type("on-demand call recording")
	d.Press("enter", "enter")
	d.Contains("Phone settings > On-demand call recording", "Fields")
	d.Lacks("DEPRECATED", "open the change log entry")
}
