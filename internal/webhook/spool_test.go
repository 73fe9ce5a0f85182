package webhook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSpoolListsRecordingsNewestFirst(t *testing.T) {
	sp := Spool{Dir: filepath.Join(t.TempDir(), "spool")}
	if recs, err := sp.Recordings(0); err != nil || len(recs) != 0 {
		t.Fatalf("missing folder: %v %v", recs, err)
	}
	rec := func(url string, at time.Time) Event {
		body := []byte(`{"event":"session.recording_completed","payload":{"object":{"external_storage_url":"` + url + `"}}}`)
		env, _ := parseEnvelope(body)
		return newEvent(env, body, "", at, at)
	}
	first, err := sp.Save(rec("https://m.example/one.mp3", t0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Save(rec("https://m.example/two.mp3", t0.Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	other := []byte(`{"event":"session.user_data","payload":{}}`)
	env, _ := parseEnvelope(other)
	if _, err := sp.Save(newEvent(env, other, "", t0, t0)); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Save(rec("javascript:alert(1)", t0.Add(2*time.Minute))); err != nil {
		t.Fatal(err)
	}
	// Files that are not spooled events are skipped, whatever they hold.
	for name, content := range map[string]string{"junk.json": "{not json", "big.json": string(make([]byte, maxSpoolFile+1))} {
		if err := os.WriteFile(filepath.Join(sp.Dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(TranscriptPath(first), []byte("1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, err := sp.Recordings(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].URL != "https://m.example/two.mp3" || recs[1].URL != "https://m.example/one.mp3" {
		b, _ := json.Marshal(recs)
		t.Fatalf("recordings %s", b)
	}
	if recs[1].Transcript != TranscriptPath(first) || recs[0].Transcript != "" || !recs[1].ReceivedAt.Equal(t0) {
		t.Errorf("transcripts %q %q, received %v", recs[0].Transcript, recs[1].Transcript, recs[1].ReceivedAt)
	}
	if st, err := os.Stat(first); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("spooled file mode: %v %v", st.Mode(), err)
	}
	if recs, _ := sp.Recordings(1); len(recs) != 1 {
		t.Errorf("limit 1 gave %d", len(recs))
	}
}
