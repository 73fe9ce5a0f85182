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
// prompt is open the shell tells a scanner's keys from a person's
// (ui.KeyJudge), and a scan closes the prompt and is read whole, digits
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
	// burst holds the digits of a run the shell judged a scanner's while
	// they may still be a person rolling the PIN's last digits into Enter
	// (rollKeys at most).
	burst []tea.KeyPressMsg
}

// rollKeys is how many digits a person types into Enter faster than the
// shell's scan gate holds a key (people roll two or three keys): a run of
// that many digits and Enter over the prompt is the PIN's end, not a scan.
// No ticket code is that short.
const rollKeys = 2

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

// JudgesKeys asks the shell to tell a scanner's keys from a person's while
// the PIN prompt is open (ui.KeyJudge).
func (d *Desk) JudgesKeys() bool { return d.kiosk != nil && d.kiosk.prompting }

// onScannedKey takes a key the shell knows a scanner typed: over the PIN
// prompt it closes the prompt (what a person typed there is dropped) and
// starts the scan, which is then read as at any time. A run of rollKeys
// digits or fewer into Enter was a person's, and ends the PIN.
func (d *Desk) onScannedKey(k tea.KeyPressMsg) (ui.Screen, tea.Cmd) {
	ks := d.kiosk
	if ks == nil || !ks.prompting {
		return d.Update(k)
	}
	digit := k.Code >= '0' && k.Code <= '9' && k.Mod == 0
	switch {
	case digit && len(ks.burst) < rollKeys:
		ks.burst = append(ks.burst, k)
		return d, nil
	case (k.Code == tea.KeyEnter || k.Code == tea.KeyKpEnter) && k.Mod == 0 && len(ks.burst) > 0:
		for _, b := range ks.burst { // the PIN's last digits, rolled
			if len(ks.typed) < maxTyped {
				ks.typed = append(ks.typed, byte(b.Code))
			}
		}
		ks.burst = nil
		return d.Update(k)
	}
	keys := append(ks.burst, k)
	ks.prompting, ks.typed, ks.burst = false, nil, nil
	cmds := []tea.Cmd{ui.Toast(ui.ToastInfo, "A scan came in: the PIN prompt closed ("+d.keys.Kiosk.Help().Key+" opens it again)")}
	for _, key := range keys {
		_, cmd := d.Update(key)
		cmds = append(cmds, cmd)
	}
	return d, tea.Batch(cmds...)
}

// onKioskKey handles the kiosk key and the PIN prompt; handled is false for
// keys the desk handles as usual.
func (d *Desk) onKioskKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	ks := d.kiosk
	if !ks.prompting {
		if !key.Matches(k, d.keys.Kiosk) {
			return nil, false
		}
		if !ks.locked {
			ks.locked = true
			if d.searching {
				d.closeSearch() // the supervisor's search is not the public's
			}
			if d.showBoard {
				d.toggleBoard()
			}
			return ui.Toast(ui.ToastInfo, "Kiosk locked"), true
		}
		if now := d.deps.Now(); now.Before(ks.until) {
			d.ctx.Log.Warn("kiosk: PIN prompt refused while waiting", "event", d.eventID, "desk", d.deps.Desk,
				"wrong", ks.wrong, "until", ks.until)
			return ui.Toast(ui.ToastError, fmt.Sprintf("Too many wrong PINs (%d in a row): the next try is in %s",
				ks.wrong, waitWords(now, ks.until))), true
		}
		ks.prompting, ks.typed, ks.burst = true, nil, nil
		return nil, true
	}
	switch {
	case k.Code >= '0' && k.Code <= '9' && k.Mod == 0:
		if len(ks.typed) < maxTyped {
			ks.typed = append(ks.typed, byte(k.Code))
		}
		return nil, true
	case k.Code == tea.KeyBackspace:
		if len(ks.typed) > 0 {
			ks.typed = ks.typed[:len(ks.typed)-1]
		}
		return nil, true
	case key.Matches(k, d.keys.Back, d.keys.Kiosk):
		ks.prompting, ks.typed = false, nil
		return nil, true
	case d.isSubmit(k) || k.Code == tea.KeyEnter:
		ok := subtle.ConstantTimeCompare(ks.typed, []byte(ks.pin)) == 1
		ks.prompting, ks.typed = false, nil
		now := d.deps.Now()
		if !ok {
			ks.wrong++
			wait := backoff(ks.wrong)
			ks.until = now.Add(wait)
			d.ctx.Log.Warn("kiosk: wrong PIN", "event", d.eventID, "desk", d.deps.Desk, "wrong", ks.wrong, "wait", wait)
			if wait > 0 {
				return ui.Toast(ui.ToastError, fmt.Sprintf("Wrong PIN (%d in a row): the desk stays locked; the next try is in %s",
					ks.wrong, waitWords(now, ks.until))), true
			}
			return ui.Toast(ui.ToastError, "Wrong PIN: the desk stays locked"), true
		}
		d.ctx.Log.Info("kiosk: unlocked", "event", d.eventID, "desk", d.deps.Desk, "wrong_before", ks.wrong)
		ks.locked, ks.wrong, ks.until = false, 0, time.Time{}
		return ui.Toast(ui.ToastSuccess, "Kiosk unlocked: esc leaves the desk, ctrl+c quits; "+d.keys.Kiosk.Help().Key+" locks again"), true
	case k.Text != "":
		// A scan is coming in: the prompt closes and the desk takes the
		// rest of it, which is refused at its Enter.
		ks.interrupt()
		return nil, false
	}
	return nil, true
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
	t := d.ctx.Theme
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
