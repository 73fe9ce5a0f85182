package place

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/walkin"
)

func open(t *testing.T, root string, s Server) Place {
	t.Helper()
	p, err := Open(root, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// journalWith writes a journal of event ev in dir with emails pending.
func journalWith(t *testing.T, dir, ev string, emails ...string) {
	t.Helper()
	j, err := scanqueue.Open(dir, ev, "")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := j.ScanMany(emails, "Door A"); err != nil {
		t.Fatal(err)
	}
}

func TestEachServerHasAFolderOfItsOwn(t *testing.T) {
	root := t.TempDir()
	a := open(t, root, Server{BaseURL: "https://api.example.com/v2"})
	same := open(t, root, Server{BaseURL: "HTTPS://API.Example.com:443/v2/"})
	b := open(t, root, Server{BaseURL: "https://staging.example.com/v2"})
	port := open(t, root, Server{BaseURL: "http://127.0.0.1:8080/v2"})
	acct := open(t, root, Server{BaseURL: "https://api.example.com/v2", Account: "acc-2"})
	if a.Dir != same.Dir {
		t.Fatalf("one server spelt two ways has two folders: %s %s", a.Dir, same.Dir)
	}
	seen := map[string]bool{}
	for _, p := range []Place{a, b, port, acct} {
		if seen[p.Dir] {
			t.Fatalf("two servers share %s", p.Dir)
		}
		seen[p.Dir] = true
		if filepath.Dir(p.Dir) != ServersDir(root) {
			t.Fatalf("%s is not in %s", p.Dir, ServersDir(root))
		}
		data, err := os.ReadFile(filepath.Join(p.Dir, "server.json"))
		if err != nil || !strings.Contains(string(data), `"key": "`+p.Server.Key()+`"`) {
			t.Fatalf("record of %s: %s %v", p.Dir, data, err)
		}
	}
	for dir, want := range map[string]string{a.Dir: "api.example.com-", port.Dir: "127.0.0.1_8080-", b.Dir: "staging.example.com-"} {
		if !strings.HasPrefix(filepath.Base(dir), want) || len(filepath.Base(dir)) != len(want)+12 {
			t.Errorf("folder %s, want %s and 12 hex digits", filepath.Base(dir), want)
		}
	}
}

// A base URL crafted to reach outside the state dir, or to land in another
// server's folder, is kept in or refused.
func TestHostileBaseURLsStayInTheirFolderOrAreRefused(t *testing.T) {
	root := t.TempDir()
	for _, base := range []string{
		"http://../../../etc/v2", "http://..%2f..%2f/v2", "http://%2e%2e/v2", "http://a/../../../v2",
		"http://[::1]:99/v2", "https://xn--80ak6aa92e.com/v2", "http://" + strings.Repeat("a", 300) + ".example/v2",
		"http://.hidden/v2", "http://a\\b/v2",
	} {
		p, err := Open(root, Server{BaseURL: base})
		if err != nil {
			continue // refused: fine
		}
		name := filepath.Base(p.Dir)
		t.Logf("%q -> %s", base, name)
		if filepath.Dir(p.Dir) != ServersDir(root) || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) || len(name) > maxLabel+13 {
			t.Errorf("%q went to %s", base, p.Dir)
		}
	}
	for _, base := range []string{"", "file:///etc/passwd", "/v2", "ftp://example.com/v2", "javascript:alert(1)"} {
		if _, err := Open(root, Server{BaseURL: base}); err == nil || !strings.Contains(err.Error(), "http(s) URL") {
			t.Errorf("%q: %v", base, err)
		}
	}

	// A folder whose record names another server (a collision of names,
	// or a record written by hand) is refused, its files untouched.
	victim := Server{BaseURL: "https://api.example.com/v2"}
	p := open(t, root, victim)
	journalWith(t, p.Dir, "ev1", "ana@example.org")
	forged := `{"version":1,"key":"https://evil.example:443/v2","base_url":"https://evil.example:443/v2"}`
	if err := os.WriteFile(filepath.Join(p.Dir, "server.json"), []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(root, victim)
	if !errors.Is(err, ErrOtherServer) || !strings.Contains(err.Error(), "evil.example") || !strings.Contains(err.Error(), "will not mix them") {
		t.Fatalf("a folder recorded for another server: %v", err)
	}
	// Files without a record are nobody's.
	if err := os.Remove(filepath.Join(p.Dir, "server.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, victim); !errors.Is(err, ErrOtherServer) || !strings.Contains(err.Error(), "no record") {
		t.Fatalf("a folder with files and no record: %v", err)
	}
	// A record that is not one, or too big to be one.
	if err := os.WriteFile(filepath.Join(p.Dir, "server.json"), []byte(strings.Repeat("x", maxMarkerBytes+10)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, victim); !errors.Is(err, ErrOtherServer) {
		t.Fatalf("a record too big: %v", err)
	}
	// A link in place of the folder.
	other := Server{BaseURL: "https://links.example.com/v2"}
	if err := os.Symlink(t.TempDir(), filepath.Join(ServersDir(root), FolderName(other))); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, other); err == nil || !strings.Contains(err.Error(), "not a plain folder") {
		t.Fatalf("a link: %v", err)
	}
}

func TestAdoptMovesTheOldLayoutUnderItsLocks(t *testing.T) {
	root := t.TempDir()
	journalWith(t, root, "ev1", "ana@example.org")
	journalWith(t, root, "ev2", "bo@example.org")
	for _, name := range []string{"ev1.roster.json", "ev1.arrivals.json", "ev1.names.json"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "venue", "0123456789abcdef"), 0o700); err != nil {
		t.Fatal(err)
	}
	p := open(t, root, Server{BaseURL: "https://api.example.com/v2"})

	// An older evdesk has a journal open: nothing moves yet.
	l := flock.New(filepath.Join(root, "ev2.jsonl.lock"))
	if ok, err := l.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	a, err := p.Adopt()
	if err != nil || a.Moved != 0 || len(a.Busy) != 1 || !strings.HasSuffix(a.Busy[0], "ev2.jsonl") {
		t.Fatalf("busy: %+v %v", a, err)
	}
	_ = l.Unlock()

	a, err = p.Adopt()
	if err != nil || a.Moved != 6 || len(a.Busy) != 0 {
		t.Fatalf("adopt: %+v %v", a, err)
	}
	if n, err := scanqueue.PendingIn(p.Dir, "ev1", ""); n != 1 || err != nil {
		t.Fatalf("ev1 in the server's folder: %d %v", n, err)
	}
	if left, _ := Legacy(root); len(left) != 0 {
		t.Fatalf("left in the old layout: %v", left)
	}
	if _, err := os.Stat(filepath.Join(p.Dir, "venue", "0123456789abcdef")); err != nil {
		t.Fatal(err)
	}

	// A later old file whose name the server's folder has is kept aside.
	journalWith(t, root, "ev1", "cy@example.org")
	if a, err = p.Adopt(); err != nil || a.Moved != 0 || len(a.Kept) != 1 {
		t.Fatalf("kept: %+v %v", a, err)
	}
}

func TestElsewhereTellsOfScansThisServerDoesNotSend(t *testing.T) {
	root := t.TempDir()
	journalWith(t, root, "ev1", "ana@example.org", "bo@example.org")
	prod := open(t, root, Server{BaseURL: "https://api.example.com/v2"})
	journalWith(t, prod.Dir, "ev1", "cy@example.org")
	staging := open(t, root, Server{BaseURL: "https://staging.example.com/v2"})

	w, err := walkin.Open(root, "ev1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(walkin.Walkin{Email: "dee@example.org", First: "Dee"}); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()

	notes := staging.Elsewhere("ev1", "")
	if len(notes) != 3 || !strings.Contains(notes[1], "1 walk-in registration of event ev1 taken before") ||
		!strings.Contains(notes[1], "move the file into "+staging.Dir) {
		t.Fatalf("notes: %q", notes)
	}
	notes = append(notes[:1], notes[2:]...)
	if len(notes) != 2 {
		t.Fatalf("notes: %q", notes)
	}
	if !strings.Contains(notes[0], "2 unsent scans of event ev1 were journaled before") ||
		!strings.Contains(notes[0], "--journal "+filepath.Join(root, "ev1.jsonl")) {
		t.Errorf("the old layout: %s", notes[0])
	}
	if !strings.Contains(notes[1], "1 unsent scan of event ev1 belongs to api.example.com") || !strings.Contains(notes[1], "sent only there") {
		t.Errorf("another server: %s", notes[1])
	}
	if got := prod.Elsewhere("ev2", ""); len(got) != 0 {
		t.Errorf("another event: %q", got)
	}
	// Reading left every file as it was: nothing set aside, nothing locked.
	if _, err := os.Stat(filepath.Join(root, "ev1.jsonl.damaged")); !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if n, err := walkin.UnsettledIn(root, "ev1", ""); n != 1 || err != nil {
		t.Fatalf("walk-ins read again: %d %v", n, err)
	}
}
