package checkin

import (
	"crypto/subtle"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui"
)

// kiosk keeps a desk on screen until a supervisor unlocks it: the kiosk
// key (a chord no scanner types) opens a PIN prompt, and the PIN (digits
// only) unlocks. A scan typed into the prompt is never taken for a PIN
// attempt: the first character that is not a digit closes the prompt, and
// the scan it cut short is refused whole when its Enter comes.
type kiosk struct {
	pin       string
	locked    bool
	prompting bool
	typed     []byte
	// garbled: a scan arrived while the prompt was open; its Enter is
	// refused, since its start went to the prompt.
	garbled bool
	wrong   int // wrong PINs in a row, for the message
}

// maxTyped bounds what the PIN prompt keeps (config.CheckKioskPIN allows
// 12 digits at most).
const maxTyped = 12

func newKiosk(pin string) *kiosk { return &kiosk{pin: pin, locked: true} }

func kioskLockedText(k key.Binding) string {
	return "Kiosk: this desk stays on screen; " + k.Help().Key + " and the PIN unlock it"
}

// interrupt closes the prompt because a scan came into it.
func (k *kiosk) interrupt() {
	k.prompting, k.typed, k.garbled = false, nil, true
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
			return ui.Toast(ui.ToastInfo, "Kiosk locked"), true
		}
		ks.prompting, ks.typed = true, nil
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
		if !ok {
			ks.wrong++
			return ui.Toast(ui.ToastError, "Wrong PIN: the desk stays locked"), true
		}
		ks.locked, ks.wrong = false, 0
		return ui.Toast(ui.ToastSuccess, "Kiosk unlocked: esc leaves the desk, ctrl+c quits; "+d.keys.Kiosk.Help().Key+" locks again"), true
	case k.Text != "":
		// A scan is coming in: the prompt closes and the desk takes the
		// rest of it, which is refused at its Enter.
		ks.interrupt()
		return nil, false
	}
	return nil, true
}

// kioskLine is the PIN prompt, drawn in place of the scan input.
func (d *Desk) kioskLine() string {
	t := d.ctx.Theme
	dots := strings.Repeat("*", len(d.kiosk.typed))
	return t.Key.Render("PIN > ") + dots + t.Muted.Render("   (digits, then enter; esc cancels)")
}
