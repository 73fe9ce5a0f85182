package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
)

func sample() *api.Transcript {
	var tr api.Transcript
	tr.Result.Segments = []api.Segment{{Start: 0.6, End: 3.25, Speaker: "Ana", Text: "Hello."}, {Start: 3725.5, End: 3727, Text: "Bye."}}
	return &tr
}

func TestWriteFormats(t *testing.T) {
	tr := sample()
	var b bytes.Buffer
	if err := Write(&b, tr, FormatText); err != nil {
		t.Fatal(err)
	}
	if want := "[00:00 - 00:03] Ana: Hello.\n[1:02:05 - 1:02:07] Bye.\n"; b.String() != want {
		t.Fatalf("text %q", b.String())
	}
	b.Reset()
	if err := Write(&b, tr, FormatSRT); err != nil {
		t.Fatal(err)
	}
	if want := "1\n00:00:00,600 --> 00:00:03,250\nAna: Hello.\n\n2\n01:02:05,500 --> 01:02:07,000\nBye.\n\n"; b.String() != want {
		t.Fatalf("srt %q", b.String())
	}
	if err := Write(&b, tr, "vtt"); err == nil || !strings.Contains(err.Error(), `"vtt" is not a transcript format; use text or srt`) {
		t.Fatalf("unknown format: %v", err)
	}
}

// A line break from the server would end an SRT cue early: each segment
// stays on one line.
func TestSegmentsStayOnOneLine(t *testing.T) {
	var tr api.Transcript
	tr.Result.Segments = []api.Segment{{Start: 1, End: 2, Text: "one\n\nTWO\x1b[31m"}}
	var b bytes.Buffer
	if err := WriteSRT(&b, &tr); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "\n"); got != 4 || strings.Contains(b.String(), "\x1b") {
		t.Fatalf("srt %q", b.String())
	}
}

func TestSaveWritesThePrivateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keynote.srt")
	if err := Save(path, sample(), FormatSRT); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "1\n00:00:00,600 --> ") {
		t.Fatalf("%v %q", err, b)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	// A format it cannot write leaves the saved file as it was.
	if err := Save(path, sample(), "vtt"); err == nil {
		t.Fatal("saved an unknown format")
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, b) {
		t.Fatal("a failed save changed the file")
	}
}
