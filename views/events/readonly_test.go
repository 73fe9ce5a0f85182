package events

import (
	"testing"

	"github.com/evdesk/evdesk/views/viewtest"
)

// TestReadOnlySessionOffersNoWrite: in a read-only session (a supervisor's
// or a projector's screen) every write says why it is unavailable, nothing
// is sent, and reading goes on as usual.
func TestReadOnlySessionOffersNoWrite(t *testing.T) {
	ctx := viewtest.Context()
	ctx.ReadOnly = "--read-only"
	r := newRigWith(t, 100, 30, ctx, nil)
	r.Contains("READ-ONLY")
	r.Press("n")
	r.Contains("Read-only: new event is unavailable (--read-only).")
	r.Lacks("Tagline")
	r.Press("3", "enter") // a draft: reading still works
	r.Contains("DRAFT")
	for _, k := range []string{"p", "e", "d", "c"} {
		r.Press(k)
		r.Contains("is unavailable (--read-only)")
		r.Lacks("[ Yes ]")
	}
	r.Press("esc")
	r.Contains("3 Draft 8") // nothing published, nothing deleted
}
