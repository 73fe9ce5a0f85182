package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
)

// actionsAt counts the server's attendee actions (check-ins) of each
// email at an event.
func actionsAt(t *testing.T, c *api.Client, eventID string, emails ...string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, e := range emails {
		for _, err := range c.Attendees.List(context.Background(), eventID, "", api.ListAttendeeActionsOptions{Email: e}) {
			if err != nil {
				t.Fatalf("listing %s's actions: %v", e, err)
			}
			n[e]++
		}
	}
	return n
}

// deskSim starts a simulator for a desk test: a client of it, to read what
// the server holds, and the binary's environment pointing at it.
func deskSim(t *testing.T) (*api.Client, []string) {
	t.Helper()
	requireCheckinCommands(t)
	vars, _ := startSim(t)
	base, token := vars["EVDESK_BASE_URL"], vars["EVDESK_TOKEN"]
	c, err := api.New(api.WithBaseURL(base), api.WithToken(token), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return c, append(isolatedEnv(t), "EVDESK_BASE_URL="+base, "EVDESK_TOKEN="+token)
}

// A scanner keeps typing while the operator fills in the walk-in form
// (QA's blocking finding: its bursts were typed into the form, moved the
// ticket type, toggled a session and submitted it). Its bursts (two
// registrants' addresses, and "jjjk" and "x" as codes) are recorded at the
// desk as scans; the form keeps the name the operator typed at a person's
// pace; the server holds each scanned person and the walk-in checked in
// once, at 80x24.
func TestScansIntoTheWalkInFormAreRecordedAtTheDesk(t *testing.T) {
	t.Parallel()
	c, env := deskSim(t)
	id, regs := largeEvent()
	first, second := regs[10], regs[11]
	const who = "walk.in@example.org"

	tm := startTermEnv(t, 80, 24, env, "desk", id, "--desk", "Door-W")
	tm.waitText("CHECK-IN DESK", "ONLINE", "roster 20,000")
	tm.personTypes(who)
	tm.keys("Enter")
	tm.waitText("[!!] NOT REGISTERED", "F5: register them as a walk-in")
	tm.keys("F5")
	tm.waitText("Walk-in: register and check in", "First name")
	tm.keys("-l", "Wal")
	tm.scan(first, "Enter")
	tm.waitText("Scan recorded at the desk; the form keeps what you typed")
	tm.scan("jjjk", "Enter")
	tm.scan("x", "Enter")
	tm.scan(second, "KPEnter")
	tm.keys("-l", "ly")
	tm.waitText("Walk-in: register and check in", "> Wally")
	tm.fillWalkIn("", "Inn", "Contoso", who)
	tm.waitText("[OK] CHECKED IN", "Wally Inn (Contoso)")
	tm.waitText("This desk today 3", "Pending 0")
	tm.keys("C-c")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}
	got := actionsAt(t, c, id, first, second, who)
	if got[first] != 1 || got[second] != 1 || got[who] != 1 {
		t.Fatalf("the server's check-ins: %v, want one each", got)
	}
}

// Keys that come together answer no question, and a burst into a form
// field says so in the form: yyyy at "Publish?" (as tmux types it, at
// once) leaves the draft a draft, and "Europe/Lisbon" typed at once into
// the edit form is named under its field, not dropped silently.
func TestKeysTogetherAnswerNoQuestion(t *testing.T) {
	t.Parallel()
	vars, _ := startSim(t)
	base, token := vars["EVDESK_BASE_URL"], vars["EVDESK_TOKEN"]
	fx := demoSim().Fixtures()
	c, err := api.New(api.WithBaseURL(base), api.WithToken(token))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := c.Events.Get(context.Background(), fx.DraftEventID)
	if err != nil {
		t.Fatal(err)
	}
	before := serverState(t, base, token, fx.DraftEventID)

	env := append(isolatedEnv(t), "EVDESK_BASE_URL="+base, "EVDESK_TOKEN="+token)
	tm := startTermEnv(t, 80, 24, env)
	tm.waitText("loaded")
	tm.openEvent(strings.ToLower(ev.Name), "(1 match)")
	tm.keys("p")
	tm.waitText("Publish")
	tm.scan("yyyy", "")
	tm.waitText("keys that come together do not answer")
	tm.keys("Escape")
	tm.waitGone("keys that come together")
	tm.keys("e")
	tm.waitText("Name")
	tm.scan("Europe/Lisbon", "")
	tm.waitText("NOT TYPED", "Europe/Lisbon")
	tm.keys("Escape")
	tm.waitGone("NOT TYPED")
	if after := serverState(t, base, token, fx.DraftEventID); after != before {
		t.Fatalf("keys together changed the server:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	tm.quitCleanly()
}
