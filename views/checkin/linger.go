package checkin

import (
	"fmt"
	"github.com/evdesk/evdesk/views"
	"path/filepath"
	"sync"
)

// A desk left with scans not yet sent keeps sending them in the background
// (its venue desk stays open), and the shell asks before quitting, wherever
// the user is. A desk opened again on the same journal takes over: the
// lingering one closes first (a journal has one holder), and the new desk
// resends what is left.

// lingering holds the runtimes of desks left with scans unsent, by journal.
// A journal is a file with a lock: one holder per process, so this is the
// process's list, not a screen's.
var lingering = struct {
	sync.Mutex
	m map[string]*runtime
}{m: map[string]*runtime{}}

func journalKey(d views.Env, eventID, sessionID string) string {
	return filepath.Join(d.JournalDir, eventID, sessionID)
}

// linger leaves rt running for the journal at key.
func linger(key string, rt *runtime) {
	lingering.Lock()
	defer lingering.Unlock()
	lingering.m[key] = rt
}

// takeOver closes the desk lingering on the journal at key, if any, and
// waits until it has let the journal go.
func takeOver(key string) {
	lingering.Lock()
	rt := lingering.m[key]
	delete(lingering.m, key)
	lingering.Unlock()
	if rt != nil {
		rt.shutdown()
	}
}

// unlinger forgets rt if it still lingers at key.
func unlinger(key string, rt *runtime) {
	lingering.Lock()
	defer lingering.Unlock()
	if lingering.m[key] == rt {
		delete(lingering.m, key)
	}
}

// background is a left desk still sending, for the shell: it holds up
// quitting while scans wait (ui.QuitGuard), and closes when the console
// quits (ui.Closer).
type background struct {
	key, event string
	rt         *runtime
}

// ConfirmQuit says how many scans still wait, "" once none do or a new
// desk took the journal over.
func (b *background) ConfirmQuit() string {
	b.rt.mu.Lock()
	closed, v := b.rt.closed, b.rt.v
	b.rt.mu.Unlock()
	if closed || v == nil {
		return ""
	}
	switch n := v.Journal().Counts().Pending; n {
	case 0:
		return ""
	case 1:
		return "1 check-in not yet sent (desk of " + b.event + ")"
	default:
		return fmt.Sprintf("%d check-ins not yet sent (desk of %s)", n, b.event)
	}
}

// Close stops the sending; what is unsent stays in the journal.
func (b *background) Close() {
	unlinger(b.key, b.rt)
	go b.rt.shutdown()
}
