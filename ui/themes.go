package ui

import "charm.land/lipgloss/v2"

// Theme modes, as the profile's theme, --theme and EVDESK_THEME name them.
const (
	ThemeAuto         = "auto"          // follow the background the terminal reports
	ThemeDark         = "dark"          // for terminals that do not report it
	ThemeLight        = "light"         //
	ThemeHighContrast = "high-contrast" // strong colours, bold marks, no dim text
)

// ThemeFor builds the theme of a mode for a dark or light background (the
// terminal's, or the mode's own for dark and light). NO_COLOR wins over
// any mode: attributes only.
func ThemeFor(mode string, dark, noColor bool) *Theme {
	switch mode {
	case ThemeDark:
		dark = true
	case ThemeLight:
		dark = false
	case ThemeHighContrast:
		if !noColor && !NoColorEnv() {
			return NewHighContrastTheme(dark)
		}
	}
	return NewTheme(dark, noColor)
}

// FollowsBackground reports whether a mode changes with the terminal's
// reported background.
func FollowsBackground(mode string) bool {
	return mode == "" || mode == ThemeAuto || mode == ThemeHighContrast
}

// NewHighContrastTheme is for low vision and bright rooms (a projector, a
// desk by a window): pure black and white with saturated accents, no dim
// grey, and bold on every status colour, so no meaning rests on a shade.
func NewHighContrastTheme(dark bool) *Theme {
	c := lipgloss.Color
	fg, bg := c("#FFFFFF"), c("#000000")
	p := palette{muted: fg, accent: c("#FFFF00"), accentFg: bg, barBg: fg, barFg: bg, sel: c("#FFFF00"), selFg: bg,
		success: c("#00FF00"), errc: c("#FF5050"), warning: c("#FFFF00"), info: c("#00FFFF"), badgeFg: bg}
	if !dark {
		fg, bg = c("#000000"), c("#FFFFFF")
		p = palette{muted: fg, accent: c("#0000B0"), accentFg: bg, barBg: fg, barFg: bg, sel: fg, selFg: bg,
			success: c("#005A00"), errc: c("#A00000"), warning: c("#5A3C00"), info: c("#00307A"), badgeFg: bg}
	}
	t := (&Theme{Dark: dark, HighContrast: true}).colour(p)
	t.Muted = t.Muted.Bold(false)
	for _, st := range []*lipgloss.Style{&t.Success, &t.Error, &t.Warning, &t.Info, &t.Breadcrumb, &t.TabInactive, &t.HelpDesc} {
		*st = st.Bold(true)
	}
	return t
}
