package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// Task is one kind of background work of a screen (loading its data,
// saving a file). Starting it again supersedes the run in flight: that run's
// context is cancelled and its reply dropped, so a screen never acts on a
// stale answer. A screen keeps one Task per kind, as a field.
type Task struct {
	seq     int
	pending bool
	cancel  context.CancelFunc
}

// taskReply is a Task's answer; the shell delivers msg to the owning
// screen only while the run is still the Task's latest.
type taskReply struct {
	task *Task
	seq  int
	msg  tea.Msg
}

// Run starts fn in the background, counted in the status bar's in-flight
// work, with a context that Stop or the next Run cancels. Its message comes
// back to the screen like any reply. fn must not read the screen: capture
// what it needs before calling Run.
func (t *Task) Run(fn func(ctx context.Context) tea.Msg) tea.Cmd {
	t.Stop()
	t.seq++
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel, t.pending = cancel, true
	seq := t.seq
	return Async(func() tea.Msg { return taskReply{task: t, seq: seq, msg: fn(ctx)} })
}

// Detached is Run for work that must finish once started (a change on the
// server): leaving the screen does not cancel it. A later Run still
// supersedes its reply.
func (t *Task) Detached(fn func() tea.Msg) tea.Cmd {
	t.Stop()
	t.seq++
	t.pending = true
	seq := t.seq
	return Async(func() tea.Msg { return taskReply{task: t, seq: seq, msg: fn()} })
}

// Stop cancels the run in flight, if any; its reply will be dropped.
func (t *Task) Stop() {
	if t.cancel != nil {
		t.cancel()
		t.cancel = nil
	}
	t.seq++
	t.pending = false
}

// Running reports whether a run has not answered yet.
func (t *Task) Running() bool { return t.pending }

// settle reports whether seq is the Task's latest run, and if so marks it
// answered.
func (t *Task) settle(seq int) bool {
	if t.seq != seq {
		return false
	}
	t.pending = false
	if t.cancel != nil {
		t.cancel() // the run is over: release its context
		t.cancel = nil
	}
	return true
}
