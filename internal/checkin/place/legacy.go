package place

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"

	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/walkin"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// legacyDirs are the folders of the root's old layout that belong to the
// files beside them: a desk's share of its venue, and a watcher's.
var legacyDirs = []string{"venue", "stats"}

// Adopted is what Adopt did.
type Adopted struct {
	// Moved counts the files and folders moved into the server's folder.
	Moved int
	// Busy names journals an older evdesk still has open: nothing was
	// moved, and Adopt tries again next time.
	Busy []string
	// Kept names files left where they were because the server's folder
	// has its own of that name.
	Kept []string
}

// Legacy lists the files and folders of the root's old layout (before
// servers were recorded): every entry of root but the servers' folder,
// locks and temporary files.
func Legacy(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("check-in files: %w", err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == "servers", strings.HasPrefix(name, "."), strings.HasSuffix(name, ".lock"):
			continue
		case e.IsDir():
			for _, d := range legacyDirs {
				if name == d {
					out = append(out, name)
				}
			}
		case e.Type().IsRegular():
			out = append(out, name)
		}
	}
	return out, nil
}

// Adopt moves the old layout's files into p's folder. Call it only when
// they are certainly p's server's (the profile's own base URL, from the
// config file, with no other server configured). Journals are moved under
// their locks; while an older evdesk holds any of them, nothing moves.
func (p Place) Adopt() (Adopted, error) {
	var a Adopted
	names, err := Legacy(p.Root)
	if err != nil || len(names) == 0 {
		return a, err
	}
	var locks []*flock.Flock
	defer func() {
		for _, l := range locks {
			_ = l.Unlock()
		}
	}()
	for _, name := range names {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		l := flock.New(filepath.Join(p.Root, name+".lock"), flock.SetPermissions(0o600))
		ok, err := l.TryLock()
		if err != nil {
			return a, fmt.Errorf("check-in files: lock %s: %w", l.Path(), err)
		}
		if !ok {
			a.Busy = append(a.Busy, filepath.Join(p.Root, name))
			continue
		}
		locks = append(locks, l)
	}
	if len(a.Busy) > 0 {
		return a, nil
	}
	for _, name := range names {
		from, to := filepath.Join(p.Root, name), filepath.Join(p.Dir, name)
		if _, err := os.Lstat(to); err == nil {
			a.Kept = append(a.Kept, from)
			continue
		}
		if err := os.Rename(from, to); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // another evdesk took it meanwhile
			}
			return a, fmt.Errorf("check-in files: move %s into %s: %w", from, p.Dir, err)
		}
		a.Moved++
	}
	return a, nil
}

// Elsewhere says, in words, where scans of an event (or session) wait that
// this place does not send: in the old layout (kept aside until a person
// says whose they are) and in other servers' folders. The words name the
// files and how to send them.
func (p Place) Elsewhere(eventID, sessionID string) []string {
	if p.Root == "" {
		return nil
	}
	var notes []string
	journal := scanqueue.FileName(eventID, sessionID)
	target := "event " + eventID
	flags := ""
	if sessionID != "" {
		target += " session " + sessionID
		flags = " --session " + sessionID
	}
	if n, _ := scanqueue.PendingIn(p.Root, eventID, sessionID); n > 0 {
		were, they := "were", "they are"
		if n == 1 {
			were, they = "was", "it is"
		}
		notes = append(notes, fmt.Sprintf("%s of %s %s journaled before evdesk recorded which server scans belong to: %s kept aside in %s and sent nowhere. If %s for %s, send %s there with `evdesk checkin %s%s --journal %s`",
			scans(n), target, were, they, filepath.Join(p.Root, journal), map[bool]string{true: "it was taken", false: "they were taken"}[n == 1],
			p.Server, map[bool]string{true: "it", false: "them"}[n == 1], eventID, flags, filepath.Join(p.Root, journal)))
	}
	if n, _ := walkin.UnsettledIn(p.Root, eventID, sessionID); n > 0 {
		file := walkin.Path(p.Root, eventID, sessionID)
		notes = append(notes, fmt.Sprintf("%s of %s taken before evdesk recorded which server they belong to %s kept aside in %s and sent nowhere. If they were taken for %s, move the file into %s while no desk of the event is open (when that folder has none of its own), and the desk sends them",
			count(n, "walk-in registration"), target, isAre(n), file, p.Server, p.Dir))
	}
	entries, _ := os.ReadDir(ServersDir(p.Root))
	for _, e := range entries {
		dir := filepath.Join(ServersDir(p.Root), e.Name())
		if !e.IsDir() || dir == p.Dir {
			continue
		}
		m, err := readMarker(dir)
		if err != nil {
			continue
		}
		if n, _ := walkin.UnsettledIn(dir, eventID, sessionID); n > 0 {
			notes = append(notes, fmt.Sprintf("%s of %s %s to %s and %s in %s: sent only there",
				count(n, "walk-in registration"), target, map[bool]string{true: "belongs", false: "belong"}[n == 1], markerServer(m),
				map[bool]string{true: "waits", false: "wait"}[n == 1], walkin.Path(dir, eventID, sessionID)))
		}
		if n, _ := scanqueue.PendingIn(dir, eventID, sessionID); n > 0 {
			belong, wait, they, them := "belong", "wait", "they are", "them"
			if n == 1 {
				belong, wait, they, them = "belongs", "waits", "it is", "it"
			}
			notes = append(notes, fmt.Sprintf("%s of %s %s to %s and %s in %s: %s sent only there; open evdesk with that server's profile to send %s",
				scans(n), target, belong, markerServer(m), wait, filepath.Join(dir, journal), they, them))
		}
	}
	for i := range notes {
		notes[i] = sanitize.Line(notes[i])
	}
	return notes
}

func scans(n int) string { return count(n, "unsent scan") }

// count is "1 thing" or "n things".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
