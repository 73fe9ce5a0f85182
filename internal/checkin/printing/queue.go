package printing

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/evdesk/evdesk/api"
)

// State is where a print job stands.
type State int

// States of a job.
const (
	// Sending: the badge is being drawn and handed to the print server.
	Sending State = iota
	// Printing: the server has the job; the printer has not finished it.
	Printing
	// Printed: the server reports the job completed.
	Printed
	// Failed: the job could not be sent, or the printer stopped, or it did
	// not print in time; Reason says why. Retry sends it again.
	Failed
)

// Word is the state as the desk shows it.
func (s State) Word() string {
	switch s {
	case Printed:
		return "PRINTED"
	case Failed:
		return "PRINT FAILED"
	}
	return "PRINTING"
}

// Job is one badge sent to the printer.
type Job struct {
	ID int
	// Key is whom the badge is for (an email), so a desk finds a
	// person's latest job; Label names them in messages.
	Key, Label string
	State      State
	// Reason says why a job failed, or what the printer reports while
	// it prints.
	Reason string
	// ServerID is the print server's id of the job ("Badges-12").
	ServerID string
	// Tries counts the sends.
	Tries int

	render func() ([]byte, error)
}

// Printer is a print server's queue (CUPS implements it).
type Printer interface {
	Submit(ctx context.Context, pdf []byte, title string) (string, error)
	Status(ctx context.Context, jobID string) (Status, error)
	Cancel(ctx context.Context, jobID string) error
}

// Options configures a Queue.
type Options struct {
	Printer Printer
	// OnChange hears every change of a job, on a goroutine of the
	// queue's; it must not block for long.
	OnChange func(Job)
	// PollEvery is how often a job's state is asked (default 1 s);
	// Timeout is how long a job may take to print (default 2 min).
	PollEvery, Timeout time.Duration
	// CallTimeout bounds one command (default 20 s).
	CallTimeout time.Duration
	// Wait pauses between polls (default a timer); tests inject one.
	Wait func(ctx context.Context, d time.Duration) error
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Queue sends badges to a printer in the background: Print returns at
// once, and OnChange tells how each job fares. It is safe for concurrent
// use.
type Queue struct {
	o Options

	mu     sync.Mutex
	jobs   map[int]*Job
	latest map[string]int
	next   int
	send   sync.Mutex // one job handed to the server at a time, in order

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewQueue starts a queue for a printer.
func NewQueue(o Options) *Queue {
	if o.PollEvery <= 0 {
		o.PollEvery = time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 20 * time.Second
	}
	if o.Wait == nil {
		o.Wait = api.SleepContext
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	q := &Queue{o: o, jobs: map[int]*Job{}, latest: map[string]int{}}
	q.ctx, q.cancel = context.WithCancel(context.Background())
	return q
}

// Print queues a badge: render draws it (in the background) and the job
// goes to the printer. It returns the job as queued.
func (q *Queue) Print(key, label string, render func() ([]byte, error)) Job {
	q.mu.Lock()
	q.next++
	j := &Job{ID: q.next, Key: key, Label: label, State: Sending, render: render}
	q.jobs[j.ID] = j
	q.latest[key] = j.ID
	out := *j
	q.mu.Unlock()
	q.start(j.ID)
	return out
}

// ErrNotFailed: only a failed job is retried.
var ErrNotFailed = errors.New("the badge has not failed: it is printing or printed")

// Retry sends a failed job again.
func (q *Queue) Retry(id int) (Job, error) {
	q.mu.Lock()
	j, ok := q.jobs[id]
	if !ok {
		q.mu.Unlock()
		return Job{}, fmt.Errorf("no print job %d", id)
	}
	if j.State != Failed {
		q.mu.Unlock()
		return *j, ErrNotFailed
	}
	j.State, j.Reason = Sending, ""
	out := *j
	q.mu.Unlock()
	q.changed(out)
	q.start(id)
	return out, nil
}

// Job returns a job by id.
func (q *Queue) Job(id int) (Job, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	j, ok := q.jobs[id]
	if !ok {
		return Job{}, false
	}
	return *j, true
}

// Latest returns the latest job for key.
func (q *Queue) Latest(key string) (Job, bool) {
	q.mu.Lock()
	id, ok := q.latest[key]
	q.mu.Unlock()
	if !ok {
		return Job{}, false
	}
	return q.Job(id)
}

// Close stops following jobs; the print server keeps those it has.
func (q *Queue) Close() {
	q.cancel()
	q.wg.Wait()
}

func (q *Queue) start(id int) {
	q.wg.Add(1)
	go func() {
		defer q.wg.Done()
		q.run(id)
	}()
}

// update changes a job under the lock and tells OnChange.
func (q *Queue) update(id int, f func(j *Job)) Job {
	q.mu.Lock()
	j := q.jobs[id]
	f(j)
	out := *j
	q.mu.Unlock()
	q.changed(out)
	return out
}

func (q *Queue) changed(j Job) {
	if q.o.OnChange != nil && q.ctx.Err() == nil {
		q.o.OnChange(j)
	}
}

func (q *Queue) fail(id int, why string) {
	q.update(id, func(j *Job) { j.State, j.Reason = Failed, why })
}

// run draws and sends one job, then follows it until it prints, the
// printer stops, or its time is up.
func (q *Queue) run(id int) {
	j, _ := q.Job(id)
	pdf, err := j.render()
	if err != nil {
		q.fail(id, "the badge could not be drawn: "+err.Error())
		return
	}
	q.send.Lock()
	ctx, cancel := context.WithTimeout(q.ctx, q.o.CallTimeout)
	serverID, err := q.o.Printer.Submit(ctx, pdf, "evdesk badge: "+j.Label)
	cancel()
	q.send.Unlock()
	if q.ctx.Err() != nil {
		return
	}
	if err != nil {
		q.update(id, func(j *Job) {
			j.State, j.Reason, j.Tries = Failed, err.Error(), j.Tries+1
		})
		return
	}
	q.update(id, func(j *Job) { j.State, j.ServerID, j.Tries = Printing, serverID, j.Tries+1 })
	deadline := q.o.Now().Add(q.o.Timeout)
	var lastErr error
	for {
		ctx, cancel := context.WithTimeout(q.ctx, q.o.CallTimeout)
		st, err := q.o.Printer.Status(ctx, serverID)
		cancel()
		if q.ctx.Err() != nil {
			return
		}
		switch {
		case err != nil:
			lastErr = err
		case st.Done:
			q.update(id, func(j *Job) { j.State, j.Reason = Printed, "" })
			return
		case st.Failed:
			q.fail(id, st.Reason)
			return
		case st.Stopped:
			// Withdrawn, so a retry after the fix prints it once.
			q.withdraw(serverID)
			why := "the printer stopped"
			if st.Reason != "" {
				why += ": " + st.Reason
			}
			q.fail(id, why)
			return
		}
		if !q.o.Now().Before(deadline) {
			q.withdraw(serverID)
			why := fmt.Sprintf("not printed after %s", q.o.Timeout)
			if lastErr != nil {
				why += ": " + lastErr.Error()
			}
			q.fail(id, why)
			return
		}
		if q.o.Wait(q.ctx, q.o.PollEvery) != nil {
			return
		}
	}
}

func (q *Queue) withdraw(serverID string) {
	ctx, cancel := context.WithTimeout(q.ctx, q.o.CallTimeout)
	defer cancel()
	_ = q.o.Printer.Cancel(ctx, serverID)
}
