package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui/timer"
)

// ErrorTTL is how long a failure stays in the status bar when nothing
// succeeds after it.
const ErrorTTL = time.Minute

// maxErrors is how many failures the recent-errors panel keeps.
const maxErrors = 50

// Detailer is an error that can list what is known of it (the api
// package's errors: operation, endpoint, status, code and its meaning,
// message), for the recent-errors panel and the log.
type Detailer interface {
	Details() [][2]string
}

// Fail reports a failed operation: a toast in words, a line in the status
// bar until the next success, an entry in the recent errors with whatever
// the error knows of itself, and a line in the log.
func Fail(op string, err error) tea.Cmd {
	return func() tea.Msg {
		text := err.Error()
		if !strings.HasPrefix(text, op) { // api errors name their operation already
			text = op + " failed: " + text
		}
		return ToastMsg{Level: ToastError, Text: text, Op: op, Err: err}
	}
}

// ItemsRefused is a call the server answered item by item, refusing some:
// what came of it, and every refused item with the server's reason, so the
// recent errors show each one (the toast has room for the first).
type ItemsRefused struct {
	Summary string      // "added 1 of 2 co-editors"
	Items   [][2]string // item (an address) and the reason it was refused
	Err     error       // what the call itself failed with, if it did
}

func (e *ItemsRefused) Error() string {
	text := e.Summary
	if len(e.Items) > 0 {
		text += "; refused " + e.Items[0][0] + ": " + strings.TrimSuffix(e.Items[0][1], ".")
		if n := len(e.Items) - 1; n > 0 {
			text += fmt.Sprintf(" (and %d more: E lists them)", n)
		}
	}
	if e.Err != nil {
		text += ": " + e.Err.Error()
	}
	return text
}

func (e *ItemsRefused) Unwrap() error { return e.Err }

// Details lists the call's own details, if it failed, then the outcome and
// each refused item.
func (e *ItemsRefused) Details() [][2]string {
	var d [][2]string
	var inner Detailer
	if e.Err != nil && errors.As(e.Err, &inner) {
		d = inner.Details()
	}
	d = append(d, [2]string{"Result", e.Summary})
	for _, it := range e.Items {
		d = append(d, [2]string{"Refused", it[0] + ": " + it[1]})
	}
	return d
}

// Explain tells err in a screen's words (what an error code means there,
// what to do); err stays underneath, with all it knows, for the recent
// errors.
func Explain(text string, err error) error { return explained{text: text, err: err} }

type explained struct {
	text string
	err  error
}

func (e explained) Error() string { return e.text }
func (e explained) Unwrap() error { return e.err }

// failure is one entry of the recent errors.
type failure struct {
	at      time.Time
	op      string
	text    string
	details [][2]string
}

// statusTTL is how long failure m stays in the status bar: ErrorTTL, or
// less when its cause ends sooner (m.For).
func statusTTL(m ToastMsg) time.Duration {
	if m.For > 0 {
		return min(ErrorTTL, m.For)
	}
	return ErrorTTL
}

// SucceededMsg says op worked (Succeeded): the status bar's failure of the
// same op is news no more.
type SucceededMsg struct{ Op string }

// Succeeded tells the shell op worked now, so a failure of op in the
// status bar leaves it: a reload after an outage, a retried load.
func Succeeded(op string) tea.Cmd {
	return func() tea.Msg { return SucceededMsg{Op: op} }
}

// errorClearedMsg clears the status bar's failure seq, unless a newer one
// replaced it.
type errorClearedMsg struct{ seq int }

// record keeps a failure and logs it; its details never include secrets
// (the api package redacts queries and tokens; the log redacts the rest).
func (a *App) record(m ToastMsg) tea.Cmd {
	f := failure{at: a.ctx.now(), op: m.Op, text: m.Text}
	var d Detailer
	if m.Err != nil && errors.As(m.Err, &d) {
		f.details = d.Details()
	}
	a.failures = append([]failure{f}, a.failures[:min(len(a.failures), maxErrors-1)]...)
	attrs := []any{"op", f.op}
	for _, kv := range f.details {
		attrs = append(attrs, strings.ToLower(strings.ReplaceAll(kv[0], " ", "_")), kv[1])
	}
	if len(f.details) == 0 {
		attrs = append(attrs, "error", f.text)
	}
	a.ctx.Log.Error("operation failed", attrs...)
	a.lastErr, a.lastErrOp = m.Text, m.Op
	a.errSeq++
	seq := a.errSeq
	return timer.After(statusTTL(m), func(time.Time) tea.Msg { return errorClearedMsg{seq: seq} })
}

// errorLines are the recent failures, newest first, each with its time and
// what is known of it, wrapped to width.
func (a *App) errorLines(width int) []string {
	th := a.ctx.Theme
	if len(a.failures) == 0 {
		return []string{th.Muted.Render("No errors since evdesk started.")}
	}
	var out []string
	for i, f := range a.failures {
		if i > 0 {
			out = append(out, "")
		}
		head := f.at.Format("15:04:05")
		if f.op != "" {
			head += "  " + f.op
		}
		out = append(out, th.Error.Render(sanitize.Line(head)))
		details := f.details
		if len(details) == 0 {
			details = [][2]string{{"Message", f.text}}
		}
		for _, kv := range details {
			label := fmt.Sprintf("  %-12s ", kv[0])
			for j, l := range wrapWords(sanitize.Line(kv[1]), max(10, width-len(label))) {
				if j > 0 {
					label = strings.Repeat(" ", len(label))
				}
				out = append(out, th.Muted.Render(label)+l)
			}
		}
	}
	return out
}

// WrapWords breaks s into lines of at most w cells at spaces (a word longer
// than w is cut).
func WrapWords(s string, w int) []string { return wrapWords(s, w) }

// wrapWords breaks s into lines of at most w cells at spaces (a word longer
// than w is cut).
func wrapWords(s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for len([]rune(word)) > w {
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			r := []rune(word)
			lines, word = append(lines, string(r[:w])), string(r[w:])
		}
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
