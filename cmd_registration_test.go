package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api/sim"
)

// runRegDemo runs evdesk links, ticket-types and register against a fresh
// embedded simulator.
func runRegDemo(t *testing.T, args ...string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir+"/state")
	t.Setenv("XDG_CONFIG_HOME", dir+"/config")
	t.Setenv("XDG_CACHE_HOME", dir+"/cache")
	var flags rootFlags
	root := &cobra.Command{Use: "evdesk", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().BoolVar(&flags.demo, "demo", false, "")
	root.PersistentFlags().StringVar(&flags.profile, "profile", "", "")
	addAccessLinksCommands(root, &flags)
	addRegistrationCommands(root, &flags)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&bytes.Buffer{})
	root.SetArgs(append([]string{"--demo"}, args...))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := root.ExecuteContext(ctx)
	return out.String(), err
}

func TestLinksAndRegisterCommands(t *testing.T) {
	f := sim.New(sim.Options{}).Fixtures()
	ev := f.RecurringEventID
	out, err := runRegDemo(t, "links", "list", ev)
	if err != nil || !strings.HasPrefix(out, "ID") || !strings.Contains(out, "multiple_sessions") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	out, err = runRegDemo(t, "links", "create", ev, "--name", "Partners", "--auth", "bypass_auth",
		"--recurring", "single_session", "--domain", "contoso.example", "-o", "json")
	if err != nil || !strings.Contains(out, `"recurring_registration_option": "single_session"`) {
		t.Fatalf("create: %v\n%s", err, out)
	}
	if _, err := runRegDemo(t, "links", "create", ev, "--name", "Registration", "--auth", "bypass_auth"); err == nil ||
		!strings.Contains(err.Error(), "261203") {
		t.Fatalf("duplicate name: %v", err)
	}
	if _, err := runRegDemo(t, "links", "delete", ev, "NoSuchLink"); err == nil || !strings.Contains(err.Error(), "261201") {
		t.Fatalf("delete unknown: %v", err)
	}
	out, err = runRegDemo(t, "ticket-types", ev)
	if err != nil || !strings.Contains(out, "VIP") {
		t.Fatalf("ticket types: %v\n%s", err, out)
	}
	// The default link takes one or more sessions: without --session the
	// client refuses; with two sessions one ticket is made.
	if _, err := runRegDemo(t, "register", ev, "--email", "ines@example.org"); err == nil || !strings.Contains(err.Error(), "session_ids") {
		t.Fatalf("no session: %v", err)
	}
	out, err = runRegDemo(t, "register", ev, "--email", "ines@example.org", "--first", "Ines", "--last", "Lopez",
		"--ticket-type", sim.TicketTypeID(ev, "VIP"), "--session", f.RecurringSessionID, "-o", "json")
	if err != nil {
		t.Fatalf("register: %v\n%s", err, out)
	}
	var outcomes []ticketOutcome
	if err := json.Unmarshal([]byte(out), &outcomes); err != nil || len(outcomes) != 1 || outcomes[0].Result != "ok" ||
		len(outcomes[0].Tickets) != 1 {
		t.Fatalf("outcomes %v %+v", err, outcomes)
	}
	if _, err := runRegDemo(t, "register", f.DraftEventID, "--email", "a@example.org"); err == nil ||
		!strings.Contains(err.Error(), "publish it") {
		t.Fatalf("draft: %v", err)
	}
}

// TestRegisterAnswersRequiredQuestions: an event whose form requires
// answers names them; --answer gives them, for every --email.
func TestRegisterAnswersRequiredQuestions(t *testing.T) {
	ev := sim.New(sim.Options{}).Fixtures().QuestionsEventID
	_, err := runRegDemo(t, "register", ev, "--email", "lee@example.org", "--first", "Lee")
	if err == nil || !strings.Contains(err.Error(), "answer them with --answer QUESTION=VALUE for: job_title, organization, "+sim.WorkshopQuestion) {
		t.Fatalf("without answers: %v", err)
	}
	out, err := runRegDemo(t, "register", ev, "--email", "lee@example.org", "--first", "Lee", "--answer", "job_title=Engineer",
		"--answer", "organization = Contoso, Ltd.", "--answer", sim.WorkshopQuestion+"="+sim.WorkshopChoices[0], "-o", "json")
	if err != nil || !strings.Contains(out, `"result": "ok"`) {
		t.Fatalf("with answers: %v\n%s", err, out)
	}
	if _, err := runRegDemo(t, "register", ev, "--email", "lee@example.org", "--answer", "no equals sign"); err == nil ||
		!strings.Contains(err.Error(), "--answer") {
		t.Fatalf("a malformed answer: %v", err)
	}
}
