// Package fakeclock is a clock tests move by hand. A simulator, its clients
// and the code under test share one, so a test decides when time passes and
// a wait moves the clock instead of sleeping.
package fakeclock

import (
	"context"
	"sync"
	"time"
)

// Clock is a time that moves only when told; safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New starts a clock at t.
func New(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Sleep "waits" d by moving the clock on, unless ctx has ended.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Advance(d)
	return nil
}
