package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// entries lists the names in dir, so a test can see a leftover temp file.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteReplacesTheContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, []byte("old content that is longer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Fatalf("content %q", b)
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "out.csv" {
		t.Fatalf("directory holds %v, want only out.csv", names)
	}
}

func TestAFailingWriteLeavesTheOldFileIntact(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := Write(path, 0o600, func(w io.Writer) error {
		if _, err := io.WriteString(w, "half of the new"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the writer's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("the old file changed: %q", b)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Fatalf("a temporary file was left behind: %v", names)
	}
}

func TestWriteSetsThePermissionBits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no Unix permission bits")
	}
	dir := t.TempDir()
	for _, perm := range []fs.FileMode{0o600, 0o644} {
		path := filepath.Join(dir, perm.String())
		// An existing file's wider mode does not survive: the new file
		// has exactly perm, whatever the umask.
		if err := os.WriteFile(path, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, []byte("x"), perm); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != perm {
			t.Errorf("mode %v, want %v", got, perm)
		}
	}
}

func TestWriteIntoAMissingDirectoryFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", "f")
	called := false
	err := Write(path, 0o600, func(io.Writer) error { called = true; return nil })
	if !errors.Is(err, fs.ErrNotExist) || called {
		t.Fatalf("error %v, writer called %v", err, called)
	}
}
