package fakeclock

import (
	"context"
	"testing"
	"time"
)

func TestTheClockMovesOnlyWhenTold(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	c := New(t0)
	if !c.Now().Equal(t0) {
		t.Fatalf("start %v", c.Now())
	}
	c.Advance(time.Minute)
	if err := c.Sleep(context.Background(), time.Second); err != nil || !c.Now().Equal(t0.Add(61*time.Second)) {
		t.Fatalf("after a minute and a second: %v %v", c.Now(), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Sleep(ctx, time.Hour); err == nil || !c.Now().Equal(t0.Add(61*time.Second)) {
		t.Fatalf("a cancelled sleep moved the clock: %v %v", c.Now(), err)
	}
}
