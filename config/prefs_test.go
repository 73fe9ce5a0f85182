package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPreferencesFromFileAndEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	src := "[profiles.wall]\nbase_url = \"https://api.example.com/v2\"\nread_only = true\ntheme = \"high-contrast\"\nreduce_motion = true\n" +
		"[profiles.plain]\nbase_url = \"https://api.example.com/v2\"\n" +
		"[profiles.odd]\nbase_url = \"https://api.example.com/v2\"\ntheme = \"neon\"\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	wall, err := Resolve(path, "wall", lookupFrom(nil))
	if err != nil || !wall.ReadOnly || wall.Theme != ThemeHighContrast || !wall.ReduceMotion ||
		!strings.Contains(wall.ReadOnlyReason(), `profile "wall" has read_only = true`) {
		t.Fatalf("wall: %+v %v", wall, err)
	}
	plain, _ := Resolve(path, "plain", lookupFrom(nil))
	if plain.ReadOnly || plain.Theme != ThemeAuto || plain.ReduceMotion || plain.ReadOnlyReason() != "" {
		t.Fatalf("plain: %+v", plain)
	}
	env, _ := Resolve(path, "plain", lookupFrom(map[string]string{EnvReadOnly: "1", EnvTheme: "Light"}))
	if !env.ReadOnly || env.Theme != ThemeLight || env.ReadOnlyReason() != EnvReadOnly+" is set" {
		t.Fatalf("environment: %+v", env)
	}
	odd, _ := Resolve(path, "odd", lookupFrom(nil))
	if err := odd.Validate(); err == nil || !strings.Contains(err.Error(), path+":10: profiles.odd.theme") ||
		!strings.Contains(err.Error(), `"neon" is not a theme: use auto, dark, light, high-contrast`) {
		t.Fatalf("bad theme: %v", err)
	}
}
