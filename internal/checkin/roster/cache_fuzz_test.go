package roster

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: a damaged or hostile cache file is an error or a roster, never
// a panic (the caches are decoded with goccy/go-json, for speed).
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"version":1,"event_id":"e","people":[{"email":"a@b.co","tickets":[{"ticket_id":"t"}]}]}`))
	f.Add([]byte(`{"version":1,"event_id":"e","people":[{"email":"\u001b[2J@b.co","name":"x\ud800"}]}`))
	f.Add([]byte(`{"version":1,"people":[[[[{"email":1}]]]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "roster.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if r, err := Load(path, "e"); err == nil && r != nil {
			_ = r.Len()
		}
	})
}
