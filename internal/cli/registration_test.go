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
	// A ticket type the event does not have is a failure (1), as a
	// not-found is: the command line is well formed, the account says no
	// (evdesk help exit-codes). Its types are named.
	if code, _, stderr := run1(t, demo("register", ev, "--ticket-type", "Nope", "--email", "a@example.org", "--session", f.RecurringSessionID)...); code != exitFailed ||
		!strings.Contains(stderr, `--ticket-type "Nope": no such ticket type; event `+ev+" has ") || !strings.Contains(stderr, "VIP") {
		t.Fatalf("unknown ticket type: exit %d %s", code, stderr)
	}
	if help, _, _ := execute(t, "help", "exit-codes"); !strings.Contains(help, "a --ticket-type, --session or link the event does not have") {
		t.Fatalf("exit-codes does not say where a name the account lacks goes:\n%s", help)
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

// TestRegisterFollowsTheNamedLink: a recurring event's sessions follow the
// access link --link names (else the default link), and the output says
// which link and option applied.
func TestRegisterFollowsTheNamedLink(t *testing.T) {
	s := simWithWord(t, "vendor")
	f := s.Fixtures()
	ev := f.RecurringEventID
	out, _, err := execute(t, "links", "create", ev, "--name", "Solo", "--auth", "bypass_auth", "--recurring", "single_session", "-o", "json")
	var link struct {
		ID string `json:"access_link_id"`
	}
	if err != nil || json.Unmarshal([]byte(out), &link) != nil || link.ID == "" {
		t.Fatalf("create link: %v\n%s", err, out)
	}
	sessions := s.SessionIDs(ev)
	two := sessions[len(sessions)-2:]
	out, errOut, err := execute(t, "register", ev, "--link", link.ID, "--email", "solo@example.org", "--ticket-type", sim.TicketTypeID(ev, "VIP"),
		"--session", two[0], "--session", two[1], "-o", "json")
	var outcomes []ticketOutcome
	if err != nil || json.Unmarshal([]byte(out), &outcomes) != nil || len(outcomes) != 1 || len(outcomes[0].Tickets) != 2 {
		t.Fatalf("single_session makes one ticket per session: %v\n%s%s", err, out, errOut)
	}
	if want := "sessions follow access link " + link.ID + " (Solo): its recurring option is single_session"; !strings.Contains(errOut, want) {
		t.Fatalf("the output does not say which link applied:\n%s", errOut)
	}
	_, errOut, err = execute(t, "register", ev, "--email", "multi@example.org", "--ticket-type", sim.TicketTypeID(ev, "VIP"),
		"--session", two[0], "--session", two[1])
	if err != nil || !strings.Contains(errOut, "sessions follow the default access link") || !strings.Contains(errOut, "multiple_sessions") {
		t.Fatalf("default link: %v\n%s", err, errOut)
	}
	if _, _, err := execute(t, "register", ev, "--link", "NoSuchLink", "--email", "x@example.org"); err == nil ||
		!strings.Contains(err.Error(), "--link NoSuchLink: no such access link") {
		t.Fatalf("unknown link: %v", err)
	}
}
