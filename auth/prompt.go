package auth

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/charmbracelet/x/term"
)

// LineReader reads lines from an input (standard input) in a background
// goroutine, one line per request, so the login flow can wait for a paste
// (and give up) while later prompts still get the following lines. It never
// reads ahead of what was asked, so hidden input can follow a prompt.
type LineReader struct {
	r     io.Reader
	once  sync.Once
	req   chan struct{}
	lines chan lineOrErr

	mu      sync.Mutex
	pending bool // a line was requested and not yet taken
}

type lineOrErr struct {
	line string
	err  error
}

// NewLineReader reads lines from r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: r, req: make(chan struct{}, 1), lines: make(chan lineOrErr)}
}

func (l *LineReader) start() {
	go func() {
		sc := bufio.NewScanner(l.r)
		sc.Buffer(make([]byte, 0, 4096), 64*1024)
		var end error
		for range l.req {
			if end == nil && !sc.Scan() {
				if end = sc.Err(); end == nil {
					end = io.EOF
				}
			}
			if end != nil {
				l.lines <- lineOrErr{err: end}
				continue
			}
			l.lines <- lineOrErr{line: sc.Text()}
		}
	}()
}

// ReadLine returns the next line (without its newline), io.EOF at the end
// of input, or ctx's error (the line then goes to the next caller).
func (l *LineReader) ReadLine(ctx context.Context) (string, error) {
	l.once.Do(l.start)
	l.mu.Lock()
	if !l.pending {
		l.pending = true
		l.req <- struct{}{}
	}
	l.mu.Unlock()
	select {
	case r := <-l.lines:
		l.mu.Lock()
		l.pending = false
		l.mu.Unlock()
		return r.line, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Terminal is standard input as the prompts see it.
type Terminal struct {
	In  *LineReader
	Out io.Writer
	// Fd is standard input's descriptor, for hidden input; IsTTY tells
	// whether it is a terminal.
	Fd    uintptr
	IsTTY bool
	// readPassword reads without echo (term.ReadPassword).
	readPassword func(fd uintptr) ([]byte, error)
}

// StdTerminal is os.Stdin / out.
func StdTerminal(out io.Writer) *Terminal {
	fd := os.Stdin.Fd()
	return &Terminal{In: NewLineReader(os.Stdin), Out: out, Fd: fd, IsTTY: term.IsTerminal(fd), readPassword: term.ReadPassword}
}

// ReadSecret asks for a secret: without echo on a terminal, else a plain
// line (piped input). An empty answer is an error.
func (t *Terminal) ReadSecret(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(t.Out, prompt)
	var s string
	if t.IsTTY && t.readPassword != nil {
		b, err := t.readPassword(t.Fd)
		fmt.Fprintln(t.Out)
		if err != nil {
			return "", fmt.Errorf("read the secret: %w", err)
		}
		s = string(b)
	} else {
		line, err := t.In.ReadLine(ctx)
		fmt.Fprintln(t.Out) // piped input is not echoed: end the prompt's line
		if err != nil {
			if errors.Is(err, io.EOF) {
				return "", errors.New("no input: standard input ended before the secret was given")
			}
			return "", err
		}
		s = line
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("nothing entered")
	}
	return s, nil
}

// ReadLine asks a question and returns the trimmed answer.
func (t *Terminal) ReadLine(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(t.Out, prompt)
	line, err := t.In.ReadLine(ctx)
	if !t.IsTTY {
		fmt.Fprintln(t.Out)
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(line), nil
}

// Confirm asks a y/N question; anything but y or yes is no. Without a
// terminal it answers no without asking.
func (t *Terminal) Confirm(ctx context.Context, prompt string) bool {
	if !t.IsTTY {
		return false
	}
	a, err := t.ReadLine(ctx, prompt+" [y/N] ")
	if err != nil {
		return false
	}
	a = strings.ToLower(a)
	return a == "y" || a == "yes"
}
