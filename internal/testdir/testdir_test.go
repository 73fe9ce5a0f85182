package testdir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFastIsAFreshWritableFolderRemovedAfterwards(t *testing.T) {
	var dir string
	t.Run("use", func(t *testing.T) {
		dir = Fast(t)
		if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
			t.Fatalf("not a fresh folder: %v %v", entries, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s is left behind: %v", dir, err)
	}
	if root, ok := memoryRoot(); ok {
		t.Logf("in memory under %s", root)
	}
}
