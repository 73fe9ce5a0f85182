package ui

import (
	"image/color"
	"os"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Theme holds every style the console uses. It is the only place colours are
// named, so views stay readable on dark and light terminals and under NO_COLOR.
// The App rebuilds it in place when the terminal reports its background, so
// components keep the pointer and read styles at render time.
type Theme struct {
	Dark         bool // built for a dark background
	NoColor      bool // NO_COLOR: attributes (bold, reverse) only
	HighContrast bool // the high-contrast theme

	Title       lipgloss.Style
	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	Breadcrumb  lipgloss.Style
	StatusBar   lipgloss.Style
	DemoBadge   lipgloss.Style
	Profile     lipgloss.Style
	Muted       lipgloss.Style
	Selected    lipgloss.Style
	Header      lipgloss.Style
	Border      lipgloss.Style // a bordered box; add padding as needed
	Key         lipgloss.Style // a key name in hints ("? help")

	Success, Error, Warning, Info                     lipgloss.Style // text
	SuccessBadge, ErrorBadge, WarningBadge, InfoBadge lipgloss.Style // word marks

	HelpKey, HelpDesc, HelpSep lipgloss.Style

	// formStyles caches FormStyles: huh asks for its theme once per
	// option of every select it draws. A new Theme starts without it.
	formStyles *huh.Styles
}

// palette is one colour per role; nil means "terminal default".
type palette struct {
	muted, accent, accentFg, barBg, barFg, sel, selFg color.Color
	success, errc, warning, info, badgeFg             color.Color
}

func newPalette(dark bool) palette {
	ld := lipgloss.LightDark(dark)
	c := lipgloss.Color
	return palette{
		muted:    ld(c("#6C6C6C"), c("#8A8A8A")),
		accent:   ld(c("#5A3FC0"), c("#8B7CF6")),
		accentFg: ld(c("#FFFFFF"), c("#101010")),
		barBg:    ld(c("#E4E4E4"), c("#303030")),
		barFg:    ld(c("#303030"), c("#D0D0D0")),
		sel:      ld(c("#D7D7FF"), c("#3A3A6A")),
		selFg:    ld(c("#101010"), c("#FFFFFF")),
		success:  ld(c("#007A3D"), c("#5FD787")),
		errc:     ld(c("#C00020"), c("#FF6B6B")),
		warning:  ld(c("#8A5A00"), c("#FFD75F")),
		info:     ld(c("#005FAF"), c("#5FAFFF")),
		badgeFg:  ld(c("#FFFFFF"), c("#101010")),
	}
}

// NoColorEnv reports whether the NO_COLOR convention asks for no colours.
func NoColorEnv() bool { return os.Getenv("NO_COLOR") != "" }

// NewTheme builds the styles for a dark or light background. noColor (or the
// NO_COLOR environment variable) drops every colour but keeps bold, reverse
// and underline, so the selection and badges remain visible.
func NewTheme(dark bool, noColor bool) *Theme {
	noColor = noColor || NoColorEnv()
	s := lipgloss.NewStyle
	t := &Theme{Dark: dark, NoColor: noColor}
	if noColor {
		t.Title = s().Bold(true)
		t.TabActive = s().Bold(true).Reverse(true)
		t.TabInactive = s()
		t.Breadcrumb = s()
		t.StatusBar = s()
		t.DemoBadge = s().Bold(true).Reverse(true)
		t.Profile = s().Bold(true)
		t.Muted = s()
		t.Selected = s().Reverse(true)
		t.Header = s().Bold(true)
		t.Border = s().Border(lipgloss.RoundedBorder())
		t.Key = s().Bold(true)
		t.Success, t.Error, t.Warning, t.Info = s(), s().Bold(true), s(), s()
		badge := s().Bold(true).Reverse(true)
		t.SuccessBadge, t.ErrorBadge, t.WarningBadge, t.InfoBadge = badge, badge, badge, badge
		t.HelpKey, t.HelpDesc, t.HelpSep = s().Bold(true), s(), s()
		return t
	}
	return t.colour(newPalette(dark))
}

// colour fills the theme's styles from a palette.
func (t *Theme) colour(p palette) *Theme {
	s := lipgloss.NewStyle
	t.Title = s().Bold(true).Foreground(p.accent)
	t.TabActive = s().Bold(true).Foreground(p.accentFg).Background(p.accent)
	t.TabInactive = s().Foreground(p.muted)
	t.Breadcrumb = s().Foreground(p.muted)
	t.StatusBar = s().Foreground(p.barFg).Background(p.barBg)
	t.DemoBadge = s().Bold(true).Foreground(p.badgeFg).Background(p.warning)
	t.Profile = s().Bold(true).Foreground(p.accentFg).Background(p.accent)
	t.Muted = s().Foreground(p.muted)
	t.Selected = s().Bold(true).Foreground(p.selFg).Background(p.sel)
	t.Header = s().Bold(true).Foreground(p.accent)
	t.Border = s().Border(lipgloss.RoundedBorder()).BorderForeground(p.accent)
	t.Key = s().Bold(true).Foreground(p.accent)
	t.Success = s().Foreground(p.success)
	t.Error = s().Foreground(p.errc)
	t.Warning = s().Foreground(p.warning)
	t.Info = s().Foreground(p.info)
	badge := s().Bold(true).Foreground(p.badgeFg)
	t.SuccessBadge = badge.Background(p.success)
	t.ErrorBadge = badge.Background(p.errc)
	t.WarningBadge = badge.Background(p.warning)
	t.InfoBadge = badge.Background(p.info)
	t.HelpKey = s().Bold(true).Foreground(p.accent)
	t.HelpDesc = s().Foreground(p.muted)
	t.HelpSep = s().Foreground(p.muted)
	return t
}

// statusWords maps a normalised status word to its role.
var statusWords = map[string]string{
	"published": "ok", "delivered": "ok", "checked-in": "ok", "active": "ok",
	"sent": "ok", "confirmed": "ok", "approved": "ok", "success": "ok",
	"live": "ok", "enabled": "ok", "completed": "ok", "registered": "ok", "ok": "ok",
	"draft": "warn", "scheduled": "warn", "pending": "warn", "queued": "warn",
	"processing": "warn", "in-progress": "warn", "waiting": "warn", "invited": "warn",
	"cancelled": "err", "canceled": "err", "failed": "err", "error": "err",
	"bounced": "err", "rejected": "err", "declined": "err", "expired": "err",
	"past": "muted", "deactivated": "muted", "disabled": "muted", "archived": "muted",
	"inactive": "muted", "ended": "muted", "deleted": "muted",
}

var wordSeps = strings.NewReplacer("_", "-", " ", "-")

// Status returns the text style for a status word (PUBLISHED, checked_in,
// "Checked in"…); unknown words get a plain style. The word itself is always
// shown, so the colour only reinforces it.
func (t *Theme) Status(s string) lipgloss.Style {
	w := strings.ToLower(strings.TrimSpace(s))
	w = wordSeps.Replace(w)
	switch statusWords[w] {
	case "ok":
		return t.Success
	case "warn":
		return t.Warning
	case "err":
		return t.Error
	case "muted":
		return t.Muted
	}
	return lipgloss.NewStyle()
}

// ToastStyle returns the badge style and word mark for a toast level.
func (t *Theme) ToastStyle(l ToastLevel) (badge lipgloss.Style, mark string) {
	switch l {
	case ToastSuccess:
		return t.SuccessBadge, "OK"
	case ToastError:
		return t.ErrorBadge, "ERROR"
	}
	return t.InfoBadge, "INFO"
}

// HelpStyles adapts the theme for bubbles/help.
func (t *Theme) HelpStyles() help.Styles {
	return help.Styles{
		Ellipsis:       t.HelpSep,
		ShortKey:       t.HelpKey,
		ShortDesc:      t.HelpDesc,
		ShortSeparator: t.HelpSep,
		FullKey:        t.HelpKey,
		FullDesc:       t.HelpDesc,
		FullSeparator:  t.HelpSep,
	}
}

// TextInputStyles adapts the theme for bubbles/textinput. The cursor does not
// blink: a blinking cursor means a timer message every half second.
func (t *Theme) TextInputStyles() textinput.Styles {
	var st textinput.Styles
	st.Focused.Prompt = t.Key
	st.Blurred.Prompt = t.Muted
	st.Focused.Placeholder = t.Muted
	st.Blurred.Placeholder = t.Muted
	st.Blurred.Text = t.Muted
	st.Cursor.Color = lipgloss.NoColor{} // reverse video only
	if !t.NoColor {
		st.Cursor.Color = t.Key.GetForeground()
	}
	return st
}
