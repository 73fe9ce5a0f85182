package scanqueue

import (
	"errors"
	"math"
	"syscall"
	"time"
)

// When the journal cannot record the server's answers (a full disk), the
// sender keeps them in memory and sends nothing more: a scan whose answer
// is not on disk must not be sent again. It tries to record them again
// with backoff, at once on Wake (the desk's ctrl+r), and when a scan could
// be journaled (space came back); once they are recorded it goes on by
// itself.

// recordHeld tries to record the held answers once. It reports false when
// the sender must stop: it was closed, or the journal refuses writes for
// good.
func (s *Sender) recordHeld() bool {
	settled, err := s.j.Ack(s.held)
	if err == nil {
		s.held, s.heldFailures = nil, 0
		s.pub.poke(settled)
		s.touch(func(st *Status) { st.State, st.LastError, st.Failures, st.RetryAt = Idle, nil, 0, time.Time{} })
		return true
	}
	if s.j.failed() {
		s.touch(func(st *Status) { st.LastError = err })
		return false
	}
	s.heldFailures++
	wait := time.Duration(math.Min(float64(s.opts.BaseDelay)*math.Pow(2, float64(s.heldFailures-1)), float64(s.opts.MaxDelay)))
	retryAt := s.opts.Now().Add(wait)
	n := len(s.held)
	s.touch(func(st *Status) {
		st.State, st.LastError, st.Failures, st.RetryAt, st.InFlight = Unwritable, &UnrecordedError{Answers: n, Err: err}, s.heldFailures, retryAt, 0
	})
	_, arrived := s.j.batch(0, nil)
	return s.rest(arrived, wait)
}

// UnrecordedError is a sender's LastError while it holds answers the
// journal could not record.
type UnrecordedError struct {
	Answers int // the server's answers held in memory
	Err     error
}

func (e *UnrecordedError) Error() string {
	return "the journal cannot record the server's answers: " + e.Err.Error()
}

func (e *UnrecordedError) Unwrap() error { return e.Err }

// DiskFull reports whether err is a full disk (or a quota reached).
func DiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, errNoSpace)
}
