package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openEvent filters the events list to one event and opens it.
func (tm *term) openEvent(filter, wait string) {
	tm.t.Helper()
	tm.keys("/")
	tm.keys("-l", filter)
	tm.waitText(wait)
	tm.keys("Enter")
	tm.keys("Enter")
	tm.waitText("Overview")
}

func TestCoeditorsEndToEnd(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30, "--demo")
	tm.waitText("63 loaded")
	tm.openEvent("partner summit", "Northwind Partner Summit")
	tm.keys("o")
	tm.waitText("Co-editors of Northwind Partner Summit", "hana.sato@northwind.example")
	tm.keys("a")
	tm.waitText("Add co-editors")
	tm.keys("-l", "ines.lopez@example.org, alex.morgan@northwind.example")
	tm.keys("Enter")
	tm.keys("Space") // the first group: Publish
	tm.keys("Enter")
	// The form stays open with the refused address and the reason; esc
	// asks before it throws the address away, y leaves it, and the screen
	// tells what came of each address.
	tm.waitText("Not saved", "> alex.morgan@northwind.example", "! added 1 of 2")
	tm.keys("Escape")
	tm.waitText("Discard what you typed in Add co-editors")
	tm.reply("y", "Discard what you typed in Add co-editors")
	tm.waitText("Added 1 of 2", "REFUSED alex.morgan@northwind.example")
	tm.waitText("ines.lopez@example.org")
	tm.quitCleanly()
}

func TestEmailsEndToEnd(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30, "--demo")
	tm.waitText("63 loaded")
	tm.openEvent("kubernetes webinar", "Intro to Kubernetes Webinar")
	tm.keys("m")
	tm.waitText("Emails of Intro to Kubernetes Webinar", "Reminder: 1 day before")
	// The filter is the row's own words: a relative date ("11 days
	// ago") holds "1 day" too, on some days.
	tm.keys("/")
	tm.keys("-l", "1 day before")
	tm.waitGone("Post-event survey")
	tm.keys("Enter")
	tm.keys("Enter")
	tm.waitText("550 recipients", "Recipients by status")
	for range 4 {
		tm.keys("f")
	}
	tm.waitText("status: Failed", "showing 33 of 550")
	tm.quitCleanly()
}

func TestPhoneEndToEnd(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30, "--demo")
	tm.waitText("63 loaded")
	tm.toPhone()
	tm.waitText("1 All 45")
	tm.keys("4")
	tm.waitText("row 1 of 11")
	tm.keys("1")
	tm.keys("/")
	tm.keys("-l", "park")
	tm.waitText("filter: park (1 match)")
	tm.keys("Enter")
	tm.waitText("Parked calls expire")
	tm.keys("Enter")
	tm.waitText("Phone settings > Call park")
	tm.keys("J")
	tm.waitText(`"expiration_period": 10`)
	tm.quitCleanly()
}

// TestPhoneNotSetUpEndToEnd runs the console against `evdesk sim` with the
// token of the account that has no phone service.
func TestPhoneNotSetUpEndToEnd(t *testing.T) {
	t.Parallel()
	vars, _ := startSim(t)
	if vars["EVDESK_TOKEN_NO_PHONE"] == "" {
		t.Fatalf("sim printed no EVDESK_TOKEN_NO_PHONE: %v", vars)
	}
	script := filepath.Join(t.TempDir(), "run.sh")
	body := "#!/bin/sh\nexport EVDESK_BASE_URL=" + vars["EVDESK_BASE_URL"] + " EVDESK_TOKEN=" + vars["EVDESK_TOKEN_NO_PHONE"] +
		"\nexec " + binPath + "\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	tm := startTermCmd(t, 100, 30, script)
	tm.waitText("Events")
	tm.toPhone()
	tm.waitText("PHONE NOT SET UP", "Business or Enterprise plan")
	if strings.Contains(tm.screen(), "ERROR") {
		t.Fatalf("the 403 should explain, not show an error:\n%s", tm.screen())
	}
}

// toPhone tabs across to the Phone section.
func (tm *term) toPhone() {
	tm.t.Helper()
	tm.keys("Tab")
	tm.waitText("[Check-in]")
	tm.keys("Tab")
	tm.waitText("[Phone]")
}

func TestTranscribeEndToEnd(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30, "--demo")
	tm.waitText("63 loaded")
	tm.keys("BTab") // the last section
	tm.waitText("[Transcribe]", "Press n to transcribe an audio file")
	tm.keys("n") // the tab opens on its screen; n opens the form
	tm.waitText("Transcribe an audio file", "Audio file URL")
	tm.keys("Enter")
	tm.waitText("Language")
	tm.keys("Enter")
	tm.waitText("7 segments", "Priya Raman", "00:00-00:05")
	tm.quitCleanly()
}

// TestRegisterThenCheckInEndToEnd registers a new person through the
// registration flow, then checks them in at the event's desk.
func TestRegisterThenCheckInEndToEnd(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30, "--demo")
	tm.waitText("63 loaded")
	tm.openEvent("kubernetes day", "Kubernetes Day Lisbon")
	tm.keys("t")
	tm.waitText("Register attendees", "5 Attendees")
	tm.keys("a")
	tm.waitText("Attendees")
	tm.keys("-l", "new.person@example.org, New, Person")
	tm.keys("Enter")
	tm.waitText("registered 1 person")
	tm.keys("Escape")
	tm.waitText("Overview")
	tm.keys("i")
	tm.waitText("Whole event")
	tm.keys("Enter")
	tm.waitText("CHECK-IN DESK", "ONLINE")
	tm.personTypes("new.person@example.org")
	tm.keys("Enter")
	tm.waitText("CHECKED IN", "This desk today 1")
}
