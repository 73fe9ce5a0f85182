package checkin

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"
)

// A kiosk desk stays on screen: esc does nothing there, ctrl+c does not
// quit and says how to unlock; a wrong PIN keeps it locked; ctrl+k and the
// PIN unlock it.
func TestKioskStaysUntilThePIN(t *testing.T) {
	r := newRig(t, withKioskPIN("246813"))
	r.settle("ONLINE", "KIOSK")
	view := r.View()
	r.Press("esc")
	if r.View() != view {
		t.Fatalf("esc acted at the locked kiosk:\n%s", r.View())
	}
	r.Press("ctrl+c")
	if r.Quit() {
		t.Fatal("a locked kiosk quit")
	}
	r.Contains("Kiosk: this desk stays on screen; ctrl+k and the PIN unlock it", "CHECK-IN DESK")
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
	r.Type("246813")
	r.Press("enter")
	r.Contains("KIOSK UNLOCKED", "Kiosk unlocked")
	r.Send(ctrl('k'))
	r.Contains("Kiosk locked", " KIOSK ")
	r.Send(ctrl('k'))
	r.Type("246813")
	r.Press("enter")
	r.Press("esc", "ctrl+y")
	r.Contains("choose an upcoming event") // left for the picker
}

// A badge scanned while the PIN prompt is open is never a PIN attempt
// and never lost: the shell tells the scanner's keys from the person's,
// the scan closes the prompt (what the person typed there is dropped) and
// is read whole, digits first included; a code that reads like the PIN
// unlocks nothing. Keys a person types are the prompt's as before.
func TestKioskPromptGivesWayToAScan(t *testing.T) {
	r := newRig(t, withKioskPIN("246813"))
	r.settle("ONLINE")
	who := r.registered(40)
	r.Send(ctrl('k'))
	r.Type("24") // the supervisor starts the PIN
	r.Contains("PIN > **")
	r.Burst(who, "enter")
	r.Lacks("PIN > ", "Wrong PIN", "scan it again")
	r.settle("[OK] CHECKED IN", kioskWho(entry{email: who}))
	r.Contains("A scan came in: the PIN prompt closed (ctrl+k opens it again)")
	if c := r.desk().v.Journal().Counts(); c.Total() != 1 {
		t.Fatalf("the scan is not in the journal once: %+v", c)
	}
	if !r.desk().kiosk.locked || r.desk().kiosk.wrong != 0 {
		t.Fatalf("the scan acted on the PIN: %+v", r.desk().kiosk)
	}

	// A scanned code of digits, the PIN's own, is a scan.
	r.Send(ctrl('k'))
	r.Burst("246813", "enter")
	r.Lacks("PIN > ", "Kiosk unlocked", "Wrong PIN")
	r.Contains("ticket 246813", "nothing was sent: type your email instead, or ask at the desk")
	r.Lacks("ctrl+f") // no search at this kiosk
	if !r.desk().kiosk.locked || r.desk().kiosk.wrong != 0 {
		t.Fatalf("a scanned code acted as a PIN: %+v", r.desk().kiosk)
	}

	// A person who rolls the PIN's last digits into Enter faster than the
	// shell holds a key types a short run: it ends the PIN.
	r.Send(ctrl('k'))
	r.Type("2468")
	r.Burst("13", "enter")
	r.Contains("Kiosk unlocked")
	r.Send(ctrl('k'))
	r.Contains("Kiosk locked")

	// A scan the shell took for a person's keys (a slow scanner) gave its
	// digits to the prompt: the rest is refused at its Enter, never sent.
	r.Send(ctrl('k'))
	r.scan("12ana@example.org")
	r.Lacks("PIN > ", "Wrong PIN")
	r.Contains("Its start went to the PIN prompt: scan it again.")
	if c := r.desk().v.Journal().Counts(); c.Total() != 1 {
		t.Fatalf("the cut scan reached the journal: %+v", c)
	}
}

// typePIN opens the kiosk's prompt and enters pin.
func (r *rig) typePIN(pin string) {
	r.t.Helper()
	r.Send(ctrl('k'))
	r.Contains("PIN > ")
	r.Type(pin)
	r.Press("enter")
}

