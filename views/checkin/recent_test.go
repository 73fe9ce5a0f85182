package checkin

import (
	"strconv"
	"testing"
)

// The ring keeps the newest recentMax scans, newest first, as the slice
// it replaced did, whatever the number pushed.
func TestRecentScansKeepNewestFirst(t *testing.T) {
	for _, pushed := range []int{0, 1, recentMax - 1, recentMax, recentMax + 1, 3*recentMax + 7} {
		var r recentScans
		for i := range pushed {
			r.push(entry{key: strconv.Itoa(i)})
		}
		if want := min(pushed, recentMax); r.len() != want {
			t.Fatalf("%d pushed: %d kept, want %d", pushed, r.len(), want)
		}
		for i, e := range r.all() {
			if want := strconv.Itoa(pushed - 1 - i); e.key != want || r.at(i) != e {
				t.Fatalf("%d pushed: entry %d is %q, want %q", pushed, i, e.key, want)
			}
		}
		if got := r.newestFirst(); len(got) != r.len() || (len(got) > 0 && got[0].key != strconv.Itoa(pushed-1)) {
			t.Fatalf("%d pushed: newestFirst %d entries, first %v", pushed, len(got), got)
		}
	}
}

// An entry changed through at stays changed: the desk settles entries
// in place.
func TestRecentScansAtIsInPlace(t *testing.T) {
	var r recentScans
	r.push(entry{key: "a"})
	r.push(entry{key: "b"})
	r.at(1).kind = kindCheckedIn
	if r.at(1).kind != kindCheckedIn || r.at(0).kind != kindSaving {
		t.Fatalf("in-place change lost: %+v %+v", *r.at(0), *r.at(1))
	}
	defer func() {
		if recover() == nil {
			t.Fatal("at past the end did not panic")
		}
	}()
	r.at(2)
}
