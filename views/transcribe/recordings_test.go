package transcribe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/internal/webhook"
)

// spoolRecording writes a spooled session.recording_completed event, as a
// listener keeps it.
func spoolRecording(t *testing.T, dir, url string, at time.Time) string {
	t.Helper()
	body := `{"event":"session.recording_completed","payload":{"object":{"external_storage_url":` + quote(url) + `}}}`
	doc := `{"event":"session.recording_completed","named":true,"fields":{"external_storage_url":` + quote(url) +
		`},"received_at":"` + at.Format(time.RFC3339) + `","body":` + body + `}`
	name := filepath.Join(dir, at.Format("20060102T150405")+".json")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\x1b", `\u001b`, "\x07", `\u0007`)
	return `"` + r.Replace(s) + `"`
}

// TestRecordingsReceivedAreTranscribedWithAKey: h lists the spool's
// recordings, newest first; enter transcribes one, shows the transcript
// and keeps its SRT beside the event.
func TestRecordingsReceivedAreTranscribedWithAKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	older := spoolRecording(t, dir, sim.SampleBriefingURL, testNow.Add(-time.Hour))
	spoolRecording(t, dir, sim.SamplePanelURL, testNow)
	r := newRig(t, 100, 30, true, WithRecordings(webhook.Spool{Dir: dir}), WithLocal(time.UTC))
	r.Contains("h for the recordings webhooks brought")
	r.Press("h")
	r.Contains("Recordings received", "2 recordings", "hybrid-events-panel.wav", "checkin-briefing.m4a")
	r.Golden("recordings")
	r.Press("down", "enter")
	r.Contains("Hana Sato", "Scan the badge first", "SRT kept in")
	srt, err := os.ReadFile(webhook.TranscriptPath(older))
	if err != nil || !strings.HasPrefix(string(srt), "1\n00:00:00,600 --> ") {
		t.Fatalf("srt %v:\n%s", err, srt)
	}
	r.Press("h")
	r.Contains("yes") // the SRT column now says it has one
}

func TestRecordingsWithHostileURLsAreSanitised(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	// A URL with controls is no URL (url.Parse refuses it): not listed.
	// One with C1 and bidi characters is, sanitised.
	spoolRecording(t, dir, "https://media.example/"+hostile.Payload+".mp3", testNow)
	spoolRecording(t, dir, "https://media.example/\u0085\u009b1m\u202eRTL\u2066.mp3", testNow.Add(time.Second))
	r := newRig(t, 100, 30, true, WithRecordings(webhook.Spool{Dir: dir}), WithLocal(time.UTC))
	r.Press("h")
	r.Contains("Recordings received", "1 recording")
	for _, seq := range hostile.Sequences {
		if strings.Contains(r.View(), seq) {
			t.Fatalf("the screen shows %q", seq)
		}
	}
}

func TestNoSpoolSaysWhy(t *testing.T) {
	r := newRig(t, 100, 30, true)
	r.Press("h")
	r.Contains("No webhook listener keeps recordings")
}
