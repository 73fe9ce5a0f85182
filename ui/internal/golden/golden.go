// Package golden compares rendered views with files in testdata/. Run the
// tests with -update to rewrite the files after an intended change.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// Assert compares view, stripped of escape codes and trailing spaces, with
// testdata/<name>.golden.
func Assert(t testing.TB, name, view string) {
	t.Helper()
	got := Plain(view)
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// Plain strips escape codes and trailing spaces, the form goldens hold.
func Plain(view string) string {
	lines := strings.Split(ansi.Strip(view), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}
