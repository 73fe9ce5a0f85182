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
