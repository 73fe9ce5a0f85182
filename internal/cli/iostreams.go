package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"

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
	inTerminal  bool // standard input is a terminal: a person can answer a question
	outTerminal bool // standard output is a terminal: long cells may be cut
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
	s := NewIOStreams(os.Stdin, os.Stdout, os.Stderr, xterm.IsTerminal(os.Stderr.Fd()))
	s.inTerminal = xterm.IsTerminal(os.Stdin.Fd())
	s.outTerminal = xterm.IsTerminal(os.Stdout.Fd())
	return s
}

// SetStdinTerminal makes standard input count as a terminal or not (for
// tests of the questions a person is asked).
func (s *IOStreams) SetStdinTerminal(on bool) { s.inTerminal = on }

// CanPrompt reports whether a question can be asked: standard input is a
// terminal (a script's input is data, never a yes).
func (s *IOStreams) CanPrompt() bool { return s.inTerminal }

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

// SetStdoutTerminal makes standard output count as a terminal or not.
func (s *IOStreams) SetStdoutTerminal(on bool) { s.outTerminal = on }

// clipper cuts long cells for a person at a terminal; piped to a file or a
// program, nothing is cut.
func (s *IOStreams) clipper() func(string, int) string {
	if !s.outTerminal {
		return func(v string, _ int) string { return v }
	}
	return func(v string, n int) string {
		r := []rune(v)
		if len(r) <= n {
			return v
		}
		return string(r[:n-1]) + "…"
	}
}

// maxAnswer bounds the line read as a person's answer.
const maxAnswer = 1024

// readLine reads one line of at most maxAnswer bytes from r, without its
// line break; a byte at a time, so nothing after the line is consumed.
func readLine(r io.Reader) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for len(b) < maxAnswer {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				break
			}
			b = append(b, one[0])
		}
		if err != nil {
			if len(b) > 0 && errors.Is(err, io.EOF) {
				break
			}
			return string(b), err
		}
	}
	return strings.TrimRight(string(b), "\r"), nil
}
