package roster

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gofrs/flock"

	"github.com/evdesk/evdesk/api"
)

// The registrants listing carries no names (the provider's description
// shows none), so the desk learns them where they exist: from the people
// it registers itself (walk-ins, tickets it creates) and from a names file
// the organiser imports. They are kept beside the roster cache, for every
// desk of the event.

// Name is what the desk knows of a person beyond the roster.
type Name struct {
	First   string `json:"first,omitempty"`
	Last    string `json:"last,omitempty"`
	Company string `json:"company,omitempty"`
	// Source says where it came from: "walk-in", "ticket" or "import".
	Source string `json:"source,omitempty"`
}

// Full is the name as a badge shows it: "Ana Costa".
func (n Name) Full() string { return strings.TrimSpace(n.First + " " + n.Last) }

// Names is an event's book of names, by normalised email. It never changes
// once built.
type Names struct {
	eventID string
	byEmail map[string]Name
}

// Lookup finds the name of an address.
func (n *Names) Lookup(email string) (Name, bool) {
	if n == nil {
		return Name{}, false
	}
	nm, ok := n.byEmail[api.NormalizeEmail(email)]
	return nm, ok
}

// Len is how many people the book names.
func (n *Names) Len() int {
	if n == nil {
		return 0
	}
	return len(n.byEmail)
}

// NamesPath is the names book of an event in dir (the journal folder),
// beside its roster cache.
func NamesPath(dir, eventID string) string {
	return filepath.Join(dir, baseName(eventID, "")+".names.json")
}

// namesFile is the book on disk.
type namesFile struct {
	Version int             `json:"version"`
	EventID string          `json:"event_id"`
	People  map[string]Name `json:"people"`
}

// LoadNames reads the book of eventID; a missing file is an empty book.
func LoadNames(path, eventID string) (*Names, error) {
	removeLeftovers(path, sharedLeftoverAge)
	var f namesFile
	if ok, err := readJSON(path, &f); err != nil {
		return nil, err
	} else if !ok {
		return &Names{eventID: eventID, byEmail: map[string]Name{}}, nil
	}
	switch {
	case f.Version != cacheVersion:
		return nil, fmt.Errorf("names %s: format version %d; this evdesk reads %d", path, f.Version, cacheVersion)
	case f.EventID != eventID:
		return nil, fmt.Errorf("names %s: belongs to event %q", path, f.EventID)
	}
	n := &Names{eventID: eventID, byEmail: make(map[string]Name, len(f.People))}
	for e, nm := range f.People {
		if e = api.NormalizeEmail(e); api.CheckEmail(e) == nil {
			n.byEmail[e] = cleanName(nm)
		}
	}
	return n, nil
}

// AddNames merges names into the book at path (a later name for an
// address replaces the earlier one) and returns the book as saved. Desks
// and imports of the event may add at the same time: a lock beside the
// file keeps each merge whole.
func AddNames(path, eventID string, add map[string]Name) (*Names, error) {
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ensureDir(path); err != nil {
		return nil, err
	}
	if ok, err := lock.TryLockContext(ctx, 20*time.Millisecond); !ok || err != nil {
		return nil, fmt.Errorf("names %s: another evdesk holds it (%v)", path, err)
	}
	defer lock.Unlock()
	cur, err := LoadNames(path, eventID)
	if err != nil {
		// A damaged book is rebuilt from what is added now.
		cur = &Names{eventID: eventID, byEmail: map[string]Name{}}
	}
	next := &Names{eventID: eventID, byEmail: make(map[string]Name, len(cur.byEmail)+len(add))}
	for e, nm := range cur.byEmail {
		next.byEmail[e] = nm
	}
	for e, nm := range add {
		e = api.NormalizeEmail(e)
		if api.CheckEmail(e) != nil {
			continue
		}
		nm = cleanName(nm)
		if old, ok := next.byEmail[e]; ok && nm.Company == "" {
			nm.Company = old.Company // a walk-in's form may not ask it
		}
		next.byEmail[e] = nm
	}
	if err := writeJSON(path, namesFile{Version: cacheVersion, EventID: eventID, People: next.byEmail}); err != nil {
		return nil, fmt.Errorf("names %s: %w", path, err)
	}
	return next, nil
}

func ensureDir(path string) error { return os.MkdirAll(filepath.Dir(path), 0o700) }

// Limits of a name (the provider's first and last names take 64
// characters) and of an imported file.
const (
	maxNameRunes    = 64
	maxCompanyRunes = 128
	// MaxNamesBytes bounds a names file: far beyond the largest event.
	MaxNamesBytes = 64 << 20
)

// cleanName drops control characters and bounds each part.
func cleanName(n Name) Name {
	part := func(s string, limit int) string {
		s = strings.Join(strings.FieldsFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != '\u200c' && r != '\u200d'
		}), " ")
		if r := []rune(s); len(r) > limit {
			s = string(r[:limit])
		}
		return s
	}
	return Name{First: part(n.First, maxNameRunes), Last: part(n.Last, maxNameRunes),
		Company: part(n.Company, maxCompanyRunes), Source: part(n.Source, 16)}
}

