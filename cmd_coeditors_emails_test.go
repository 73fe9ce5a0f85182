package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api/sim"
)

// runDemo runs an evdesk command line against the embedded simulator,
// in-process, with the coeditors and emails commands added.
func runDemo(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir+"/state")
	t.Setenv("XDG_CONFIG_HOME", dir+"/config")
	t.Setenv("XDG_CACHE_HOME", dir+"/cache")
	var flags rootFlags
	root := &cobra.Command{Use: "evdesk", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().BoolVar(&flags.demo, "demo", false, "")
	root.PersistentFlags().StringVar(&flags.profile, "profile", "", "")
	addCoeditorsCommands(root, &flags)
	addEmailsCommands(root, &flags)
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"--demo"}, args...))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := root.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

// demoFixtures are the ids the embedded simulator seeds (the same on every
// run, relative to today).
func demoFixtures() sim.Fixtures { return sim.New(sim.Options{}).Fixtures() }

func TestCoeditorsCommands(t *testing.T) {
	f := demoFixtures()
	id := f.ConferenceEventID
	out, _, err := runDemo(t, "coeditors", "list", id)
	if err != nil || !strings.HasPrefix(out, "EMAIL") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	// Two addresses (the conference has one co-editor and takes three), the
	// owner refused: exit status 1, every address reported.
	out, _, err = runDemo(t, "coeditors", "add", id, "--email", "a.one@example.org",
		"--email", sim.DemoHostEmail, "--groups", "Publish, registration & join", "-o", "json")
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
		if _, _, err := runDemo(t, bad...); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
	out, _, err = runDemo(t, "coeditors", "update", id, "--email", "x@example.org", "--groups", "none", "-o", "csv")
	if err == nil || !strings.Contains(out, "x@example.org,refused,") {
		t.Fatalf("update of a stranger: %v\n%s", err, out)
	}
}

func TestEmailsCommands(t *testing.T) {
	f := demoFixtures()
	out, _, err := runDemo(t, "emails", "types", f.PastEventID)
	if err != nil || !strings.Contains(out, "Reminder: 1 day before") || !strings.Contains(out, "sent") {
		t.Fatalf("types: %v\n%s", err, out)
	}
	out, _, err = runDemo(t, "emails", "types", f.UpcomingEventID, "--status", "scheduled", "-o", "json")
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
	out, _, err = runDemo(t, "emails", "status", f.PastEventID, "reminder: 1 DAY before", "--status", "failed", "-o", "csv")
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	lines, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(lines) < 2 || strings.Join(lines[0], ",") != "email,name,status,failure_reason,sent_date" {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	for _, l := range lines[1:] {
		if l[2] != "failed" || l[3] == "" {
			t.Fatalf("row %v", l)
		}
	}
	out, _, err = runDemo(t, "emails", "status", f.PastEventID, "reminder: 1 day before", "--reason", "bounced", "-o", "json")
	var recs []map[string]any
	if err != nil || json.Unmarshal([]byte(out), &recs) != nil || len(recs) == 0 || len(recs) >= len(lines)-1 {
		t.Fatalf("--reason bounced: %d records, %v\n%.300s", len(recs), err, out)
	}
	if _, _, err = runDemo(t, "emails", "status", f.PastEventID, "Newsletter"); err == nil || !strings.Contains(err.Error(), "Post-event survey") {
		t.Fatalf("unknown type: %v", err)
	}
	if _, _, err = runDemo(t, "emails", "status", f.PastEventID, "x", "--status", "bounced"); err == nil || !strings.Contains(err.Error(), "missed_schedule") {
		t.Fatalf("bad status: %v", err)
	}
	out, _, err = runDemo(t, "emails", "status", f.NoRegistrantsEventID, "Invitation", "-o", "json")
	if err != nil || strings.TrimSpace(out) != "[]" {
		t.Fatalf("no recipients: %v %q", err, out)
	}
}
