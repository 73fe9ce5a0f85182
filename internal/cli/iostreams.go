package cli

import (
	"bytes"
	"errors"
	"io"
	"os"

	xterm "github.com/charmbracelet/x/term"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// IOStreams are the streams the commands read and write. Out and ErrOut
// pass the sanitiser on their way out: server text must never drive the
// user's terminal. Only the progress bar writes to the raw terminal.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	out, errOut *sanitize.Writer
	rawErr      io.Writer // ErrOut before the sanitiser
	errTerminal bool
}

// NewIOStreams wraps the given streams; errTerminal says whether errOut is
// a terminal (which gets a progress bar).
func NewIOStreams(in io.Reader, out, errOut io.Writer, errTerminal bool) *IOStreams {
	s := &IOStreams{In: in, out: sanitize.NewWriter(out), errOut: sanitize.NewWriter(errOut),
		rawErr: errOut, errTerminal: errTerminal}
	s.Out, s.ErrOut = s.out, s.errOut
	return s
}

// System returns the process's standard streams.
func System() *IOStreams {
	return NewIOStreams(os.Stdin, os.Stdout, os.Stderr, xterm.IsTerminal(os.Stderr.Fd()))
}

// TestStreams returns streams over buffers, standard error no terminal:
// what the commands write is read from out and errOut after Flush.
func TestStreams() (s *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return NewIOStreams(in, out, errOut, false), in, out, errOut
}

// SetStderrTerminal makes standard error count as a terminal or not (for
// tests of what a terminal gets).
func (s *IOStreams) SetStderrTerminal(on bool) { s.errTerminal = on }

// IsStderrTerminal reports whether standard error is a terminal.
func (s *IOStreams) IsStderrTerminal() bool { return s.errTerminal }

// TerminalErr returns standard error, past the sanitiser, when it is a
// terminal: the progress bar clears its line with an escape sequence the
// sanitiser would remove, and sanitises the text it draws itself.
func (s *IOStreams) TerminalErr() (io.Writer, bool) {
	if !s.errTerminal {
		return nil, false
	}
	return s.rawErr, true
}

// Flush writes what the sanitisers hold back (a character cut in two by
// the last write).
func (s *IOStreams) Flush() error {
	return errors.Join(s.out.Flush(), s.errOut.Flush())
}
