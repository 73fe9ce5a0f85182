package checkin

import (
	"testing"

	"github.com/evdesk/evdesk/ui/uitest"
)

// A scanner's burst replaces what a person half-typed in the scan input,
// at the bare desk (its keys act at once), in the search, and at a locked
// kiosk: the scan is sent as scanned, never glued onto the typing, and the
// desk says once what it set aside.
func TestAScanReplacesHalfTypedText(t *testing.T) {
	t.Run("bare desk", func(t *testing.T) {
		r := newRig(t)
		r.settle("ONLINE")
		who := r.registered(43)
		r.Type("ab")
		r.scanChecksIn(who)
		r.Contains(`set aside, not sent: "ab"`)
		r.Lacks("NOT REGISTERED", "ab"+who)
		// A person's typing, Enter and all, is sent as typed.
		next := r.registered(44)
		r.Type(next)
		r.Press("enter")
		r.settle(next)
		if r.checkIns(next) != 1 {
			t.Fatalf("the typed address was checked in %d times", r.checkIns(next))
		}
	})
	t.Run("search", func(t *testing.T) {
		r := newRig(t)
		r.settle("ONLINE", "roster 20,000")
		r.Send(ctrl('f'))
		r.Type("hu")
		r.scanChecksIn(r.registered(45))
		r.Contains(`set aside, not sent: "hu"`)
	})
	t.Run("locked kiosk", func(t *testing.T) {
		r := newRig(t, withKioskPIN("246813"))
		r.settle("ONLINE")
		r.Type("29") // digits typed while wrong PINs wait, say
		who := r.registered(46)
		r.scanChecksIn(who)
		r.Contains(kioskWho(entry{email: who}), "cleared, not sent: 2 typed characters")
	})
}

// The history opened from the desk (F3) is a view over the desk, as the
// board is: a scan there brings the desk back and is recorded, whole and
// once, never ignored.
func TestAScanOverTheHistoryIsRecorded(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	r.Send(fkey(3))
	r.Contains("Email", "First seen here")
	r.scanChecksIn(r.registered(47))
	r.Lacks("ignored", "First seen here")
	// A person's keys are the history's: its filter, not a scan.
	r.Send(fkey(3))
	r.Type("/")
	r.Type("zz")
	r.Contains("First seen here")
}

// scanChecksIn scans who as a scanner does and waits for the check-in,
// which the server must hold once.
func (r *rig) scanChecksIn(who string) {
	r.t.Helper()
	r.Burst(who, "enter")
	r.settle("[OK] CHECKED IN")
	if n := r.checkIns(who); n != 1 {
		r.t.Fatalf("the scan of %s was checked in %d times", who, n)
	}
}

// A control key inside a scanner's burst (a GS1 separator, a prefix set
// wrong) garbles the code: the desk refuses it whole and says which key
// came, and never reads a part of it, even a part that is a registrant's
// address.
func TestAControlKeyInsideAScanIsRefusedWhole(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	who := r.registered(48)
	burst := append(uitest.TextKeys("zz"), ctrl('b'))
	burst = append(burst, uitest.TextKeys(who)...)
	r.BurstKeys(append(burst, uitest.Key("enter"))...)
	r.Contains("NOT RECOGNISED", "The scanner sent ctrl+b inside this code")
	r.Lacks("set aside")
	r.scanChecksIn(r.registered(49)) // the desk's next scan is sent: nothing of the garbled one was
	if n := r.checkIns(who); n != 0 {
		t.Fatalf("a part of the garbled code was checked in %d times", n)
	}
}

// A garbled code cleared with esc is gone: the next address typed is read.
func TestAGarbledCodeClearedIsForgotten(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	r.BurstKeys(append(uitest.TextKeys("4006"), ctrl('b'), uitest.Key("9"))...) // no terminator
	r.Press("esc")
	who := r.registered(50)
	r.Type(who) // a person's keys, one at a time
	r.Press("enter")
	r.settle("[OK] CHECKED IN")
	r.Lacks("The scanner sent ctrl+b")
}
