package checkin

import (
	"crypto/subtle"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/timer"
)

// kiosk keeps a desk on screen until a supervisor unlocks it: the kiosk
// key (a chord no scanner types) opens a PIN prompt, and the PIN (digits
// only) unlocks. A scan is never taken for a PIN attempt: while the
// prompt is open the shell sorts a scanner's keys from a person's
// (ui.ScanSorter), and a scan closes the prompt and is read whole, digits
// first included. A person's key that is not a digit closes the prompt
// too; should it be a scan the shell took for a person's (a slow
// scanner), its start went to the prompt, and it is refused at its Enter.
type kiosk struct {
	pin       string
	locked    bool
	prompting bool
	typed     []byte
	// garbled: a scan arrived while the prompt was open; its Enter is
	// refused, since its start went to the prompt.
	garbled bool
	wrong   int       // wrong PINs in a row
	until   time.Time // no PIN is taken before this (after too many wrong)
}

// maxTyped bounds what the PIN prompt keeps (config.CheckKioskPIN allows
// 12 digits at most).
const maxTyped = 12

// Wrong PINs back off: after kioskFreeTries wrong ones in a row the prompt
// waits kioskFirstWait, doubling with each further wrong PIN up to
// kioskMaxWait, so a PIN of six digits cannot be guessed at the desk.
const (
	kioskFreeTries = 5
	kioskFirstWait = 30 * time.Second
	kioskMaxWait   = time.Hour
)

// kioskFade is how long a locked kiosk shows a scan's result: the next
// person in the queue should not read the last one's name.
const kioskFade = 10 * time.Second

// kioskFadeMsg redraws a kiosk once its latest result has faded.
type kioskFadeMsg struct{}

func newKiosk(pin string) *kiosk { return &kiosk{pin: pin, locked: true} }

// backoff is the wait after the nth wrong PIN in a row (0 while tries are
// free).
func backoff(n int) time.Duration {
	if n < kioskFreeTries {
		return 0
	}
	d := kioskFirstWait
	for i := kioskFreeTries; i < n && d < kioskMaxWait; i++ {
		d *= 2
	}
	return min(d, kioskMaxWait)
}

// kioskLocked reports whether the desk is a locked kiosk (the public's).
func (d *Desk) kioskLocked() bool { return d.kiosk != nil && d.kiosk.locked }

