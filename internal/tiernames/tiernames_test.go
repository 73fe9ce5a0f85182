package tiernames

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/config"
)

func TestPathFollowsXDG(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if got, want := Path(), filepath.Join(dir, "evdesk", "tiers.toml"); got != want {
		t.Fatalf("Path() = %q, want %q", got, want)
	}
}

func TestMissingFileHoldsNoNames(t *testing.T) {
	n, err := Load(filepath.Join(t.TempDir(), "none", FileName))
	if err != nil || len(n) != 0 {
		t.Fatalf("Load of a missing file: %v, %v", n, err)
	}
	if got := n.Label("tier1"); got != "tier1" {
		t.Fatalf("an unnamed tier's label is its id, got %q", got)
	}
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evdesk", FileName) // the directory is created
	if _, err := Set(path, "VlktEmPVBS8maDiNi3XaqD", " Gold "); err != nil {
		t.Fatal(err)
	}
	names, err := Set(path, "DG5pAVA", "Silver «Zürich»")
	if err != nil {
		t.Fatal(err)
	}
	want := Names{"VlktEmPVBS8maDiNi3XaqD": "Gold", "DG5pAVA": "Silver «Zürich»"}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []Names{names, loaded} {
		if len(got) != len(want) || got["VlktEmPVBS8maDiNi3XaqD"] != "Gold" || got["DG5pAVA"] != "Silver «Zürich»" {
			t.Fatalf("names %v, want %v", got, want)
		}
	}
	raw, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(raw), "# Sponsor tier names for evdesk.") || !strings.Contains(string(raw), "[tiers]") {
		t.Fatalf("the file lacks its header or table:\n%s", raw)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	// A hand edit made meanwhile is kept by the next Set.
	if err := os.WriteFile(path, append(raw, []byte("\"hand\" = \"Bronze\"\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	// An empty name clears.
	names, err = Set(path, "DG5pAVA", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := names["DG5pAVA"]; ok || names["hand"] != "Bronze" || names.Name("VlktEmPVBS8maDiNi3XaqD") != "Gold" {
		t.Fatalf("after clearing: %v", names)
	}
}

func TestValidation(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"", "tier name is empty"},
		{"   ", "tier name is empty"},
		{strings.Repeat("x", MaxNameLen+1), "41 characters long: at most 40"},
		{"Gold\nPlatinum", "one line"},
		{"Gold\tPlatinum", "one line"},
		{"Gold\x1b]52;c;aGk=\a", "escape sequences"},
		{"Gold\u202e", "one line"},
		{"\xff", "one line"},
	} {
		err := CheckName(c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckName(%q) = %v, want %q", c.name, err, c.want)
		}
	}
	if err := CheckName(strings.Repeat("é", MaxNameLen)); err != nil {
		t.Errorf("40 characters (80 bytes) is allowed: %v", err)
	}
	for _, id := range []string{"", "a b", "a\nb", strings.Repeat("i", MaxIDLen+1)} {
		if err := CheckID(id); err == nil {
			t.Errorf("CheckID(%q) accepted", id)
		}
	}
	// Set refuses before touching the file.
	path := filepath.Join(t.TempDir(), FileName)
	if _, err := Set(path, "t1", strings.Repeat("x", 41)); err == nil {
		t.Fatal("Set took a 41-character name")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused name wrote the file: %v", err)
	}
}

// A hostile or broken file is an error naming the file and the line (when
// there is one), never a panic; Set leaves such a file alone.
func TestHostileFile(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line      int
		want      string
	}{
		{"escape in a name", "[tiers]\nt1 = \"Gold\"\nt2 = \"Evil\\u001b]52;c;aGk=\\u0007\"\n", 3, "escape sequences"},
		{"line break in a name", "[tiers]\n\n\"t1\" = \"\"\"Gold\nPlatinum\"\"\"\n", 3, "one line"},
		{"raw control character", "[tiers]\nt1 = \"Go\x07ld\"\n", 2, "control"},
		{"control in an id", "[tiers]\n\"t\\u0000x\" = \"Gold\"\n", 2, "tier id must be one word"},
		{"number", "[tiers]\nt1 = \"Gold\"\nt2 = 3\n", 3, "is a number"},
		{"table", "[tiers]\nt1 = \"Gold\"\n[tiers.t2]\nname = \"x\"\n", 3, "is a table"},
		{"list", "[tiers]\nt1 = [\"Gold\"]\n", 2, "is a list"},
		{"tiers not a table", "tiers = \"Gold\"\n", 1, "tiers"},
		{"unknown key", "# names\n[tiers]\nt1 = \"Gold\"\n[other]\nx = 1\n", 4, "unknown key"},
		{"too long", "[tiers]\nt1 = \"" + strings.Repeat("x", 41) + "\"\n", 2, "at most 40"},
		{"empty", "[tiers]\nt1 = \"\"\n", 2, "tier name is empty"},
		{"not TOML", "[tiers]\nt1 = Gold\n", 2, ""},
		{"deep nesting", "[tiers]\nt1 = " + strings.Repeat("[", 5000) + "\n", 2, "nest"},
		{"invalid UTF-8", "[tiers]\nt1 = \"\xff\"\n", 2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, []byte(c.src), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			var fe *config.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("want a *config.FileError, got %v", err)
			}
			if fe.File != path || fe.Line != c.line || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %q (line %d), want %s:%d and %q", err, fe.Line, path, c.line, c.want)
			}
			if _, err := Set(path, "t9", "Bronze"); err == nil || !strings.Contains(err.Error(), "fix or remove the file") {
				t.Fatalf("Set on a broken file: %v", err)
			}
			if raw, _ := os.ReadFile(path); string(raw) != c.src {
				t.Fatal("Set rewrote a file it could not read")
			}
		})
	}
}

func TestHugeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	src := "[tiers]\n" + strings.Repeat("# padding padding padding padding\n", MaxFileSize/30)
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "over 64 KiB") {
		t.Fatalf("a huge file: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("[tiers]\nt1 = \"Gold\"\n")
	f.Add("[tiers]\n\"a b\" = 1\n")
	f.Fuzz(func(t *testing.T, src string) {
		names, err := Parse("tiers.toml", []byte(src))
		if err != nil {
			return
		}
		for id, name := range names { // whatever Parse accepts is safe to show
			if CheckID(id) != nil || CheckName(name) != nil {
				t.Fatalf("accepted %q = %q", id, name)
			}
		}
	})
}

// The tiers file's limits are within the config file's, whose benchmark of
// the costliest shapes bounds them.
func TestTiersLimitsAreWithinTheConfigFiles(t *testing.T) {
	if limits.MaxBytes > config.ConfigLimits.MaxBytes || limits.MaxEntries > config.ConfigLimits.MaxEntries {
		t.Fatalf("tiers limits %+v exceed the config file's %+v", limits, config.ConfigLimits)
	}
}
