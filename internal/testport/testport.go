// Package testport finds loopback ports for tests to give the programs
// they start. A port the kernel hands out (":0") is in its ephemeral
// range, which outbound connections draw from too: once the test lets it
// go, one of the many links of a venue's desks can take it before the
// desk listens there (seen in the 20-desk benchmark). These ports come
// from below that range, as a venue's real port (7248) does.
package testport

import (
	"math/rand/v2"
	"net"
	"strconv"
	"testing"
)

// low and high bound the ports handed out: below Linux's default
// ephemeral range (32768-60999) and above the registered services most
// machines run.
const low, high = 20000, 32768

// Free is a loopback port that nothing listened on a moment ago.
func Free(tb testing.TB) int {
	tb.Helper()
	for range 200 {
		p := low + rand.IntN(high-low)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue // in use: another
		}
		_ = l.Close()
		return p
	}
	tb.Fatal("testport: no free port found below the ephemeral range")
	return 0
}
