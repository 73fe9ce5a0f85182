// Package hook runs the profile's on_checkin command after each check-in
// the server confirmed: the arguments are a list, each placeholder replaced
// by its value as one argument (never through a shell); the output goes to
// the log; a timeout ends it; a failure is reported, and nothing waits for
// it. The child gets the desk's environment without evdesk's own variables
// (tokens, secrets, PINs).
package hook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// Vars are the values of the placeholders.
type Vars struct {
	Email, Name, Ticket, Desk, Event, Session string
}

// expand replaces the placeholders of one argument.
func (v Vars) expand(arg string) string {
	return strings.NewReplacer("{email}", v.Email, "{name}", v.Name, "{ticket}", v.Ticket,
		"{desk}", v.Desk, "{event}", v.Event, "{session}", v.Session).Replace(arg)
}

// Result is how one run went.
type Result struct {
	Vars Vars
	// Err is nil when the command exited 0; else it says how it failed
	// (not found, exit status, timed out).
	Err error
	// Output is the end of what the command wrote (stdout and stderr),
	// made safe for a terminal.
	Output string
	Took   time.Duration
}

// Options configures a Runner.
type Options struct {
	// Argv is the command and its arguments (config on_checkin).
	Argv []string
	// Timeout ends a run (default 15 s).
	Timeout time.Duration
	// MaxRunning bounds the commands running at once (default 4); a
	// check-in past that waits its turn in a queue of MaxQueued (default
	// 256), and past that is reported as not run.
	MaxRunning, MaxQueued int
	// Log hears every run (default: discarded).
	Log *slog.Logger
	// OnResult hears every run's end, on a goroutine of the runner's.
	OnResult func(Result)
}

// Runner runs the hook in the background.
type Runner struct {
	o    Options
	jobs chan Vars
	wg   sync.WaitGroup
	once sync.Once
	ctx  context.Context
	stop context.CancelFunc
}

// maxOutput is how much of a run's output is kept for the log.
const maxOutput = 4 << 10

// New starts a runner; nil when argv is empty (no hook).
func New(o Options) *Runner {
	if len(o.Argv) == 0 || o.Argv[0] == "" {
		return nil
	}
	if o.Timeout <= 0 {
		o.Timeout = 15 * time.Second
	}
	if o.MaxRunning <= 0 {
		o.MaxRunning = 4
	}
	if o.MaxQueued <= 0 {
		o.MaxQueued = 256
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	r := &Runner{o: o, jobs: make(chan Vars, o.MaxQueued)}
	r.ctx, r.stop = context.WithCancel(context.Background())
	for range o.MaxRunning {
		r.wg.Go(r.work)
	}
	return r
}

// ErrBusy: the hook's queue is full; the check-in's run was dropped.
var ErrBusy = errors.New("the on_checkin command is not keeping up: this check-in's run was skipped")

// Run queues a run for a check-in and returns at once.
func (r *Runner) Run(v Vars) {
	if r == nil {
		return
	}
	select {
	case r.jobs <- v:
	default:
		r.report(Result{Vars: v, Err: ErrBusy})
	}
}

// Close ends the running commands and drops the queued ones.
func (r *Runner) Close() {
	if r == nil {
		return
	}
	r.once.Do(func() {
		r.stop()
		close(r.jobs)
		r.wg.Wait()
	})
}

func (r *Runner) work() {
	for v := range r.jobs {
		if r.ctx.Err() != nil {
			continue
		}
		r.report(r.run(v))
	}
}

func (r *Runner) report(res Result) {
	attrs := []any{"command", r.o.Argv[0], "email", res.Vars.Email, "took", res.Took.Round(time.Millisecond)}
	if res.Output != "" {
		attrs = append(attrs, "output", res.Output)
	}
	if res.Err != nil {
		r.o.Log.Warn("on_checkin failed", append(attrs, "err", res.Err.Error())...)
	} else {
		r.o.Log.Info("on_checkin ran", attrs...)
	}
	if r.o.OnResult != nil {
		r.o.OnResult(res)
	}
}

// run runs the command once.
func (r *Runner) run(v Vars) Result {
	args := make([]string, len(r.o.Argv))
	for i, a := range r.o.Argv {
		args[i] = v.expand(a)
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.o.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = childEnv(os.Environ())
	cmd.Stdin = nil
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	// A child that leaves a grandchild holding the output open is not
	// waited on past this.
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	res := Result{Vars: v, Took: time.Since(start), Output: sanitize.Text(strings.TrimSpace(out.String()))}
	switch {
	case err == nil:
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Err = fmt.Errorf("%s did not finish within %s and was stopped", args[0], r.o.Timeout)
	case errors.Is(err, exec.ErrNotFound):
		res.Err = fmt.Errorf("%s was not found: name a program on the PATH, or give its full path", args[0])
	default:
		res.Err = fmt.Errorf("%s: %w", args[0], err)
	}
	return res
}

// childEnv is the environment without evdesk's own variables: the child
// never sees a token, a secret or the kiosk PIN.
func childEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		if strings.HasPrefix(up, "EVDESK_") || strings.Contains(up, "TOKEN") || strings.Contains(up, "SECRET") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// tail keeps the last maxOutput bytes written.
type tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if over := t.buf.Len() - maxOutput; over > 0 {
		t.buf.Next(over)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
