package sim

import (
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// faultState holds the fault knobs and a seeded RNG, so a given sequence of
// requests meets the same faults on every run.
type faultState struct {
	mu        sync.Mutex
	latency   time.Duration
	errorRate float64
	dropRate  float64
	rng       *rand.Rand
}

type faultKind int

const (
	faultNone       faultKind = iota
	faultError                // answer 500/502/503 before processing
	faultDropBefore           // close the connection before processing
	faultDropAfter            // process, then close the connection unanswered
)

type faultDecision struct {
	latency time.Duration
	kind    faultKind
	status  int
}

var faultStatuses = []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}

func newFaultState(seed uint64, latency time.Duration, errorRate, dropRate float64) *faultState {
	f := &faultState{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	f.set(latency, errorRate, dropRate)
	return f
}

func (f *faultState) set(latency time.Duration, errorRate, dropRate float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.latency = max(latency, 0)
	f.errorRate = min(max(errorRate, 0), 1)
	f.dropRate = min(max(dropRate, 0), 1)
}

// draw decides the fate of one request. The RNG is consulted only for the
// knobs that are on, so turning one on does not reshuffle the other.
func (f *faultState) draw() faultDecision {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := faultDecision{latency: f.latency}
	if f.errorRate > 0 && f.rng.Float64() < f.errorRate {
		d.kind, d.status = faultError, faultStatuses[f.rng.IntN(len(faultStatuses))]
		return d
	}
	if f.dropRate > 0 && f.rng.Float64() < f.dropRate {
		d.kind = faultDropBefore
		if f.rng.IntN(2) == 1 {
			d.kind = faultDropAfter
		}
	}
	return d
}

// dropConnection closes the client's connection without an answer.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	// HTTP/2 and wrapped writers cannot be hijacked: abort the response,
	// which resets the stream or closes the connection.
	panic(http.ErrAbortHandler)
}

// discardWriter swallows the answer of a request whose response is lost.
type discardWriter struct{ h http.Header }

func newDiscardWriter() *discardWriter               { return &discardWriter{h: http.Header{}} }
func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}
