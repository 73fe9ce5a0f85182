package roster

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/evdesk/evdesk/api"
)

// BucketSize is the width of one bar of the arrivals chart.
const BucketSize = 5 * time.Minute

// Stats are the figures of an arrivals board.
type Stats struct {
	// CheckedIn counts the check-ins the server holds (as last synced, with
	// this desk's confirmed ones); Registered is the event's registrants (0
	// when unknown).
	CheckedIn  int `json:"checked_in"`
	Registered int `json:"registered"`
	// PerDesk counts check-ins by desk, most first.
	PerDesk []DeskCount `json:"per_desk"`
	// Buckets count the timed arrivals per BucketSize, oldest first, from
	// the first timed arrival's bucket to now's, empty ones included.
	Buckets []Bucket `json:"buckets"`
	// Untimed counts check-ins found after a gap (see Arrival.By): they
	// are in CheckedIn but in no bucket.
	Untimed int `json:"untimed"`
	// Latest are the newest timed arrivals, newest first.
	Latest []Arrival `json:"latest"`
	// Synced is when the history last matched the server's.
	Synced time.Time `json:"synced,omitzero"`
}

// DeskCount is how many check-ins one desk made.
type DeskCount struct {
	Desk  string `json:"desk"`
	Count int    `json:"count"`
}

// Bucket is the arrivals of one BucketSize from Start.
type Bucket struct {
	Start time.Time `json:"start"`
	Count int       `json:"count"`
}

// maxBuckets bounds the chart: a day of five-minute bars.
const maxBuckets = 24 * 60 / 5

// Stats sums the history for a board at now: registered is the event's
// registrant count (0 when unknown), latest how many newest arrivals to
// list.
func (a *Arrivals) Stats(now time.Time, registered, latest int) Stats {
	all := a.All()
	st := Stats{CheckedIn: len(all), Registered: registered, Synced: a.Synced()}
	desks := map[string]int{}
	var timed []Arrival
	for _, ar := range all {
		desks[ar.Desk]++
		if ar.By || ar.At.IsZero() {
			st.Untimed++
			continue
		}
		timed = append(timed, ar)
	}
	for d, n := range desks {
		st.PerDesk = append(st.PerDesk, DeskCount{Desk: d, Count: n})
	}
	slices.SortFunc(st.PerDesk, func(x, y DeskCount) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Desk, y.Desk))
	})
	slices.SortStableFunc(timed, func(x, y Arrival) int { return x.At.Compare(y.At) })
	if len(timed) > 0 {
		first := timed[0].At.Truncate(BucketSize)
		last := now.Truncate(BucketSize)
		if last.Before(timed[len(timed)-1].At) {
			last = timed[len(timed)-1].At.Truncate(BucketSize)
		}
		if n := int(last.Sub(first)/BucketSize) + 1; n > maxBuckets {
			first = last.Add(-(maxBuckets - 1) * BucketSize)
		}
		for t := first; !t.After(last); t = t.Add(BucketSize) {
			st.Buckets = append(st.Buckets, Bucket{Start: t})
		}
		for _, ar := range timed {
			if i := int(ar.At.Truncate(BucketSize).Sub(first) / BucketSize); i >= 0 && i < len(st.Buckets) {
				st.Buckets[i].Count++
			}
		}
		for i := len(timed) - 1; i >= 0 && len(st.Latest) < latest; i-- {
			st.Latest = append(st.Latest, timed[i])
		}
	}
	if st.PerDesk == nil {
		st.PerDesk = []DeskCount{}
	}
	if st.Latest == nil {
		st.Latest = []Arrival{}
	}
	if st.Buckets == nil {
		st.Buckets = []Bucket{}
	}
	return st
}

// SessionCount is one session's check-ins, as the server counts them.
type SessionCount struct {
	SessionID string `json:"session_id"`
	Name      string `json:"name"`
	CheckedIn int    `json:"checked_in"`
}

// SessionCounts counts the check-ins of each session of an event: one small
// request a session (the listing's total). On a failure it returns the
// sessions counted so far with the error.
func SessionCounts(ctx context.Context, c *api.Client, eventID string) ([]SessionCount, error) {
	ss, err := c.Attendees.Sessions(ctx, eventID)
	if err != nil {
		return nil, err
	}
	out := make([]SessionCount, 0, len(ss))
	for _, s := range ss {
		l, err := c.Attendees.ListPage(ctx, eventID, s.SessionID, api.ListAttendeeActionsOptions{PageSize: 1}, "")
		if err != nil {
			return out, fmt.Errorf("count the check-ins of session %s: %w", s.SessionID, err)
		}
		out = append(out, SessionCount{SessionID: s.SessionID, Name: s.Name, CheckedIn: l.TotalRecords})
	}
	return out, nil
}
