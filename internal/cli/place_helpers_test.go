package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/checkin/place"
)

// serverDir is the check-in folder of the server EVDESK_BASE_URL names
// (with a token from the environment: no account), under the test's state
// dir.
func serverDir(t *testing.T) string {
	t.Helper()
	base := os.Getenv(config.EnvBaseURL)
	if base == "" {
		t.Fatal("serverDir: EVDESK_BASE_URL is not set")
	}
	return folderOf(base)
}

// folderOf is the check-in folder of a server reached with a token.
func folderOf(base string) string {
	return filepath.Join(place.ServersDir(config.JournalDir()), place.FolderName(place.Server{BaseURL: base}))
}
