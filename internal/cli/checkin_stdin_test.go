package cli

import (
	"context"
	"strings"
	"testing"
)

// blockedStdin is standard input on a pipe that never closes: a read
// announces itself, then waits for the test's end.
type blockedStdin struct {
	reading chan struct{}
	release chan struct{}
}

func (b *blockedStdin) Read([]byte) (int, error) {
	close(b.reading)
	<-b.release
	return 0, context.Canceled
}

// TestCheckinFromStdinStopsWhenInterrupted: `evdesk checkin EVENT -`
// waiting on a standard input that sends nothing ends when ctrl+c or
// SIGTERM ends its context, with the interrupted status (3).
func TestCheckinFromStdinStopsWhenInterrupted(t *testing.T) {
	isolateXDG(t)
	stdin := &blockedStdin{reading: make(chan struct{}), release: make(chan struct{})}
	defer close(stdin.release)
	ios, _, _, errOut := TestStreams()
	ios.In = stdin
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-stdin.reading // the command waits on standard input
		cancel()        // as the signal does
	}()
	code := Run(ctx, NewFactory(ios), demo("checkin", "ev1", "-"))
	if code != exitInterrupted || !strings.Contains(errOut.String(), "interrupted") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}
