package config

import (
	"fmt"
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

// WriteFileAtomic writes data to path through a temporary file in the same
// directory that is synced, given mode perm and renamed over path, so
// readers see the old or the new content, never a mix.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("set mode of %s: %w", tmp.Name(), err)
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil { // persist the rename; best effort
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