// LineError is a line of a names file that was left out, and why.
type LineError struct {
	Line int
	Msg  string
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// header names the columns a names file may have, by the words the
// provider's console and spreadsheets use.
var header = map[string][]string{
	"email":   {"email", "e-mail", "email address", "e-mail address", "mail"},
	"first":   {"first", "first name", "first_name", "firstname", "given name"},
	"last":    {"last", "last name", "last_name", "lastname", "surname", "family name"},
	"company": {"company", "organization", "organisation", "company name", "organization name"},
}

// ReadNamesCSV reads a names file: CSV of email, first, last, company, with
// or without a header row (a header may order the columns otherwise, and
// may name them as the provider's console exports do). Lines that cannot
// be read are returned as LineErrors; the rest are kept.
func ReadNamesCSV(r io.Reader) (map[string]Name, []LineError, error) {
	cr := csv.NewReader(io.LimitReader(r, MaxNamesBytes+1))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	col := map[string]int{"email": 0, "first": 1, "last": 2, "company": 3}
	out := map[string]Name{}
	var bad []LineError
	for first := true; ; first = false {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return out, bad, fmt.Errorf("line %d: not CSV (%v); nothing after it was read", pe.Line, pe.Err)
			}
			return out, bad, err
		}
		n, _ := cr.FieldPos(0) // the file's line, blank lines counted
		if first {
			if h, ok := readHeader(rec); ok {
				col = h
				continue
			}
		}
		get := func(k string) string {
			if i, ok := col[k]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		email := api.NormalizeEmail(strings.TrimPrefix(get("email"), "\ufeff"))
		if email == "" && strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue
		}
		if err := api.CheckEmail(email); err != nil {
			bad = append(bad, LineError{Line: n, Msg: fmt.Sprintf("email %v", err)})
			continue
		}
		nm := Name{First: get("first"), Last: get("last"), Company: get("company"), Source: "import"}
		controlled := false
		for _, p := range []struct {
			what, v string
			max     int
		}{{"first name", nm.First, maxNameRunes}, {"last name", nm.Last, maxNameRunes}, {"company", nm.Company, maxCompanyRunes}} {
			if strings.IndexFunc(p.v, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) >= 0 {
				// An escape sequence's remnant ("[31m") would otherwise
				// stay in the name on every badge.
				bad = append(bad, LineError{Line: n, Msg: p.what + " holds a control character (an escape sequence?): left out; fix the file"})
				controlled = true
			} else if len([]rune(p.v)) > p.max {
				bad = append(bad, LineError{Line: n, Msg: fmt.Sprintf("%s is %d characters long; at most %d are kept", p.what, len([]rune(p.v)), p.max)})
			}
		}
		if !controlled {
			out[email] = cleanName(nm)
		}
	}
	return out, bad, nil
}

// readHeader reads a header row; ok is false when the row is data.
func readHeader(rec []string) (map[string]int, bool) {
	col := map[string]int{}
	for i, cell := range rec {
		cell = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(cell, "\ufeff")))
		for k, names := range header {
			if _, taken := col[k]; !taken && slices.Contains(names, cell) {
				col[k] = i
			}
		}
	}
	_, ok := col["email"]
	return col, ok
}

// WithNames is the roster with names filled in from the book where the
// server gave none, the company beside them, and people the desk
// registered itself (walk-ins, not yet in a download) added. r itself is
// left as it is.
func (r *Roster) WithNames(n *Names, registered []Person) *Roster {
	if r == nil || (n.Len() == 0 && len(registered) == 0) {
		return r
	}
	people := make([]Person, 0, len(r.people)+len(registered))
	for _, p := range r.people {
		people = append(people, n.apply(p))
	}
	for _, p := range registered {
		if _, listed := r.byEmail[api.NormalizeEmail(p.Email)]; !listed {
			people = append(people, n.apply(p))
		}
	}
	return New(r.eventID, r.updated, max(r.total, len(people)), people)
}

func (n *Names) apply(p Person) Person {
	nm, ok := n.Lookup(p.Email)
	if !ok {
		return p
	}
	if p.Name == "" {
		p.Name = nm.Full()
	}
	if p.Company == "" {
		p.Company = nm.Company
	}
	return p
}

// LearnTickets keeps the names of the people a create-tickets call
// registered (the tickets it made, by the names asked for them) in the
// event's names book in dir: every ticket evdesk creates teaches the desks
// a name. Tickets without a name teach nothing.
func LearnTickets(dir, eventID string, asked []api.TicketRequest, res *api.TicketsResult) error {
	if res == nil || dir == "" {
		return nil
	}
	made := map[string]bool{}
	for _, t := range res.Tickets {
		made[api.NormalizeEmail(t.Email)] = true
	}
	names := map[string]Name{}
	for _, t := range asked {
		e := api.NormalizeEmail(t.Email)
		if made[e] && strings.TrimSpace(t.FirstName+t.LastName) != "" {
			names[e] = Name{First: t.FirstName, Last: t.LastName, Company: t.Organization, Source: "ticket"}
		}
	}
	if len(names) == 0 {
		return nil
	}
	_, err := AddNames(NamesPath(dir, eventID), eventID, names)
	return err
}
