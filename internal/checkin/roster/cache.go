package roster

import (
	"errors"
	"fmt"
	json "github.com/goccy/go-json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// cacheVersion is the format of the cache files; a file of another version
// is ignored (downloaded again), never misread.
const cacheVersion = 1

// maxCacheBytes bounds what a cache file may hold: far beyond the roster of
// the largest event, short of a file that would exhaust memory.
const maxCacheBytes = 256 << 20

// baseName is the journal's file name without its extension, so the caches
// sit beside the journal under the same (safe) name.
func baseName(eventID, sessionID string) string {
	return strings.TrimSuffix(scanqueue.FileName(eventID, sessionID), ".jsonl")
}

// CachePath is the roster cache of an event in dir (the journal folder).
// Desks of the event and of its sessions share it: a session's attendees
// are the event's registrants.
func CachePath(dir, eventID string) string {
	return filepath.Join(dir, baseName(eventID, "")+".roster.json")
}

// rosterFile is the roster cache on disk.
type rosterFile struct {
	Version int       `json:"version"`
	EventID string    `json:"event_id"`
	Updated time.Time `json:"updated"`
	Total   int       `json:"total"`
	People  []Person  `json:"people"`
}

// Save writes r to path atomically (0600: addresses are personal data).
func Save(path string, r *Roster) error {
	f := rosterFile{Version: cacheVersion, EventID: r.eventID, Updated: r.updated, Total: r.total, People: r.people}
	return writeJSON(path, f)
}

// Load reads a roster cache written by Save for eventID. A missing file is
// (nil, nil); a file of another event or version, or a damaged one, is an
// error that says so (the caller downloads the roster again).
func Load(path, eventID string) (*Roster, error) {
	removeLeftovers(path, sharedLeftoverAge)
	var f rosterFile
	if ok, err := readJSON(path, &f); !ok || err != nil {
		return nil, err
	}
	switch {
	case f.Version != cacheVersion:
		return nil, fmt.Errorf("roster cache %s: format version %d; this evdesk reads %d", path, f.Version, cacheVersion)
	case f.EventID != eventID:
		return nil, fmt.Errorf("roster cache %s: belongs to event %q", path, f.EventID)
	}
	return New(f.EventID, f.Updated, f.Total, f.People), nil
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, 0o600, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	})
}

// readJSON decodes path into v, bounded; ok is false when there is no file.
func readJSON(path string, v any) (ok bool, err error) {
	fh, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer fh.Close()
	dec := json.NewDecoder(io.LimitReader(fh, maxCacheBytes))
	if err := dec.Decode(v); err != nil {
		return false, fmt.Errorf("cache %s is damaged or too large (%v); it will be downloaded again", path, err)
	}
	return true, nil
}

// removeLeftovers deletes temporary files a crash left while path was
// being written (atomicfile names them .<name>.*.tmp) that are older than
// age: 0 when no other writer of path can be at work (the journal's lock is
// held), longer for a file desks share.
func removeLeftovers(path string, age time.Duration) {
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp"))
	for _, p := range tmps {
		if fi, err := os.Stat(p); err == nil && time.Since(fi.ModTime()) >= age {
			_ = os.Remove(p)
		}
	}
}

// sharedLeftoverAge is how old a temporary file of the shared roster cache
// must be to be a leftover: a save takes well under a second.
const sharedLeftoverAge = 10 * time.Minute