// Wrong PINs back off: four are free, the fifth makes the prompt wait 30 s,
// the next one 60 s; every attempt is logged, never the PIN typed.
func TestKioskBacksOffAfterFiveWrongPINs(t *testing.T) {
	var logs bytes.Buffer
	clock := &movingClock{}
	r := newRig(t, withKioskPIN("246813"), withClock(clock), withSize(80, 24),
		withLog(slog.New(slog.NewTextHandler(&logs, nil))))
	r.settle("ONLINE", "KIOSK")
	for i := 1; i <= 4; i++ {
		r.typePIN("111111")
		r.Contains("Wrong PIN: the desk stays locked")
	}
	r.typePIN("111111")
	r.Contains("Wrong PIN (5 in a row): the desk stays locked; the next try is in 30 s", "KIOSK")
	r.Golden("kiosk_5_wrong_80x24")
	r.Send(ctrl('k'))
	r.Lacks("PIN > ")
	r.Contains("Too many wrong PINs (5 in a row): the next try is in 30 s")
	clock.Advance(20 * time.Second)
	r.Send(ctrl('k'))
	r.Contains("the next try is in 10 s")
	clock.Advance(10 * time.Second)
	r.Send(ctrl('k')) // the wait is over: the prompt opens, the old error leaves the status bar
	r.Contains("PIN > ")
	r.Lacks("error: Too many wrong PINs", "error: Wrong PIN")
	r.Press("esc")
	r.typePIN("222222")
	r.Contains("Wrong PIN (6 in a row): the desk stays locked; the next try is in 60 s")
	clock.Advance(time.Minute)
	r.typePIN("246813")
	r.Contains("KIOSK UNLOCKED")

	// A lock and the same again: the count starts over.
	r.Send(ctrl('k'))
	r.typePIN("111111")
	r.Contains("Wrong PIN: the desk stays locked")

	log := logs.String()
	if n := strings.Count(log, "kiosk: wrong PIN"); n != 7 {
		t.Errorf("%d wrong PINs logged, want 7:\n%s", n, log)
	}
	for _, want := range []string{"wrong=5 wait=30s", "wrong=6 wait=1m0s", "kiosk: PIN prompt refused while waiting", "kiosk: unlocked"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	for _, pin := range []string{"111111", "222222", "246813"} {
		if strings.Contains(log, pin) {
			t.Errorf("the log holds a PIN:\n%s", log)
		}
	}
}

func TestKioskBackoffDoubles(t *testing.T) {
	for n, want := range map[int]time.Duration{1: 0, 4: 0, 5: 30 * time.Second, 6: time.Minute, 7: 2 * time.Minute, 12: time.Hour, 1000: time.Hour} {
		if got := backoff(n); got != want {
			t.Errorf("backoff(%d) = %v, want %v", n, got, want)
		}
	}
}

// A locked kiosk shows only the latest result, with the name masked, and
// no earlier scans; the result fades after kioskFade.
func TestKioskShowsOnlyTheLatestResultAndItFades(t *testing.T) {
	clock := &movingClock{}
	r := newRig(t, withKioskPIN("246813"), withClock(clock))
	r.settle("ONLINE", "KIOSK")
	first, second := r.registered(41), r.registered(42)
	r.scan(first)
	r.settle("[OK] CHECKED IN")
	clock.Advance(2 * time.Second)
	r.scan(second)
	r.settle("[OK] CHECKED IN", kioskWho(entry{email: second}))
	r.Lacks(first, second, kioskWho(entry{email: first}), "Recent scans")
	clock.Advance(kioskFade)
	r.Send(kioskFadeMsg{})
	r.Contains("READY", "Scan a ticket or badge")
	r.Lacks(kioskWho(entry{email: second}), "CHECKED IN")

	// Unlocked, the supervisor sees the recent scans in full.
	r.typePIN("246813")
	r.Contains("Recent scans", first, second)
}

// The public cannot search the roster at a kiosk unless the profile
// offers it, and then sees names only, partly masked.
func TestKioskSearchIsOffUnlessOfferedThenMasked(t *testing.T) {
	r := newRig(t, withKioskPIN("246813"))
	r.settle("ONLINE", "KIOSK")
	r.Send(ctrl('f')) // none of the public's keys here: nothing happens
	r.Lacks("Name (type", "@")
	if r.desk().searching {
		t.Fatal("the kiosk searched without its profile's leave")
	}

	r = newRig(t, withKioskPIN("246813"), withKioskSearch())
	r.settle("ONLINE", "KIOSK")
	r.Send(ctrl('f'))
	r.Contains("Name (type part of your first name)")
	view := r.View()
	body := view[strings.Index(view, "Name (type"):]
	if strings.Contains(body, "@") {
		t.Fatalf("the kiosk's search shows addresses:\n%s", view)
	}
	if got, want := maskName("Dana  van Cole"), "Dana v. C."; got != want {
		t.Fatalf("maskName = %q, want %q", got, want)
	}
}

// The PIN prompt's help is its actions: enter unlocks, esc and the kiosk
// key cancel, and every other key that is not typing (the desk's keys
// among them) does nothing while the prompt is open: the public cannot
// reach the desk's keys through it.
func TestPINPromptHelpListsExactlyTheKeysThatAct(t *testing.T) {
	r := newRig(t, withKioskPIN("246813"))
	r.settle("ONLINE", "KIOSK")
	open := func() {
		if !r.desk().kiosk.prompting {
			r.Send(ctrl('k'))
			r.Contains("PIN > ")
		}
	}
	open()
	var short []string
	for _, b := range r.desk().ShortHelp() {
		short = append(short, b.Help().Key+" "+b.Help().Desc)
	}
	if want := []string{"enter unlock", "esc cancel"}; !slices.Equal(short, want) {
		t.Fatalf("the prompt's help: %q, want %q", short, want)
	}
	listed := map[string]bool{}
	for _, g := range append(r.desk().FullHelp(), r.app.ShellKeys()) {
		for _, b := range g {
			for _, k := range b.Keys() {
				listed[k] = true
			}
		}
	}
	keys := []string{"esc", "up", "down", "pgup", "pgdown", "home", "end", "delete", "enter"}
	for i := 1; i <= 12; i++ {
		keys = append(keys, fmt.Sprintf("f%d", i))
	}
	for c := 'a'; c <= 'z'; c++ {
		// ctrl+y answers questions; ctrl+j, i, m are Enter, Tab, Enter;
		// ctrl+c only says the kiosk stays (TestLockedKioskHelpListsExactlyTheKeysThatAct).
		if c != 'y' && c != 'j' && c != 'i' && c != 'm' && c != 'c' {
			keys = append(keys, "ctrl+"+string(c))
		}
	}
	var wrong []string
	for _, k := range keys {
		open()
		before, view := r.app.Activity(), r.View()
		r.Press(k)
		acted := r.View() != view || r.app.Activity() != before
		for i := 0; r.app.Activity().Popups > 0 && i < 3; i++ {
			r.Press("esc")
		}
		switch {
		case acted && !listed[k]:
			wrong = append(wrong, k+" acts but is not in the help")
		case !acted && listed[k]:
			wrong = append(wrong, k+" is in the help but does nothing")
		}
		if r.desk().searching || r.desk().showBoard || !r.desk().kiosk.locked {
			t.Fatalf("%s in the PIN prompt reached the desk", k)
		}
	}
	if len(wrong) > 0 {
		t.Fatalf("the prompt's help is not true:\n%s", strings.Join(wrong, "\n"))
	}
}

// A locked kiosk's help lists what the public can do there, and the kiosk
// key: every key it lists acts, and no other key does; the staff's keys
// (search, board, history, walk-ins, leaving, the yes chord) come back
// with the PIN.
func TestLockedKioskHelpListsExactlyTheKeysThatAct(t *testing.T) {
	r := newRig(t, withKioskPIN("246813"))
	r.settle("ONLINE", "KIOSK")
	// ctrl+c does not quit here: it only says the kiosk stays (below), so
	// the help leaves it out.
	keys := slices.DeleteFunc(append(deskKeysToPress(), "ctrl+y"), func(k string) bool { return k == "ctrl+c" })
	reset := func() {
		if r.desk().kiosk.prompting {
			r.Press("esc")
		}
		if r.desk().searching || r.desk().showBoard || !r.desk().kiosk.locked {
			t.Fatalf("a key at the locked kiosk reached the staff's desk")
		}
	}
	if wrong := r.untrueHelp(keys, reset); len(wrong) > 0 {
		t.Fatalf("the locked kiosk's help is not true:\n%s", strings.Join(wrong, "\n"))
	}
	var listed []string
	for _, b := range r.desk().FullHelp()[0] {
		listed = append(listed, b.Help().Key)
	}
	if want := []string{"ctrl+k", "enter"}; !slices.Equal(listed, want) {
		t.Fatalf("the locked kiosk lists %q, want %q", listed, want)
	}
	r.Press("ctrl+c")
	if r.Quit() || !r.desk().kiosk.locked {
		t.Fatal("ctrl+c at the locked kiosk quit or unlocked it")
	}
	r.Contains(kioskLockedText(r.desk().keys.Kiosk))
	// ctrl+c only says the kiosk stays: the shell lists F1 alone.
	var shell []string
	for _, b := range r.app.ShellKeys() {
		shell = append(shell, b.Help().Key)
	}
	if want := []string{"F1"}; !slices.Equal(shell, want) {
		t.Fatalf("the locked kiosk's shell keys are %q, want %q", shell, want)
	}
	// Typed text is cleared with esc, which the help then lists.
	r.Type("ab")
	if wrong := r.untrueHelp([]string{"esc"}, reset); len(wrong) > 0 {
		t.Fatalf("esc over typed text: %s", strings.Join(wrong, "\n"))
	}
	// F1 shows just that: the kiosk's keys, esc with them, and F1.
	r.Send(fkey(1))
	r.Contains("Keys", "ctrl+k", "enter", "esc ", "F1 ")
	r.Lacks("ctrl+c", "quit, from anywhere")
	r.Send(fkey(1))
	r.Press("esc")
	// Unlocked, the staff's keys are back.
	unlock := func() {
		r.Send(ctrl('k'))
		r.Type("246813")
		r.Press("enter")
		r.Contains("Kiosk unlocked")
	}
	unlock()
	if wrong := r.untrueHelp(deskKeysToPress(), func() {
		if r.desk().searching {
			r.Press("esc")
		}
		if r.desk().showBoard {
			r.Send(fkey(4))
		}
		if r.desk().kiosk.locked { // ctrl+k locked it
			unlock()
		}
	}); len(wrong) > 0 {
		t.Fatalf("the unlocked kiosk's help is not true:\n%s", strings.Join(wrong, "\n"))
	}
}
