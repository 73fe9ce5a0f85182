package ui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Width must agree with ansi.StringWidth on every string, the fast path's
// and the rest.
func TestWidthAgreesWithANSI(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff0000")).Background(lipgloss.Color("4"))
	cases := []string{
		"", "plain text", bold.Render("styled"), "a" + bold.Render(" [OK] CHECKED IN ") + " b",
		"café", "日本語", "e\u0301", "👍🏽 ok", "tab\there", "\x1b]8;;http://x\x07link\x1b]8;;\x07",
		"\x1b[", "\x1b[31", "\x1b[31m", "bell\a", "del\x7f", "\x1b(B", "╔══╗", "…", "a · b", "x\u00ad", "é\u0301", "·\u0301", "…\u200d", "→\ufe0f", "ü", "\u2028", "\u2029", "¡¿", "\xff\xfe",
	}
	for _, s := range cases {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi.StringWidth says %d", s, got, want)
		}
	}
	for _, s := range cases {
		for w := 0; w < 8; w++ {
			if got, want := Truncate(s, w, "…"), ansi.Truncate(s, w, "…"); got != want {
				t.Errorf("Truncate(%q, %d) = %q, ansi.Truncate says %q", s, w, got, want)
			}
		}
	}
}

func FuzzWidth(f *testing.F) {
	f.Add("abc\x1b[1mdef\x1b[0m")
	f.Add("a · b … ║ → é")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth says %d", s, got, want)
		}
	})
}

// Fit pads every line to w and cuts it with "…", and takes h lines, no
// more, no fewer.
func TestFitPadsCutsAndCounts(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true)
	cases := []struct {
		s    string
		w, h int
		want string
	}{
		{"", 3, 2, "   \n   "},
		{"ab\ncdef", 3, 3, "ab \ncd…\n   "},
		{"a\nb\nc", 2, 2, "a \nb "},
		{"日本", 3, 1, "日…"},
		{bold.Render("ab"), 3, 1, bold.Render("ab") + " "},
		{"x", 0, 1, ""},
		{"x", 70, 1, "x" + strings.Repeat(" ", 69)},
	}
	for _, c := range cases {
		if got := Fit(c.s, c.w, c.h); got != c.want {
			t.Errorf("Fit(%q, %d, %d) = %q, want %q", c.s, c.w, c.h, got, c.want)
		}
	}
}

func TestAppendSpaces(t *testing.T) {
	for _, n := range []int{0, 1, len(spaces), len(spaces) + 1, 3*len(spaces) + 5} {
		if got := string(AppendSpaces([]byte("x"), n)); got != "x"+strings.Repeat(" ", n) {
			t.Fatalf("AppendSpaces(%d) = %q", n, got)
		}
	}
}
