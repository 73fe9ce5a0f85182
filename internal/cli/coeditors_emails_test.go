package cli

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/views/emails"
)

// demoFixtures are the ids the embedded simulator seeds (the same on every
// run, relative to today).
func demoFixtures() sim.Fixtures { return sim.New(sim.Options{}).Fixtures() }

func TestCoeditorsCommands(t *testing.T) {
	isolateXDG(t)
	f := demoFixtures()
	id := f.ConferenceEventID
	out, _, err := execute(t, demo("coeditors", "list", id)...)
	if err != nil || !strings.HasPrefix(out, "EMAIL") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	// Two addresses (the conference has one co-editor and takes three), the
	// owner refused: exit status 1, every address reported.
	out, _, err = execute(t, demo("coeditors", "add", id, "--email", "a.one@example.org",
		"--email", sim.DemoHostEmail, "--groups", "Publish, registration & join", "-o", "json")...)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 co-editors refused") {
		t.Fatalf("add: %v\n%s", err, out)
	}
	var outcomes []coeditorOutcome
	if err := json.Unmarshal([]byte(out), &outcomes); err != nil || len(outcomes) != 2 {
		t.Fatalf("add -o json: %v\n%s", err, out)
	}
	if outcomes[1].Email != sim.DemoHostEmail || outcomes[1].Result != "refused" || outcomes[0].Result != "ok" {
		t.Fatalf("outcomes %+v", outcomes)
	}
	for _, bad := range [][]string{
		{"coeditors", "add", id, "--email", "x@example.org"},                         // no --groups
		{"coeditors", "add", id, "--email", "x@example.org", "--groups", "Catering"}, // unknown group
		{"coeditors", "remove", id},                                                  // no --email
	} {
		if _, _, err := execute(t, demo(bad...)...); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
	out, _, err = execute(t, demo("coeditors", "update", id, "--email", "x@example.org", "--groups", "none", "-o", "csv")...)
	if err == nil || !strings.Contains(out, "x@example.org,refused,") {
		t.Fatalf("update of a stranger: %v\n%s", err, out)
	}
}

func TestEmailsCommands(t *testing.T) {
	isolateXDG(t)
	f := demoFixtures()
	out, _, err := execute(t, demo("emails", "types", f.PastEventID)...)
	if err != nil || !strings.Contains(out, "Reminder: 1 day before") || !strings.Contains(out, "Sent ") {
		t.Fatalf("types: %v\n%s", err, out)
	}
	out, _, err = execute(t, demo("emails", "types", f.UpcomingEventID, "--status", "scheduled", "-o", "json")...)
	var types []map[string]any
	if err != nil || json.Unmarshal([]byte(out), &types) != nil || len(types) == 0 {
		t.Fatalf("types --status: %v\n%s", err, out)
	}
	for _, et := range types {
		if et["status"] != "scheduled" {
			t.Fatalf("filter let through %v", et)
		}
	}
	// By name, failed only, as CSV.
	out, _, err = execute(t, demo("emails", "status", f.PastEventID, "reminder: 1 DAY before", "--status", "failed", "-o", "csv")...)
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	lines, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(lines) < 2 || strings.Join(lines[0], ",") != strings.Join(emails.ExportHeader, ",") {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	for _, l := range lines[1:] {
		if l[2] != "failed" || l[3] == "" {
			t.Fatalf("row %v", l)
		}
	}
	out, _, err = execute(t, demo("emails", "status", f.PastEventID, "reminder: 1 day before", "--reason", "bounced", "-o", "json")...)
	var recs []map[string]any
	if err != nil || json.Unmarshal([]byte(out), &recs) != nil || len(recs) == 0 || len(recs) >= len(lines)-1 {
		t.Fatalf("--reason bounced: %d records, %v\n%.300s", len(recs), err, out)
	}
	if _, _, err = execute(t, demo("emails", "status", f.PastEventID, "Newsletter")...); err == nil || !strings.Contains(err.Error(), "Post-event survey") {
		t.Fatalf("unknown type: %v", err)
	}
	if _, _, err = execute(t, demo("emails", "status", f.PastEventID, "x", "--status", "bounced")...); err == nil || !strings.Contains(err.Error(), "missed_schedule") {
		t.Fatalf("bad status: %v", err)
	}
	out, _, err = execute(t, demo("emails", "status", f.NoRegistrantsEventID, "Invitation", "-o", "json")...)
	if err != nil || strings.TrimSpace(out) != "[]" {
		t.Fatalf("no recipients: %v %q", err, out)
	}
}