// waitWords says how long until t, in whole seconds ("30 s").
func waitWords(now, t time.Time) string {
	secs := int((t.Sub(now) + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d s", max(secs, 1))
}

func kioskLockedText(k key.Binding) string {
	return "Kiosk: this desk stays on screen; " + k.Help().Key + " and the PIN unlock it"
}

// interrupt closes the prompt because a scan came into it.
func (k *kiosk) interrupt() {
	k.prompting, k.typed, k.garbled = false, nil, true
}

// rollKeys is how many digits a person types into Enter faster than the
// shell's scan gate holds a key (people roll two or three keys): such a
// run over a PIN already begun ends the PIN, it is not a scan. No ticket
// code is that short.
const rollKeys = 2

// scanOverPIN takes a burst over the open PIN prompt that is a person
// rolling the PIN's last digits into Enter; handled is false for a scan.
func (d *Desk) scanOverPIN(m ui.ScanMsg) (tea.Cmd, bool) {
	ks := d.kiosk
	if ks == nil || !ks.prompting || len(ks.typed) == 0 || m.Paste != "" ||
		len(m.Keys) < 2 || len(m.Keys) > rollKeys+1 || !ui.EndsScan(m.Keys[len(m.Keys)-1]) {
		return nil, false
	}
	for _, k := range m.Keys[:len(m.Keys)-1] {
		if k.Code < '0' || k.Code > '9' || k.Mod != 0 {
			return nil, false
		}
	}
	for _, k := range m.Keys[:len(m.Keys)-1] {
		ks.typePIN(k)
	}
	return d.tryPIN(), true
}

// lockOrPrompt is the kiosk key: it locks an unlocked kiosk (closing the
// supervisor's search and board), and opens the PIN prompt of a locked
// one, unless wrong PINs wait out their backoff.
func (d *Desk) lockOrPrompt() tea.Cmd {
	ks := d.kiosk
	if !ks.locked {
		ks.locked = true
		if d.searching {
			d.closeSearch() // the supervisor's search is not the public's
		}
		if d.showBoard {
			d.toggleBoard()
		}
		return ui.Toast(ui.ToastInfo, "Kiosk locked")
	}
	if now := d.deps.Now(); now.Before(ks.until) {
		d.Ctx.Log.Warn("kiosk: PIN prompt refused while waiting", "event", d.eventID, "desk", d.deps.Desk,
			"wrong", ks.wrong, "until", ks.until)
		return pinRefused(fmt.Sprintf("Too many wrong PINs (%d in a row): the next try is in %s",
			ks.wrong, waitWords(now, ks.until)), ks.until.Sub(now))
	}
	ks.prompting, ks.typed = true, nil
	return ui.Succeeded(pinOp) // the wait is over: its error leaves the status bar
}

// pinOp names trying the kiosk's PIN, for its failures and its success.
const pinOp = "Kiosk PIN"

// pinRefused is a refused PIN's failure: in the status bar only while its
// wait lasts (or ErrorTTL when there is none), and until the prompt opens
// again or the PIN unlocks.
func pinRefused(text string, wait time.Duration) tea.Cmd {
	return func() tea.Msg { return ui.ToastMsg{Level: ui.ToastError, Text: text, Op: pinOp, For: wait} }
}

// promptActions are the PIN prompt's keys: enter tries the PIN, esc or
// the kiosk key cancel. Digits are typing (typePIN).
func (d *Desk) promptActions(as ui.Actions) ui.Actions {
	return append(as,
		ui.Action{Key: ui.With(d.enter(d.keys.Submit), "unlock"), Run: d.tryPIN},
		ui.Action{Key: ui.Combine(d.keys.Back.Help().Key, "cancel", d.keys.Back, d.keys.Kiosk), Run: func() tea.Cmd {
			d.kiosk.prompting, d.kiosk.typed = false, nil
			return nil
		}},
	)
}

// typePIN takes a key typed into the prompt: a digit, or backspace; any
// other key is dropped, and handled is false for text: a scan is coming
// in, so the prompt closes and the desk takes the rest of it, which is
// refused at its Enter.
func (k *kiosk) typePIN(key tea.KeyPressMsg) (handled bool) {
	switch {
	case key.Code >= '0' && key.Code <= '9' && key.Mod == 0:
		if len(k.typed) < maxTyped {
			k.typed = append(k.typed, byte(key.Code))
		}
	case key.Code == tea.KeyBackspace:
		if len(k.typed) > 0 {
			k.typed = k.typed[:len(k.typed)-1]
		}
	case key.Text != "":
		k.interrupt()
		return false
	}
	return true
}

// tryPIN checks what was typed into the prompt: wrong PINs back off.
func (d *Desk) tryPIN() tea.Cmd {
	ks := d.kiosk
	ok := subtle.ConstantTimeCompare(ks.typed, []byte(ks.pin)) == 1
	ks.prompting, ks.typed = false, nil
	now := d.deps.Now()
	if !ok {
		ks.wrong++
		wait := backoff(ks.wrong)
		ks.until = now.Add(wait)
		d.Ctx.Log.Warn("kiosk: wrong PIN", "event", d.eventID, "desk", d.deps.Desk, "wrong", ks.wrong, "wait", wait)
		if wait > 0 {
			return pinRefused(fmt.Sprintf("Wrong PIN (%d in a row): the desk stays locked; the next try is in %s",
				ks.wrong, waitWords(now, ks.until)), wait)
		}
		return pinRefused("Wrong PIN: the desk stays locked", 0)
	}
	d.Ctx.Log.Info("kiosk: unlocked", "event", d.eventID, "desk", d.deps.Desk, "wrong_before", ks.wrong)
	ks.locked, ks.wrong, ks.until = false, 0, time.Time{}
	return ui.Toast(ui.ToastSuccess, "Kiosk unlocked: esc leaves the desk, ctrl+c quits; "+d.keys.Kiosk.Help().Key+" locks again")
}

// forKiosk words a refused scan for the public at a locked kiosk without
// search: the remedy is theirs to take, not the staff's search.
func (d *Desk) forKiosk(e entry) entry {
	if e.kind == kindUnknownTicket && d.kioskLocked() && !d.deps.KioskSearch {
		e.msg = "nothing was sent: type your email instead, or ask at the desk"
	}
	return e
}

// kioskLine is the PIN prompt, drawn in place of the scan input.
func (d *Desk) kioskLine() string {
	t := d.Ctx.Theme
	dots := strings.Repeat("*", len(d.kiosk.typed))
	return t.Key.Render("PIN > ") + dots + t.Muted.Render("   (digits, then enter; esc cancels)")
}

// faded reports whether a locked kiosk no longer shows e, its latest
// result: kioskFade after the scan.
func (d *Desk) faded(e entry) bool {
	return d.kioskLocked() && d.deps.Now().Sub(e.at) >= kioskFade
}

// fadeLater redraws a locked kiosk once the result just shown has faded.
func (d *Desk) fadeLater() tea.Cmd {
	if !d.kioskLocked() {
		return nil
	}
	return timer.After(kioskFade, func(time.Time) tea.Msg { return kioskFadeMsg{} })
}

// maskName is a name as a locked kiosk's search shows it: the first word
// whole, the others by their initial ("Dana C."), so the public can find
// themselves without reading the roster.
func maskName(name string) string {
	parts := strings.Fields(name)
	for i := 1; i < len(parts); i++ {
		r := []rune(parts[i])
		parts[i] = string(r[0]) + "."
	}
	return strings.Join(parts, " ")
}

// kioskWho names a scan's person at a locked kiosk: the masked name, else
// the address with its local part masked ("d***@example.com").
func kioskWho(e entry) string {
	if e.person != nil && e.person.Name != "" {
		return sanitize.Line(maskName(e.person.Name))
	}
	local, domain, ok := strings.Cut(e.email, "@")
	if !ok || local == "" {
		return "***"
	}
	return sanitize.Line(string([]rune(local)[0]) + "***@" + domain)
}
