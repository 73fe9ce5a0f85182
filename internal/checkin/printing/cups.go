// Package printing sends badges to a printer over IPP, through the CUPS
// client commands (lp, lpstat, cancel: the IPP client every Linux and macOS
// desk has), and keeps a queue of print jobs that runs in the background:
// a desk hands a badge over and goes on scanning, and hears later whether
// it printed.
package printing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"unicode"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// Target is where badges print: a queue of a CUPS server.
type Target struct {
	// URI is the printer as the profile names it.
	URI string
	// Server is host:port of the CUPS server; "" is this computer's.
	Server string
	// Queue is the printer's (or class's) name on that server.
	Queue string
	// Encrypt asks for TLS (ipps://).
	Encrypt bool
	// Direct: URI is a printer's own address (ipp://host/ipp/print),
	// not a CUPS queue; ipptool prints to it (IPPTool).
	Direct bool
}

// safeQueue is what a CUPS queue name may hold (CUPS itself allows no
// spaces, slashes or #); it never starts with a dash, so it is never an
// option of lp.
var safeQueue = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.@-]{0,126}$`)

// ParseTarget reads the profile's badge_printer: ipp://host[:port]/printers/NAME
// (or /classes/NAME), ipps:// for TLS, or a bare queue NAME of this
// computer's CUPS.
func ParseTarget(s string) (Target, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Target{}, errors.New("badge_printer is empty: name a CUPS queue (Badges) or ipp://host:631/printers/Badges")
	}
	if !strings.Contains(s, "://") {
		if !safeQueue.MatchString(s) {
			return Target{}, fmt.Errorf("badge_printer %q is not a printer name: use letters, digits, _ . - @ (the CUPS queue's name), or an ipp:// address", sanitize.Line(s))
		}
		return Target{URI: s, Queue: s}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return Target{}, fmt.Errorf("badge_printer: %v", err)
	}
	t := Target{URI: s}
	switch u.Scheme {
	case "ipp":
	case "ipps":
		t.Encrypt = true
	default:
		return Target{}, fmt.Errorf("badge_printer %q: the scheme is %q; use ipp:// or ipps:// (or a CUPS queue's name)", sanitize.Line(s), sanitize.Line(u.Scheme))
	}
	if u.Hostname() == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return Target{}, fmt.Errorf("badge_printer %q: give host[:port] and a path only, such as ipp://printhost:631/printers/Badges", sanitize.Line(s))
	}
	port := u.Port()
	if port == "" {
		port = "631"
	}
	t.Server = net.JoinHostPort(u.Hostname(), port)
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) == 2 && (parts[0] == "printers" || parts[0] == "classes") && safeQueue.MatchString(parts[1]) {
		t.Queue = parts[1]
		return t, nil
	}
	// A printer's own address (ipp://host/ipp/print): printed to with
	// ipptool, the address one argument of its own.
	if strings.ContainsFunc(u.Path, func(r rune) bool { return r <= ' ' || r == 0x7f }) || len(s) > 512 {
		return Target{}, fmt.Errorf("badge_printer %q: the path holds spaces or control characters", sanitize.Line(s))
	}
	t.Direct = true
	return t, nil
}

// For is the printer of a target: a CUPS queue through lp, or a printer's
// own address through ipptool. run runs the commands (nil: for real,
// after checking the command is there).
func For(t Target, run Runner) (Printer, error) {
	if t.Direct {
		if run == nil {
			if err := HaveIPPTool(); err != nil {
				return nil, err
			}
		}
		return &IPPTool{URI: t.URI, Run: run}, nil
	}
	if run == nil {
		if err := HaveCUPS(); err != nil {
			return nil, err
		}
	}
	return &CUPS{Target: t, Run: run}, nil
}

// String names the target for people.
func (t Target) String() string {
	if t.Direct {
		return sanitize.Line(t.URI)
	}
	if t.Server == "" {
		return t.Queue + " (this computer's CUPS)"
	}
	return t.Queue + " on " + t.Server
}

// Runner runs a command without a shell and returns its output; tests and
// the real program use exec.
type Runner func(ctx context.Context, stdin []byte, name string, args ...string) (stdout, stderr []byte, err error)

// Exec runs a command for real.
func Exec(ctx context.Context, stdin []byte, name string, args ...string) ([]byte, []byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limited{w: &out}, &limited{w: &errb}
	err := cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// maxOutput bounds what a command's output may hand us.
const maxOutput = 1 << 20

type limited struct {
	w *bytes.Buffer
}

func (l *limited) Write(b []byte) (int, error) {
	if room := maxOutput - l.w.Len(); room < len(b) {
		l.w.Write(b[:max(0, room)])
		return len(b), nil
	}
	return l.w.Write(b)
}

// CUPS prints through the CUPS client commands to one target.
type CUPS struct {
	Target Target
	// Run runs the commands (default Exec).
	Run Runner
}

// ErrNoCUPS: this computer has no lp command.
var ErrNoCUPS = errors.New("printing needs the CUPS client commands (lp, lpstat), which this computer lacks: install CUPS (Debian: apt install cups-client), or write the badge to a file with --out and print that")

// HaveCUPS reports whether lp and lpstat are on the PATH.
func HaveCUPS() error {
	for _, c := range []string{"lp", "lpstat"} {
		if _, err := exec.LookPath(c); err != nil {
			return ErrNoCUPS
		}
	}
	return nil
}

func (c *CUPS) run(ctx context.Context, stdin []byte, name string, args ...string) ([]byte, []byte, error) {
	r := c.Run
	if r == nil {
		r = Exec
	}
	return r(ctx, stdin, name, args...)
}

// serverArgs point a command at the target's server.
func (c *CUPS) serverArgs() []string {
	var a []string
	if c.Target.Encrypt {
		a = append(a, "-E")
	}
	if c.Target.Server != "" {
		a = append(a, "-h", c.Target.Server)
	}
	return a
}

var requestID = regexp.MustCompile(`request id is (\S+)`)

// Submit sends a PDF to the printer (lp reads it from its standard input)
// and returns the server's job id.
func (c *CUPS) Submit(ctx context.Context, pdf []byte, title string) (string, error) {
	args := append(c.serverArgs(), "-d", c.Target.Queue, "-t", safeTitle(title), "-o", "document-format=application/pdf", "--", "-")
	out, errb, err := c.run(ctx, pdf, "lp", args...)
	if err != nil {
		return "", c.explain(ctx, "lp", errb, err)
	}
	m := requestID.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("the print server took the job but gave no id (lp said %q)", said(out))
	}
	return string(m[1]), nil
}

// safeTitle is a job title fit for the server's queue listing.
func safeTitle(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60])
	}
	return s
}

// said is a command's message, safe and short for a screen.
func said(b []byte) string {
	s := sanitize.Line(strings.TrimSpace(string(b)))
	s = strings.TrimPrefix(s, "lp: ")
	s = strings.TrimPrefix(s, "lpstat: ")
	s = strings.TrimPrefix(s, "Error - ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}

// explain words a failed command: the server's own message, and whether
// the server answers at all (lp says "does not exist" for a server that is
// down).
func (c *CUPS) explain(ctx context.Context, cmd string, stderr []byte, err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ErrNoCUPS
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s did not finish: %w", cmd, ctx.Err())
	}
	msg := said(stderr)
	if !c.serverUp(ctx) {
		where := "this computer's print server (CUPS)"
		if c.Target.Server != "" {
			where = "print server " + c.Target.Server
		}
		return fmt.Errorf("%s does not answer (is it on?)", where)
	}
	if msg == "" {
		msg = err.Error()
	}
	return errors.New(msg)
}

// serverUp asks whether the scheduler answers.
func (c *CUPS) serverUp(ctx context.Context) bool {
	out, _, err := c.run(ctx, nil, "lpstat", append(c.serverArgs(), "-r")...)
	return err == nil && strings.Contains(string(out), "is running")
}

// Status is what the server says of a job.
type Status struct {
	// Done: the job left the queue as completed.
	Done bool
	// Stopped: the printer is stopped (out of paper, jammed, off), and
	// Reason says why in its words.
	Stopped bool
	// Failed: the printer aborted or cancelled the job (Reason says why).
	Failed bool
	Reason string
}

// Status asks the server about a job.
func (c *CUPS) Status(ctx context.Context, jobID string) (Status, error) {
	out, errb, err := c.run(ctx, nil, "lpstat", append(c.serverArgs(), "-W", "completed", "-o", c.Target.Queue)...)
	if err != nil {
		return Status{}, c.explain(ctx, "lpstat", errb, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == jobID {
			return Status{Done: true}, nil
		}
	}
	out, errb, err = c.run(ctx, nil, "lpstat", append(c.serverArgs(), "-p", c.Target.Queue)...)
	if err != nil {
		return Status{}, c.explain(ctx, "lpstat", errb, err)
	}
	return printerState(out), nil
}

// printerState reads `lpstat -p QUEUE`: "printer X disabled since ... -"
// and the reason on the next, indented line.
func printerState(out []byte) Status {
	lines := strings.Split(string(out), "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "printer ") {
			continue
		}
		st := Status{Stopped: strings.Contains(line, " disabled ")}
		if st.Stopped && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			st.Reason = said([]byte(lines[i+1]))
		}
		return st
	}
	return Status{}
}

// Cancel withdraws a job (before a retry sends it again).
func (c *CUPS) Cancel(ctx context.Context, jobID string) error {
	_, errb, err := c.run(ctx, nil, "cancel", append(c.serverArgs(), jobID)...)
	if err != nil {
		return c.explain(ctx, "cancel", errb, err)
	}
	return nil
}
