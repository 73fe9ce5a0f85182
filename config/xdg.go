package config

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// configHome is the platform's config home as the xdg package found it at
// start-up.
var configHome = xdg.ConfigHome

// xdgDir returns $env when it holds an absolute path (read at call time,
// so a changed environment is honoured), else fallback.
func xdgDir(env, fallback string) string {
	if v := os.Getenv(env); v != "" && filepath.IsAbs(v) {
		return v
	}
	return fallback
}

// CacheDir is evdesk's directory for what it can fetch again (the change
// log's copy for offline use): $XDG_CACHE_HOME/evdesk (read at call time).
func CacheDir() string { return filepath.Join(xdgDir("XDG_CACHE_HOME", xdg.CacheHome), "evdesk") }
