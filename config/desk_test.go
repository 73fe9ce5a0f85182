package config

import (
	"slices"
	"strings"
	"testing"
)

func TestDeskSettings(t *testing.T) {
	path := writeConfig(t, sample+`walk_ins = false
badge_printer = "ipp://print.local/printers/Badges"
badge_layout = "62mm"
on_checkin = ["notify-send", "Checked in", "{name} <{email}> at {desk}"]
`)
	lab, err := Resolve(path, "lab", lookupFrom(nil))
	if err != nil {
		t.Fatal(err)
	}
	d := lab.Desk
	if d.WalkInsAllowed(false) || d.BadgePrinter != "ipp://print.local/printers/Badges" || d.BadgeLayout != "62mm" ||
		d.PrintBadges != PrintAsk || !slices.Equal(d.OnCheckin, []string{"notify-send", "Checked in", "{name} <{email}> at {desk}"}) {
		t.Fatalf("%+v", d)
	}
	work, _ := Resolve(path, "work", lookupFrom(nil))
	if !work.Desk.WalkInsAllowed(false) || work.Desk.WalkInsAllowed(true) || work.Desk.PrintBadges != PrintNever {
		t.Fatalf("defaults: %+v", work.Desk)
	}
	kiosk := writeConfig(t, "[profiles.k]\nwalk_ins = true\n")
	k, _ := Resolve(kiosk, "k", lookupFrom(nil))
	if !k.Desk.WalkInsAllowed(true) {
		t.Fatal("walk_ins = true does not allow them at a kiosk")
	}
	if p := FromEnv(lookupFrom(nil)); p.Desk.PrintBadges != PrintNever || !p.Desk.WalkInsAllowed(false) {
		t.Fatalf("no file: %+v", p.Desk)
	}
}

func TestBadDeskSettingsNameTheField(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{`print_badges = "sometimes"`, `:2: profiles.a.print_badges: "sometimes" is not one of always, ask, never`},
		{`print_badges = "always"`, `print_badges: "always" needs badge_printer`},
		{`on_checkin = ["", "{email}"]`, `on_checkin: the first item is the command to run`},
		{`on_checkin = ["notify", "{mail}"]`, `on_checkin: item 2 names {mail}; the placeholders are {email} {name} {ticket} {desk} {event} {session}`},
		{`badge_printer = "-o x"`, `badge_printer: is not a printer`},
		{`walk_in = false`, `unknown field (known: base_url`},
	} {
		_, err := ReadFile(writeConfig(t, "[profiles.a]\n"+tc.toml+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.toml, err, tc.want)
		}
	}
	_, err := ReadFile(writeConfig(t, "[profiles.a]\nwalk_in = false\n"))
	if !strings.Contains(err.Error(), "walk_ins, badge_printer, badge_layout, print_badges, on_checkin") {
		t.Fatalf("the known fields leave the desk's out: %v", err)
	}
}
