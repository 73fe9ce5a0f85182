package webhook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
)

// Spool is a folder of accepted events, one JSON file each, written
// atomically: a running listener writes it, the console's Transcribe
// section reads the recordings in it. A transcript of a recording sits
// beside its event, with the same name and .srt.
type Spool struct{ Dir string }

// DefaultSpoolDir is where `evdesk webhooks listen` keeps the events of a
// profile when no --spool is given, and where the console looks.
func DefaultSpoolDir(profile string) string {
	return filepath.Join(config.StateDir(), "webhooks", profile)
}

// Bounds on what the console reads back.
const (
	// MaxRecordings is how many recordings a listing shows (the newest).
	MaxRecordings = 500
	// maxSpoolFile caps one spooled event: the body cap and its envelope.
	maxSpoolFile = 4 * DefaultMaxBody
	// maxSpoolScan caps the files looked at in one listing.
	maxSpoolScan = 20_000
	maxURLLen    = 4 << 10
)

// Save writes ev into the spool and returns its path.
func (s Spool) Save(ev Event) (string, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("create the spool folder: %w", err)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(ev.Body)
	name := fmt.Sprintf("%s-%s.json", ev.ReceivedAt.UTC().Format("20060102T150405.000000000Z"), hex.EncodeToString(sum[:6]))
	p := filepath.Join(s.Dir, name)
	if err := atomicfile.WriteFile(p, b, 0o600); err != nil {
		return "", fmt.Errorf("spool the event: %w", err)
	}
	return p, nil
}

// TranscriptPath is where a spooled event's transcript goes.
func TranscriptPath(eventPath string) string {
	return strings.TrimSuffix(eventPath, ".json") + ".srt"
}

// Recording is a session.recording_completed event in the spool.
type Recording struct {
	Path       string    // the spooled event
	ReceivedAt time.Time // by the listener's clock
	URL        string    // external_storage_url, as received (not sanitised)
	// Transcript is the path of its SRT file, when one was written.
	Transcript string
}

// Recordings lists the spool's recordings, newest first, at most limit
// (MaxRecordings when limit <= 0). A missing folder has none. Files that
// are not spooled events, too large or damaged are skipped.
func (s Spool) Recordings(limit int) ([]Recording, error) {
	if limit <= 0 || limit > MaxRecordings {
		limit = MaxRecordings
	}
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the spool folder: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	// Names start with the time received: newest first.
	slices.Sort(names)
	slices.Reverse(names)
	var out []Recording
	for i, name := range names {
		if len(out) >= limit || i >= maxSpoolScan {
			break
		}
		p := filepath.Join(s.Dir, name)
		rec, ok := readRecording(p)
		if !ok {
			continue
		}
		if _, err := os.Stat(TranscriptPath(p)); err == nil {
			rec.Transcript = TranscriptPath(p)
		}
		out = append(out, rec)
	}
	return out, nil
}

// readRecording reads a spooled event if it is a recording with a usable
// location.
func readRecording(p string) (Recording, bool) {
	b, err := config.ReadCapped(p, maxSpoolFile)
	if err != nil {
		return Recording{}, false
	}
	var ev struct {
		Name       string            `json:"event"`
		Fields     map[string]string `json:"fields"`
		ReceivedAt time.Time         `json:"received_at"`
	}
	if json.Unmarshal(b, &ev) != nil || ev.Name != EventRecordingCompleted {
		return Recording{}, false
	}
	u := ev.Fields[FieldExternalStorageURL]
	if CheckRecordingURL(u) != nil {
		return Recording{}, false
	}
	return Recording{Path: p, ReceivedAt: ev.ReceivedAt, URL: u}, true
}

// CheckRecordingURL accepts an external_storage_url evdesk can hand to the
// transcription service: an absolute http(s) URL of bounded length.
func CheckRecordingURL(s string) error {
	if s == "" {
		return errors.New("the event has no " + FieldExternalStorageURL)
	}
	if len(s) > maxURLLen {
		return fmt.Errorf("%s is %d bytes long (at most %d)", FieldExternalStorageURL, len(s), maxURLLen)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("%s is not an http(s) URL", FieldExternalStorageURL)
	}
	return nil
}
