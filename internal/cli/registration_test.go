package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
)

func TestLinksAndRegisterCommands(t *testing.T) {
	isolateXDG(t)
	f := sim.New(sim.Options{}).Fixtures()
	ev := f.RecurringEventID
	out, _, err := execute(t, demo("links", "list", ev)...)
	if err != nil || !strings.HasPrefix(out, "ID") || !strings.Contains(out, "one or more sessions per ticket") || !strings.Contains(out, "account or email one-time code") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	out, _, err = execute(t, demo("links", "create", ev, "--name", "Partners", "--auth", "bypass_auth",
		"--recurring", "single_session", "--domain", "contoso.example", "-o", "json")...)
	if err != nil || !strings.Contains(out, `"recurring_registration_option": "single_session"`) {
		t.Fatalf("create: %v\n%s", err, out)
	}
	if _, _, err := execute(t, demo("links", "create", ev, "--name", "Registration", "--auth", "bypass_auth")...); err == nil ||
		!strings.Contains(err.Error(), "261203") {
		t.Fatalf("duplicate name: %v", err)
	}
	if _, _, err := execute(t, demo("links", "delete", ev, "NoSuchLink")...); err == nil || !strings.Contains(err.Error(), "261201") {
		t.Fatalf("delete unknown: %v", err)
	}
	out, _, err = execute(t, demo("ticket-types", ev)...)
	if err != nil || !strings.Contains(out, "VIP") {
		t.Fatalf("ticket types: %v\n%s", err, out)
	}
	// The default link takes one or more sessions: without --session the
	// client refuses; with two sessions one ticket is made.
	if _, _, err := execute(t, demo("register", ev, "--email", "ines@example.org")...); err == nil || !strings.Contains(err.Error(), "session_ids") {
		t.Fatalf("no session: %v", err)
	}
	out, _, err = execute(t, demo("register", ev, "--email", "ines@example.org", "--first", "Ines", "--last", "Lopez",
		"--ticket-type", sim.TicketTypeID(ev, "VIP"), "--session", f.RecurringSessionID, "-o", "json")...)
	if err != nil {
		t.Fatalf("register: %v\n%s", err, out)
	}
	var outcomes []ticketOutcome
	if err := json.Unmarshal([]byte(out), &outcomes); err != nil || len(outcomes) != 1 || outcomes[0].Result != "ok" ||
		len(outcomes[0].Tickets) != 1 {
		t.Fatalf("outcomes %v %+v", err, outcomes)
	}
	if _, _, err := execute(t, demo("register", f.DraftEventID, "--email", "a@example.org")...); err == nil ||
		!strings.Contains(err.Error(), "publish it") {
		t.Fatalf("draft: %v", err)
	}
}

// TestRegisterAnswersRequiredQuestions: an event whose form requires
// answers names them; --answer gives them, for every --email.
func TestRegisterAnswersRequiredQuestions(t *testing.T) {
	isolateXDG(t)
	ev := sim.New(sim.Options{}).Fixtures().QuestionsEventID
	_, _, err := execute(t, demo("register", ev, "--email", "lee@example.org", "--first", "Lee")...)
	if err == nil || !strings.Contains(err.Error(), "answer them with --answer QUESTION=VALUE for: job_title, organization, "+sim.WorkshopQuestion) {
		t.Fatalf("without answers: %v", err)
	}
	out, _, err := execute(t, demo("register", ev, "--email", "lee@example.org", "--first", "Lee", "--answer", "job_title=Engineer",
		"--answer", "organization = Contoso, Ltd.", "--answer", sim.WorkshopQuestion+"="+sim.WorkshopChoices[0], "-o", "json")...)
	if err != nil || !strings.Contains(out, `"result": "ok"`) {
		t.Fatalf("with answers: %v\n%s", err, out)
	}
	if _, _, err := execute(t, demo("register", ev, "--email", "lee@example.org", "--answer", "no equals sign")...); err == nil ||
		!strings.Contains(err.Error(), "--answer") {
		t.Fatalf("a malformed answer: %v", err)
	}
}
