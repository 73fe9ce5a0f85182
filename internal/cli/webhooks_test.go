package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/webhook"
)

// TestListenPrintsEachEventItsWay: words, a JSON line, or what --jq and
// --template make of each event, one event at a time.
func TestListenPrintsEachEventItsWay(t *testing.T) {
	ev := webhook.Event{Name: "session.user_data", Named: true, Change: "new field",
		Fields: map[string]string{"rc_reason": "network"}, ReceivedAt: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC),
		Body: []byte(`{"event":"session.user_data"}`)}
	for _, c := range []struct {
		format, jq, template, want string
	}{
		{formatTable, "", "", "09:00:00Z  session.user_data  rc_reason=network\n"},
		{formatJSON, "", "", `{"event":"session.user_data","named":true,"change":"new field","fields":{"rc_reason":"network"},` +
			`"timestamp":"0001-01-01T00:00:00Z","received_at":"2026-11-26T09:00:00Z","body":{"event":"session.user_data"}}` + "\n"},
		{formatJSON, ".fields.rc_reason", "", "network\n"},
		{formatJSON, "", "{{.event}} {{.fields.rc_reason}}\n", "session.user_data network\n"},
	} {
		e := newExporter(formatTable, formatJSON)
		e.format, e.jq, e.template = c.format, c.jq, c.template
		var out, errOut bytes.Buffer
		o := &listenOptions{Export: e}
		o.print(&lockedWriter{w: &out}, &lockedWriter{w: &errOut}, ev)
		if out.String() != c.want || errOut.Len() != 0 {
			t.Errorf("%s %q %q: %q (stderr %q), want %q", c.format, c.jq, c.template, out.String(), errOut.String(), c.want)
		}
	}
	// A jq expression that fails says so on standard error, per event.
	e := newExporter(formatTable, formatJSON)
	e.format, e.jq = formatJSON, ".fields | error"
	var out, errOut bytes.Buffer
	(&listenOptions{Export: e}).print(&lockedWriter{w: &out}, &lockedWriter{w: &errOut}, ev)
	if out.Len() != 0 || !strings.HasPrefix(errOut.String(), "evdesk: session.user_data: ") {
		t.Errorf("failing jq: stdout %q stderr %q", out.String(), errOut.String())
	}
}
