package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/config"
)

// TestEnvironmentTopicNamesEveryVariable reads the program's source (not
// its tests): every EVDESK_* variable it names is in config.EnvVars, so
// `evdesk help environment` cannot fall behind the code.
func TestEnvironmentTopicNamesEveryVariable(t *testing.T) {
	known := map[string]bool{}
	for _, v := range config.EnvVars {
		known[v.Name] = true
	}
	literal := regexp.MustCompile(`"(EVDESK_[A-Z0-9_]+)"`)
	root := filepath.Join("..", "..")
	var missing []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "e2e" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			if !known[m[1]] && !slices.Contains(missing, m[1]) {
				missing = append(missing, m[1]+" ("+path+")")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Fatalf("not in config.EnvVars (so not in `evdesk help environment`): %s", strings.Join(missing, ", "))
	}
}
