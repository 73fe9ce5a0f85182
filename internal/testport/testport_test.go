package testport

import (
	"net"
	"strconv"
	"testing"
)

// TestFreeIsBelowTheEphemeralRangeAndFree: a port handed out is in the
// range, and can be listened on.
func TestFreeIsBelowTheEphemeralRangeAndFree(t *testing.T) {
	for range 20 {
		p := Free(t)
		if p < low || p >= high {
			t.Fatalf("port %d outside [%d, %d)", p, low, high)
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			t.Fatalf("port %d: %v", p, err)
		}
		_ = l.Close()
	}
}
