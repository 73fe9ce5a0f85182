package transcribe

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
)

var testNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func newRig(t *testing.T, w, h int, withCreds bool, opts ...Option) *uitest.Driver {
	t.Helper()
	var tr *api.Transcriber
	if withCreds {
		s := sim.New(sim.Options{Now: func() time.Time { return testNow }, NoRateLimit: true})
		srv := httptest.NewServer(s)
		t.Cleanup(srv.Close)
		ts, err := auth.NewJWTSource(auth.AICredentials{APIKey: sim.DemoAIKey, APISecret: sim.DemoAISecret},
			auth.WithJWTClock(func() time.Time { return testNow }))
		if err != nil {
			t.Fatal(err)
		}
		if tr, err = api.NewTranscriber(srv.URL+"/v2", ts, api.WithRateLimit(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Profile: "test", Demo: withCreds}
	app := ui.NewApp(ctx, []ui.Section{{Name: "Transcribe", New: func(c *ui.Context) ui.Screen { return New(c, tr, opts...) }}})
	return uitest.New(t, app, w, h)
}

func TestTranscribeSearchAndSave(t *testing.T) {
	dir := t.TempDir()
	r := newRig(t, 100, 30, true, WithSamples(sim.SampleKeynoteURL, sim.SamplePanelURL), WithDir(dir))
	r.Contains("Press n to transcribe an audio file")
	r.Lacks("Audio file URL") // the tab opens on its screen; n opens the form
	r.Press("n")
	r.Contains("Transcribe an audio file", "Audio file URL", "Samples:")
	r.Golden("form")
	r.Press("ctrl+u")
	r.Type("keynote.mp3")
	r.Press("enter")
	r.Contains("start it with https://")
	r.Press("ctrl+u")
	r.Type(sim.SamplePanelURL)
	r.Press("enter", "enter")
	r.Contains("00:00-00:05", "Moderator", "Jamie Chen", "Live captions doubled", "6 segments")
	r.Golden("transcript")

	r.Press("/")
	r.Type("check")
	r.Press("enter")
	r.Contains("filter: check (1 match)", "> 00:06-00:13 Jamie Chen", "a queue of two hundred people at nine sharp.")
	r.Lacks("Moderator")
	r.Golden("search")

	r.Press("w")
	r.Contains("Save the transcript", "SRT subtitles")
	r.Press("down", "enter", "enter")
	r.Says("Saved the transcript to")
	got, err := os.ReadFile(filepath.Join(dir, "transcript-hybrid-events-panel.srt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "1\n00:00:00,600 --> ") || !strings.Contains(string(got), "Moderator: Welcome") {
		t.Fatalf("srt:\n%s", got)
	}

	// Saving again over the same file asks first; No (the default) keeps it.
	srt := filepath.Join(dir, "transcript-hybrid-events-panel.srt")
	if err := os.WriteFile(srt, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Press("w", "down", "enter", "enter")
	r.Says("transcript-hybrid-events-panel.srt already exists. Replace it?")
	r.Press("enter")
	if b, _ := os.ReadFile(srt); string(b) != "mine" {
		t.Fatal("the file was replaced without a yes")
	}
	r.Press("w", "down", "enter", "enter", "y")
	r.Says("Saved the transcript to")
	if b, _ := os.ReadFile(srt); string(b) == "mine" {
		t.Fatal("yes should replace the file")
	}
}

func TestTranscribeServiceError(t *testing.T) {
	r := newRig(t, 100, 24, true)
	r.Press("n", "ctrl+u")
	r.Type("https://" + sim.SampleHost + "/samples/gone.mp3")
	r.Press("enter", "enter")
	r.Contains("ERROR", "error 40001", "The audio file could not be fetched")
	r.Press("n")
	r.Contains("Transcribe an audio file")
}

// A failed transcription leaves nothing of the previous one: no segments,
// no filter, nothing to save.
func TestFailedTranscriptionClearsThePreviousOne(t *testing.T) {
	r := newRig(t, 100, 30, true)
	r.Press("n", "ctrl+u")
	r.Type(sim.SamplePanelURL)
	r.Press("enter", "enter")
	r.Contains("Jamie Chen", "6 segments")
	r.Press("/")
	r.Type("check")
	r.Press("enter")
	r.Contains("filter: check (1 match)")

	r.Press("n", "ctrl+u")
	r.Type("https://" + sim.SampleHost + "/samples/gone.mp3")
	r.Press("enter", "enter")
	r.Contains("ERROR", "error 40001")
	r.Lacks("Jamie Chen", "filter: check", "6 segments", "row 1 of")
	r.Press("w")
	r.Contains("Nothing to save yet")
	r.Press("/")
	r.Contains("Nothing to filter yet")

	// The next transcript starts unfiltered.
	r.Press("n", "ctrl+u")
	r.Type(sim.SamplePanelURL)
	r.Press("enter", "enter")
	r.Contains("Moderator", "Jamie Chen", "row 1 of 6")
	r.Lacks("filter:")
}

func TestTranscribeWithoutCredentials(t *testing.T) {
	r := newRig(t, 80, 24, false)
	r.Contains("NOT SET UP", "evdesk login --ai", "In --demo the simulator's credentials are preset")
	r.Golden("no_credentials_80x24")
}
