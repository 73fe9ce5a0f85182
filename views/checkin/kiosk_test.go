package checkin

import (
	"testing"
)

// A kiosk desk stays on screen: esc and ctrl+c do not leave it and say
// how to unlock; a wrong PIN keeps it locked; ctrl+k and the PIN unlock it.
func TestKioskStaysUntilThePIN(t *testing.T) {
	r := newRig(t, withKioskPIN("2468"))
	r.settle("ONLINE", "KIOSK")
	r.Press("esc")
	r.Contains("Kiosk: this desk stays on screen; ctrl+k and the PIN unlock it", "CHECK-IN DESK")
	r.Press("ctrl+c")
	if r.Quit() {
		t.Fatal("a locked kiosk quit")
	}
	r.Lacks("quit anyway?")

	r.Send(ctrl('k'))
	r.Contains("PIN > ", "digits, then enter")
	r.Type("1111")
	r.Contains("PIN > ****")
	r.Lacks("1111")
	r.Press("enter")
	r.Contains("Wrong PIN: the desk stays locked", " KIOSK ")
	r.Press("esc")
	r.Contains("CHECK-IN DESK")

	r.Send(ctrl('k'))
	r.Type("2468")
	r.Press("enter")
	r.Contains("KIOSK UNLOCKED", "Kiosk unlocked")
	r.Send(ctrl('k'))
	r.Contains("Kiosk locked", " KIOSK ")
	r.Send(ctrl('k'))
	r.Type("2468")
	r.Press("enter")
	r.Press("esc", "ctrl+y")
	r.Contains("choose an upcoming event") // left for the picker
}

// A badge scanned into the PIN prompt is never a PIN attempt: the prompt
// closes at the first character that is not a digit, and the scan it cut
// short is refused whole (scan it again); the next scan is a scan.
func TestKioskPromptGivesWayToAScan(t *testing.T) {
	r := newRig(t, withKioskPIN("2468"))
	r.settle("ONLINE")
	r.Send(ctrl('k'))
	r.scan("12ana@example.org")
	r.Lacks("PIN > ", "Wrong PIN")
	r.Contains("was cut short. Scan it again.")
	if c := r.desk().v.Journal().Counts(); c.Total() != 0 {
		t.Fatalf("the cut scan reached the journal: %+v", c)
	}
	who := r.registered(40)
	r.scan(who)
	r.settle("[OK] CHECKED IN", who)
	if !r.desk().kiosk.locked {
		t.Fatal("the scan unlocked the kiosk")
	}
}
