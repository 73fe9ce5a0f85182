package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Desk settings of a profile: walk-ins, badges and the check-in hook.
const (
	// FieldWalkIns turns registering walk-ins at the desk off (false), or
	// on for a kiosk desk (true; a kiosk has them off otherwise).
	FieldWalkIns = "walk_ins"
	// FieldBadgePrinter is the printer badges go to: a CUPS queue's name
	// or ipp://host:631/printers/NAME.
	FieldBadgePrinter = "badge_printer"
	// FieldBadgeLayout is the badge's layout: 4x3 (default), 4x6, a6,
	// 62mm, or a layout file (.toml).
	FieldBadgeLayout = "badge_layout"
	// FieldPrintBadges says when the desk prints: "always" (on every
	// check-in), "ask" (a key per person; the default with a printer) or
	// "never".
	FieldPrintBadges = "print_badges"
	// FieldOnCheckin is a command run after each check-in the server
	// confirmed, as a list of arguments with placeholders.
	FieldOnCheckin = "on_checkin"
)

// DeskSettings are a profile's check-in desk settings, as in the file.
type DeskSettings struct {
	WalkIns      *bool    `toml:"walk_ins,omitempty"`
	BadgePrinter string   `toml:"badge_printer,omitempty"`
	BadgeLayout  string   `toml:"badge_layout,omitempty"`
	PrintBadges  string   `toml:"print_badges,omitempty"`
	OnCheckin    []string `toml:"on_checkin,omitempty"`
}

// deskFields are the desk settings' keys, for the unknown-field message.
var deskFields = []string{FieldWalkIns, FieldBadgePrinter, FieldBadgeLayout, FieldPrintBadges, FieldOnCheckin}

// When the desk prints badges.
const (
	PrintAlways = "always"
	PrintAsk    = "ask"
	PrintNever  = "never"
)

// PrintModes are the values of print_badges.
var PrintModes = []string{PrintAlways, PrintAsk, PrintNever}

// HookPlaceholders are what on_checkin's arguments may name.
var HookPlaceholders = []string{"{email}", "{name}", "{ticket}", "{desk}", "{event}", "{session}"}

// Limits of on_checkin.
const (
	maxHookArgs     = 64
	maxHookArgBytes = 4096
)

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// check names the first problem of the desk settings, as (field, message).
func (d DeskSettings) check() (string, string) {
	if d.PrintBadges != "" && !slices.Contains(PrintModes, d.PrintBadges) {
		return FieldPrintBadges, fmt.Sprintf("%q is not one of %s", d.PrintBadges, strings.Join(PrintModes, ", "))
	}
	if d.PrintBadges == PrintAlways && strings.TrimSpace(d.BadgePrinter) == "" {
		return FieldPrintBadges, `"always" needs badge_printer: name the printer (a CUPS queue, or ipp://host:631/printers/NAME)`
	}
	if p := d.BadgePrinter; p != "" && (strings.ContainsFunc(p, isControl) || strings.HasPrefix(p, "-")) {
		return FieldBadgePrinter, "is not a printer: use a CUPS queue's name or ipp://host:631/printers/NAME"
	}
	if l := d.BadgeLayout; l != "" && strings.ContainsFunc(l, isControl) {
		return FieldBadgeLayout, "holds a control character: use 4x3, 4x6, a6, 62mm or a .toml file's path"
	}
	if len(d.OnCheckin) > 0 {
		if strings.TrimSpace(d.OnCheckin[0]) == "" {
			return FieldOnCheckin, `the first item is the command to run, such as ["notify-send", "{name}"]`
		}
		if len(d.OnCheckin) > maxHookArgs {
			return FieldOnCheckin, fmt.Sprintf("has %d items; at most %d are allowed", len(d.OnCheckin), maxHookArgs)
		}
		for i, a := range d.OnCheckin {
			if len(a) > maxHookArgBytes || strings.ContainsRune(a, 0) {
				return FieldOnCheckin, fmt.Sprintf("item %d is longer than %d bytes or holds a NUL", i+1, maxHookArgBytes)
			}
			for _, ph := range placeholder.FindAllString(a, -1) {
				if !slices.Contains(HookPlaceholders, ph) {
					return FieldOnCheckin, fmt.Sprintf("item %d names %s; the placeholders are %s", i+1, ph, strings.Join(HookPlaceholders, " "))
				}
			}
		}
	}
	return "", ""
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// Desk is a profile's desk settings, resolved.
type Desk struct {
	// WalkIns: nil when the profile does not say (on, except at a
	// kiosk).
	WalkIns *bool
	// BadgePrinter and BadgeLayout as in the file ("" when unset).
	BadgePrinter, BadgeLayout string
	// PrintBadges is always, ask or never: ask when a printer is named and
	// the profile does not say, never without a printer.
	PrintBadges string
	// OnCheckin is the hook's arguments; nil when none.
	OnCheckin []string
}

// WalkInsAllowed says whether a desk takes walk-ins: on unless the profile
// says walk_ins = false; at a kiosk only when it says walk_ins = true.
func (d Desk) WalkInsAllowed(kiosk bool) bool {
	if d.WalkIns != nil {
		return *d.WalkIns
	}
	return !kiosk
}

// resolve fills the defaults.
func (d DeskSettings) resolve() Desk {
	out := Desk{WalkIns: d.WalkIns, BadgePrinter: strings.TrimSpace(d.BadgePrinter), BadgeLayout: d.BadgeLayout,
		PrintBadges: d.PrintBadges, OnCheckin: slices.Clone(d.OnCheckin)}
	if out.PrintBadges == "" {
		out.PrintBadges = PrintNever
		if out.BadgePrinter != "" {
			out.PrintBadges = PrintAsk
		}
	}
	return out
}
