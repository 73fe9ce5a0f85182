package changelog

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
)

// NoticeEvery is the least time between two start-up notices.
const NoticeEvery = 24 * time.Hour

// NoticeTimeout bounds the start-up check, fetch included: the console
// never waits for it, and a feed slower than this is skipped for the run.
const NoticeTimeout = 8 * time.Second

// State is what the start-up notice remembers: the newest entry told, and
// when the last notice was shown.
type State struct {
	// SeenDate is the date of the newest entry told; SeenIDs the entries
	// of that date told (several may share a day).
	SeenDate time.Time `json:"seen_date"`
	SeenIDs  []string  `json:"seen_ids,omitempty"`
	NoticeAt time.Time `json:"notice_at"`
}

// StateFile keeps a profile's State, written atomically.
type StateFile struct{ Path string }

// DefaultStateFile is the profile's notice state in the XDG state dir.
func DefaultStateFile(profile string) StateFile {
	return StateFile{Path: filepath.Join(config.StateDir(), "changelog", profile+".json")}
}

// Load reads the state; a missing file is the empty state, and so is a
// damaged one (the worst it costs is one notice told again).
func (s StateFile) Load() State {
	var st State
	b, err := config.ReadCapped(s.Path, 64<<10)
	if err != nil || json.Unmarshal(b, &st) != nil {
		return State{}
	}
	if len(st.SeenIDs) > MaxEntries {
		st.SeenIDs = st.SeenIDs[:MaxEntries]
	}
	return st
}

// Save writes the state.
func (s StateFile) Save(st State) error {
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return err
	}
	b, _ := json.Marshal(st)
	return atomicfile.WriteFile(s.Path, b, 0o600)
}

// Due reports whether a notice may be shown at now.
func (st State) Due(now time.Time) bool {
	return st.NoticeAt.IsZero() || !now.Before(st.NoticeAt.Add(NoticeEvery))
}

// told reports whether e is the newest told or older.
func (st State) told(e Entry) bool {
	switch {
	case st.SeenDate.IsZero():
		return false
	case e.Date.Before(st.SeenDate):
		return true
	case e.Date.Equal(st.SeenDate):
		return slices.Contains(st.SeenIDs, e.ID)
	}
	return false
}

// Tell records e as told at now.
func (st State) Tell(e Entry, now time.Time) State {
	if e.Date.After(st.SeenDate) {
		st.SeenDate, st.SeenIDs = e.Date, nil
	}
	if e.Date.Equal(st.SeenDate) && !slices.Contains(st.SeenIDs, e.ID) {
		st.SeenIDs = append(st.SeenIDs, e.ID)
	}
	st.NoticeAt = now.UTC()
	return st
}

// Pick is the entry to tell: the newest breaking change or deprecation in
// an area evdesk uses that is newer than the last one told.
func Pick(entries []Entry, st State) (Entry, bool) {
	for _, e := range entries { // newest first
		if e.Uses && (e.HasTag(TagBreaking) || e.HasTag(TagDeprecation)) && !e.Date.IsZero() && !st.told(e) {
			return e, true
		}
	}
	return Entry{}, false
}

// NoticeOptions are what the start-up check needs.
type NoticeOptions struct {
	URL    string
	Client *http.Client
	Cache  Cache
	State  StateFile
	Now    time.Time
}

// Notice is the start-up check's outcome.
type Notice struct {
	// Feed is the change log read (fetched or from the cache); nil when
	// neither worked.
	Feed *Feed
	// Entry is the entry to tell, when Show.
	Entry Entry
	Show  bool
}

// StartupNotice reads the change log (the network within NoticeTimeout,
// else the offline copy) and picks the entry to tell, once a day at most;
// a picked entry is recorded as told at once, so it shows once.
func StartupNotice(ctx context.Context, o NoticeOptions) (Notice, error) {
	ctx, cancel := context.WithTimeout(ctx, NoticeTimeout)
	defer cancel()
	res, err := Get(ctx, o.Client, o.Cache, o.URL, o.Now)
	if err != nil {
		return Notice{}, err
	}
	n := Notice{Feed: res.Feed}
	st := o.State.Load()
	if !st.Due(o.Now) {
		return n, nil
	}
	e, ok := Pick(res.Feed.Entries, st)
	if !ok {
		return n, nil
	}
	if err := o.State.Save(st.Tell(e, o.Now)); err != nil {
		// Not remembered: better silent than told again at every start.
		return n, fmt.Errorf("remember the change log notice: %w", err)
	}
	n.Entry, n.Show = e, true
	return n, nil
}
