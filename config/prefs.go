package config

import (
	"fmt"
	"slices"
	"strings"
)

// Console preferences of a profile: read_only, theme and reduce_motion.
const (
	// FieldReadOnly makes every session of the profile read-only
	// (read_only = true): the console's writes are unavailable and the
	// CLI's write commands refuse (supervisor and projector screens).
	FieldReadOnly = "read_only"
	// FieldTheme is the console's theme: auto (ask the terminal), dark,
	// light or high-contrast, for terminals that do not say.
	FieldTheme = "theme"
	// FieldReduceMotion stops the spinner and other animation
	// (reduce_motion = true).
	FieldReduceMotion = "reduce_motion"
)

// Themes are the values of theme; ThemeAuto asks the terminal.
const (
	ThemeAuto         = "auto"
	ThemeDark         = "dark"
	ThemeLight        = "light"
	ThemeHighContrast = "high-contrast"
)

// Themes lists the themes a profile, --theme and EVDESK_THEME take.
var Themes = []string{ThemeAuto, ThemeDark, ThemeLight, ThemeHighContrast}

// CheckTheme says what is wrong with a theme name, or nil.
func CheckTheme(name string) error {
	if slices.Contains(Themes, name) {
		return nil
	}
	return fmt.Errorf("%q is not a theme: use %s", name, strings.Join(Themes, ", "))
}

// applyPreferences reads the preferences of a profile entry (e may be
// nil) and the environment, which wins.
func applyPreferences(p *Profile, e *ProfileEntry, origin func(field string) string, lookup func(string) (string, bool)) {
	if e != nil {
		if e.ReadOnly != nil {
			p.ReadOnly = *e.ReadOnly
			p.setOrigin(FieldReadOnly, origin(FieldReadOnly))
		}
		if e.Theme != "" {
			p.Theme = e.Theme
			p.setOrigin(FieldTheme, origin(FieldTheme))
		}
		if e.ReduceMotion != nil {
			p.ReduceMotion = *e.ReduceMotion
			p.setOrigin(FieldReduceMotion, origin(FieldReduceMotion))
		}
	}
	if v := getenv(lookup, EnvReadOnly); v != "" {
		p.ReadOnly = ParseBool(v)
		p.setOrigin(FieldReadOnly, EnvReadOnly)
	}
	if v := getenv(lookup, EnvTheme); v != "" {
		p.Theme = strings.ToLower(v)
		p.setOrigin(FieldTheme, EnvTheme)
	}
	if p.Theme == "" {
		p.Theme = ThemeAuto
	}
}

// ParseBool reads a yes from the environment: 1, true, yes or on.
func ParseBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// ReadOnlyReason says why the profile is read-only ("" when it is not), in
// the words a refusal shows.
func (p Profile) ReadOnlyReason() string {
	if !p.ReadOnly {
		return ""
	}
	if o := p.Origin(FieldReadOnly); o == EnvReadOnly {
		return EnvReadOnly + " is set"
	}
	if p.File != "" {
		return fmt.Sprintf("profile %q has read_only = true (%s)", p.Name, p.File)
	}
	return "read-only"
}
