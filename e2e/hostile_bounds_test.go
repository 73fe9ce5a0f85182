package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim/hostile"
)

// The bounds of issue 21, driven through the real binary: a listing is
// bounded as a whole, and a refused answer costs about its cap.

// TestHostileFreshPagesStopAtTheListingBudget: every page brings new events
// with 64 KB names, a fresh page token and no total. The CLI stops at the
// listing's budget (16 MiB here) naming it, with its memory near the budget;
// the console keeps the rows that arrived and says why it stopped.
func TestHostileFreshPagesStopAtTheListingBudget(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{FreshPages: true, Pad: 64 << 10})
	env := append(he.env, "EVDESK_MAX_LISTING_MB=16")
	r := runBinary(t, env, "events", "list", "-o", "json")
	if r.err == nil || !strings.Contains(string(r.stderr), "list events: the listing passed its budget of 16 MiB after") ||
		!strings.Contains(string(r.stderr), "max_listing_mb") {
		t.Fatalf("an endless listing of new items must stop at its budget: %v\n%.500s", r.err, r.stderr)
	}
	t.Logf("fresh pages of 64 KB names: stopped after %d requests in %v, peak RSS %d MB (budget 16 MiB)",
		he.h.Requests(), r.took.Round(time.Millisecond), r.maxRSS>>20)
	// What was read is kept (decoded, then written as JSON): a few copies
	// of the budget, never more.
	if r.maxRSS > 6*16<<20 {
		t.Errorf("peak RSS %d MB for a 16 MiB listing budget", r.maxRSS>>20)
	}

	tm := startTermEnv(t, 120, 36, env)
	tm.waitText("load failed", "budget of 16 MiB")
	tm.quitCleanly()
}
