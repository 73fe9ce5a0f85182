package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/tiernames"
)

// name-tier names a tier; the list's table shows the name and -o json the
// id; --clear forgets it.
func TestExhibitorsNameTier(t *testing.T) {
	isolateXDG(t)
	s := sim.New(sim.Options{})
	defer s.Close()
	ev := s.Fixtures().ConferenceEventID
	tier := s.SponsorTiers(ev)[0].ID

	out, _, err := execute(t, "exhibitors", "name-tier", tier, " Platinum ")
	if err != nil || !strings.Contains(out, "tier "+tier+" is named Platinum") || !strings.Contains(out, tiernames.Path()) {
		t.Fatalf("name-tier: %v\n%s", err, out)
	}
	out, _, err = execute(t, demo("exhibitors", "list", ev)...)
	if err != nil || !strings.Contains(out, "Platinum") || strings.Contains(out, tier) {
		t.Fatalf("list shows the name, not the id: %v\n%s", err, out)
	}
	out, _, err = execute(t, demo("exhibitors", "list", ev, "-o", "json")...)
	if err != nil || !strings.Contains(out, `"tier_id": "`+tier+`"`) || strings.Contains(out, "Platinum") {
		t.Fatalf("json keeps the raw id: %v\n%s", err, out)
	}
	out, _, err = execute(t, demo("exhibitors", "list", ev, "-o", "csv")...)
	if err != nil || !strings.Contains(out, ","+tier+",") || strings.Contains(out, "Platinum") {
		t.Fatalf("csv keeps the raw id: %v\n%s", err, out)
	}

	out, _, err = execute(t, "exhibitors", "name-tier", tier, "--clear")
	if err != nil || !strings.Contains(out, "shows its id again") {
		t.Fatalf("--clear: %v\n%s", err, out)
	}
	out, _, err = execute(t, demo("exhibitors", "list", ev)...)
	if err != nil || strings.Contains(out, "Platinum") || !strings.Contains(out, tier) {
		t.Fatalf("after --clear the id shows: %v\n%s", err, out)
	}
}

// Mistakes are told with the rule and, for arguments, the usage and an
// example; nothing is written.
func TestExhibitorsNameTierMistakes(t *testing.T) {
	isolateXDG(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"T1"}, "missing NAME\n\nUsage:\n  evdesk exhibitors name-tier TIER_ID NAME"},
		{[]string{}, "Example:\n  evdesk exhibitors name-tier"},
		{[]string{"T1", "Gold", "--clear"}, "--clear forgets the name: give only TIER_ID"},
		{[]string{"T1", "  "}, "tier name is empty: give a name such as Gold, or use --clear"},
		{[]string{"T1", strings.Repeat("x", 41)}, "tier name is 41 characters long: at most 40"},
		{[]string{"T1", "Gold\x1b[31m"}, "one line of printable text"},
		{[]string{"T 1", "Gold"}, "tier id must be one word"},
	} {
		_, _, err := execute(t, append([]string{"exhibitors", "name-tier"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(tiernames.Path()); !os.IsNotExist(err) {
		t.Fatalf("a refused name wrote the file: %v", err)
	}
}

// A tiers file evdesk cannot use: the list still prints, with ids and a
// warning naming the file and line; name-tier refuses to overwrite it.
func TestExhibitorsHostileTierFile(t *testing.T) {
	isolateXDG(t)
	path := tiernames.Path()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	bad := "[tiers]\nT1 = 3\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	s := sim.New(sim.Options{})
	defer s.Close()
	ev := s.Fixtures().ConferenceEventID
	out, errOut, err := execute(t, demo("exhibitors", "list", ev)...)
	if err != nil || !strings.Contains(out, s.SponsorTiers(ev)[0].ID) ||
		!strings.Contains(errOut, "evdesk: warning: tier names not read, ids shown: "+path+":2: tiers.\"T1\": is a number") {
		t.Fatalf("list: %v\nstdout %s\nstderr %s", err, out, errOut)
	}
	if _, _, err := execute(t, "exhibitors", "name-tier", "T2", "Gold"); err == nil || !strings.Contains(err.Error(), "fix or remove the file first: "+path+":2") {
		t.Fatalf("name-tier on a broken file: %v", err)
	}
	if raw, _ := os.ReadFile(path); string(raw) != bad {
		t.Fatal("name-tier rewrote a file it could not read")
	}
}
