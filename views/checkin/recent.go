package checkin

import "iter"

// recentScans are the scans the desk lists, newest first, at most
// recentMax. A ring: a scan joins without moving the others, each a few
// hundred bytes holding pointers, whose copy on every Enter was a good
// part of its Update (more while the collector marks, as each pointer
// moved is reported to it).
type recentScans struct {
	ring   [recentMax]entry
	newest int // the newest entry's index in ring
	n      int
}

func (r *recentScans) len() int { return r.n }

// at is the i-th newest entry, 0 the newest; i past the end panics, as a
// slice's index does.
func (r *recentScans) at(i int) *entry {
	if i < 0 || i >= r.n {
		panic("recent scans: index out of range")
	}
	return &r.ring[(r.newest+i)%recentMax]
}

// push makes e the newest entry; the oldest goes when the list is full.
func (r *recentScans) push(e entry) {
	r.newest = (r.newest + recentMax - 1) % recentMax
	r.ring[r.newest] = e
	r.n = min(r.n+1, recentMax)
}

// all is the entries, newest first, with their index for at.
func (r *recentScans) all() iter.Seq2[int, *entry] {
	return func(yield func(int, *entry) bool) {
		for i := range r.n {
			if !yield(i, r.at(i)) {
				return
			}
		}
	}
}

// newestFirst copies the entries out, newest first.
func (r *recentScans) newestFirst() []entry {
	out := make([]entry, 0, r.n)
	for _, e := range r.all() {
		out = append(out, *e)
	}
	return out
}
