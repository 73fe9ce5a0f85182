package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/checkin/place"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Where a session's check-in files live: the folder of its server (and
// account) under the journal root (package place). The session finds it
// once, when a command first needs it; only then does a refused folder
// stop anything.

// checkinPlace is a session's server folder, found once.
type checkinPlace struct {
	server place.Server
	// ownsLegacy: the old layout's files are certainly this server's
	// (adopted when the folder is first opened); why says so in words.
	ownsLegacy bool
	why        string

	once  sync.Once
	place place.Place
	err   error
	notes []string // what opening did, for a person
}

// newCheckinPlace is where profile p's check-ins live: its base URL and,
// when it signs in with a stored session that names one, its account (a
// token from the environment names none). The demo's files are never taken
// for anyone's.
func (f *Factory) newCheckinPlace(p config.Profile, demo bool) *checkinPlace {
	c := &checkinPlace{server: place.Server{BaseURL: p.BaseURL}}
	if p.Token == "" {
		if info, err := f.AuthStore(auth.StoreOptions{}).Info(p.Name); err == nil && info.Session != nil {
			c.server.Account = info.Session.AccountID
		}
	}
	if !demo {
		c.ownsLegacy, c.why = ownsLegacy(p)
	}
	return c
}

// profileCheckinDir is the check-in folder of the profile in use, found
// without a session (nothing is sent): for commands that only keep this
// computer's caches (roster names).
func (f *Factory) profileCheckinDir(w io.Writer) (string, error) {
	p, err := f.Profile(f.flags.profile)
	if err != nil {
		return "", err
	}
	if err := p.Validate(); err != nil {
		return "", err
	}
	c := f.newCheckinPlace(p, false)
	pl, err := c.open(config.JournalDir())
	if err != nil {
		return "", err
	}
	for _, n := range c.notes {
		fmt.Fprintln(w, "evdesk: "+sanitize.Line(n))
	}
	return pl.Dir, nil
}

// ownsLegacy reports whether check-in files written before evdesk recorded
// their server are certainly profile p's server's: its base URL comes from
// the config file (not the environment), and no profile there names
// another server. Otherwise they are kept aside.
func ownsLegacy(p config.Profile) (bool, string) {
	if p.File == "" || !strings.HasPrefix(p.Origin(config.FieldBaseURL), p.File) {
		return false, ""
	}
	f, err := config.ReadFile(p.File)
	if err != nil {
		return false, ""
	}
	for _, e := range f.Profiles {
		if e.BaseURL != "" && !config.SameServer(e.BaseURL, p.BaseURL) {
			return false, ""
		}
	}
	return true, fmt.Sprintf("the only server named in %s", p.File)
}

// open finds (and makes) the folder under root.
func (c *checkinPlace) open(root string) (place.Place, error) {
	c.once.Do(func() {
		c.place, c.err = place.Open(root, c.server)
		if c.err != nil || !c.ownsLegacy {
			return
		}
		a, err := c.place.Adopt()
		switch {
		case err != nil:
			c.notes = append(c.notes, "check-in files from before evdesk recorded their server were not moved: "+err.Error())
		case len(a.Busy) > 0:
			c.notes = append(c.notes, fmt.Sprintf("check-in files from before evdesk recorded their server stay in %s while an older evdesk has %s open; they are taken for %s once it closes",
				root, a.Busy[0], c.server))
		case a.Moved > 0:
			c.notes = append(c.notes, fmt.Sprintf("check-in files from before evdesk recorded their server were taken for %s (%s): now in %s",
				c.server, c.why, c.place.Dir))
		}
		for _, k := range a.Kept {
			c.notes = append(c.notes, fmt.Sprintf("%s stays aside: %s has its own file of that name", k, c.place.Dir))
		}
	})
	return c.place, c.err
}

// checkinRoot is the journal root: the state dir's, or the demo's own.
func checkinRoot(s *session) string {
	if s.journalDir != "" {
		return s.journalDir
	}
	return config.JournalDir()
}

// checkinDir is the folder of the session's server, where its check-in
// journals and caches live.
func checkinDir(s *session) (string, error) {
	if s.place == nil {
		return "", errors.New("check-in files: the session names no server")
	}
	p, err := s.place.open(checkinRoot(s))
	if err != nil {
		return "", err
	}
	for _, n := range s.place.notes {
		s.log.Info(n)
	}
	return p.Dir, nil
}

// placeNotes prints what opening the folder did, and where scans of the
// target wait that this server does not send, to w (standard error).
func placeNotes(s *session, w io.Writer, eventID, sessionID string) {
	if s.place == nil {
		return
	}
	for _, n := range s.place.notes {
		fmt.Fprintln(w, "evdesk: "+sanitize.Line(n))
	}
	for _, n := range s.place.place.Elsewhere(eventID, sessionID) {
		fmt.Fprintln(w, "evdesk: "+n)
	}
}

// takeJournal hands the unsent scans of a journal kept aside (FILE, the
// old layout's) to the session's server: they are journaled in its folder
// and marked handed over in FILE, so each is sent once. A journal in
// another server's folder is refused: it is sent only there.
func takeJournal(s *session, dir, file, eventID, sessionID string) (int, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return 0, fmt.Errorf("--journal: %w", err)
	}
	want := scanqueue.FileName(eventID, sessionID)
	if filepath.Base(abs) != want {
		what := "event " + eventID
		if sessionID != "" {
			what += " session " + sessionID
		}
		return 0, fmt.Errorf("--journal %s: the journal of %s is named %s; give that file (or the event and --session it was taken for)",
			sanitize.Line(file), what, want)
	}
	from := filepath.Dir(abs)
	if from == dir {
		return 0, fmt.Errorf("--journal %s is already the journal of %s: `evdesk checkin %s` sends what it holds", sanitize.Line(file), s.place.server, eventID)
	}
	if owner, ok := place.Owner(from); ok {
		return 0, fmt.Errorf("--journal %s belongs to %s: its scans are sent only there (open evdesk with that server's profile)", sanitize.Line(file), owner)
	}
	src, err := scanqueue.Open(from, eventID, sessionID)
	if err != nil {
		return 0, fmt.Errorf("--journal: %w", err)
	}
	defer src.Close()
	dst, err := scanqueue.Open(dir, eventID, sessionID)
	if err != nil {
		return 0, err
	}
	defer dst.Close()
	n, err := dst.Take(src, "handed over to "+s.place.server.String()+" ("+dir+")")
	if err != nil {
		return n, fmt.Errorf("--journal: %w", err)
	}
	return n, nil
}
