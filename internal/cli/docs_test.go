package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

var update = flag.Bool("update", false, "rewrite the CLI reference in docs/cli and docs/man")

// The reference lives at the repository's root; tests run in internal/cli.
var (
	markdownDir = filepath.Join("..", "..", "docs", "cli")
	manDir      = filepath.Join("..", "..", "docs", "man")
)

// referenceRoot is the command tree as a user's machine would show it:
// defaults that depend on the machine (none today) would be fixed here.
func referenceRoot(t *testing.T) *cobra.Command {
	t.Helper()
	ios, _, _, _ := TestStreams()
	root := NewRootCmd(NewFactory(ios))
	root.DisableAutoGenTag = true // no generation date: the files change only with the commands
	return root
}

// generate writes the Markdown reference and the man pages into dir.
func generate(t *testing.T, md, man string) {
	t.Helper()
	for _, d := range []string{md, man} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := doc.GenMarkdownTree(referenceRoot(t), md); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // fixed: pages change only with the commands
	if err := doc.GenManTree(referenceRoot(t), &doc.GenManHeader{Title: "EVDESK", Section: "1", Source: "evdesk",
		Manual: "evdesk manual", Date: &day}, man); err != nil {
		t.Fatal(err)
	}
}

// TestCLIReferenceIsFresh fails when docs/cli or docs/man no longer match
// the commands: go test ./internal/cli -run TestCLIReference -update
// writes them again.
func TestCLIReferenceIsFresh(t *testing.T) {
	if *update {
		for _, d := range []string{markdownDir, manDir} {
			if err := os.RemoveAll(d); err != nil {
				t.Fatal(err)
			}
		}
		generate(t, markdownDir, manDir)
		return
	}
	tmp := t.TempDir()
	md, man := filepath.Join(tmp, "cli"), filepath.Join(tmp, "man")
	generate(t, md, man)
	for _, pair := range [][2]string{{md, markdownDir}, {man, manDir}} {
		want, got := readDir(t, pair[0]), readDir(t, pair[1])
		var stale []string
		for name, body := range want {
			if !bytes.Equal(got[name], body) {
				stale = append(stale, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				stale = append(stale, name+" (no such command now)")
			}
		}
		if len(stale) > 0 {
			slices.Sort(stale)
			t.Errorf("%s is stale (%s): run go test ./internal/cli -run TestCLIReference -update",
				pair[1], strings.Join(stale, ", "))
		}
	}
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}
