package e2e

import (
	"strings"
	"testing"
)

// A scan replaces what a person half-typed (QA): at the bare desk, in the
// search and at a locked kiosk, "ab" typed at a person's pace and then a
// scanner's burst sends the scanned address alone, and the desk says what
// it set aside; a scan over the history (F3) brings the desk back and is
// recorded. The server holds each scanned person checked in once, at
// 80x24.
func TestAScanReplacesHalfTypedTextEndToEnd(t *testing.T) {
	t.Parallel()
	c, env := deskSim(t)
	id, regs := largeEvent()
	bare, search, history, kiosk := regs[20], regs[21], regs[22], regs[23]

	tm := startTermEnv(t, 80, 24, env, "desk", id, "--desk", "Door-S")
	tm.waitText("CHECK-IN DESK", "ONLINE", "roster 20,000")
	tm.personTypes("ab")
	tm.scan(bare, "Enter")
	tm.waitText("[OK] CHECKED IN", bare, `set aside, not sent: "ab"`)

	tm.keys("C-f")
	tm.waitText("Registration")
	tm.keys("-l", "hu")
	tm.scan(search, "Enter")
	tm.waitText("[OK] CHECKED IN", search, `set aside, not sent: "hu"`)

	tm.keys("F3")
	tm.waitText("First seen here")
	tm.scan(history, "Enter")
	tm.waitText("[OK] CHECKED IN", history)
	tm.waitGone("First seen here")
	tm.waitText("This desk today 3", "Pending 0")
	tm.keys("C-c")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}

	kenv := append(env, "EVDESK_KIOSK_PIN=246813")
	tk := startTermEnv(t, 80, 24, kenv, "desk", id, "--desk", "Kiosk-S", "--kiosk")
	tk.waitText("CHECK-IN DESK", "KIOSK", "ONLINE")
	tk.personTypes("29")
	tk.scan(kiosk, "Enter")
	tk.waitText("[OK] CHECKED IN", "cleared, not sent: 2 typed characters")
	tk.waitText("Pending 0")

	got := actionsAt(t, c, id, bare, search, history, kiosk)
	for _, who := range []string{bare, search, history, kiosk} {
		if got[who] != 1 {
			t.Fatalf("the server's check-ins: %v, want one each", got)
		}
	}
}

// A scanner set to add no terminator (QA): two codes a moment apart, with
// no Enter after either, are each recorded once the code is over, in the
// real binary, and neither is set aside as a person's half-typed text.
func TestCodesWithNoTerminatorAreRecordedEndToEnd(t *testing.T) {
	t.Parallel()
	c, env := deskSim(t)
	id, regs := largeEvent()
	first, second := regs[30], regs[31]

	tm := startTermEnv(t, 80, 24, env, "desk", id, "--desk", "Door-N")
	tm.waitText("CHECK-IN DESK", "ONLINE", "roster 20,000")
	tm.scan(first, "")
	tm.waitText("[OK] CHECKED IN", first)
	tm.scan(second, "")
	tm.waitText("[OK] CHECKED IN", second)
	tm.waitText("This desk today 2", "Pending 0")
	if s := tm.screen(); strings.Contains(s, "set aside") {
		t.Fatalf("a scanned code was set aside:\n%s", s)
	}
	tm.keys("C-c")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}
	got := actionsAt(t, c, id, first, second)
	if got[first] != 1 || got[second] != 1 {
		t.Fatalf("the server's check-ins: %v, want one each", got)
	}
}
