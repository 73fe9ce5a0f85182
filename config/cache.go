package config

import (
	"path/filepath"

	"github.com/adrg/xdg"
)

// CacheDir is evdesk's directory for what can be fetched again (shell
// completion's answers, the change log's copy for offline use):
// $XDG_CACHE_HOME/evdesk (read at call time).
func CacheDir() string { return filepath.Join(xdgDir("XDG_CACHE_HOME", xdg.CacheHome), "evdesk") }

// JournalDir is where the check-in journals, and the roster and arrivals
// caches beside them, live.
func JournalDir() string { return filepath.Join(StateDir(), "journal") }
