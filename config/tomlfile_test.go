package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReadCapped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.toml")
	if err := os.WriteFile(path, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if src, err := ReadCapped(path, 5); err != nil || string(src) != "12345" {
		t.Fatalf("at the cap: %q, %v", src, err)
	}
	if _, err := ReadCapped(path, 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the cap: %v", err)
	}
	if _, err := ReadCapped(filepath.Join(dir, "none.toml"), 4); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

func TestDecodeTOMLNamesFileAndLine(t *testing.T) {
	var v struct{ A map[string]string }
	_, err := DecodeTOML("t.toml", []byte("[a]\nx = \"1\"\ny = 2\n"), ConfigLimits, &v)
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != "t.toml" || fe.Line != 3 {
		t.Fatalf("want a FileError at t.toml:3, got %#v", err)
	}
	if got := KeyLine([]byte("# c\n[a]\n\"x.y\" = 1\n"), "a", "x.y"); got != 3 {
		t.Fatalf("KeyLine = %d, want 3", got)
	}
	// An escaped quoted key is found by what it decodes to.
	if got := KeyLine([]byte("[a]\n\"t\\u0000x\\\"\" = 1\n"), "a", "t\x00x\""); got != 2 {
		t.Fatalf("KeyLine of an escaped key = %d, want 2", got)
	}
}
