package e2e

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitLimit bounds every wait on the terminal: it only ends a test that has
// already failed (under -race, on a busy machine, a screen is slow).
const waitLimit = 20 * time.Second

// term is a program running in a private tmux server, driven through one
// control-mode client (tmux -C): commands go down its standard input and
// their answers come back on its output, with a notice whenever the pane
// prints. Waiting for the screen therefore reads it again only when it has
// changed, and no command starts a process.
type term struct {
	t      *testing.T
	sock   string
	status string // the program's exit status, written by the shell

	ctl     *exec.Cmd
	in      io.WriteCloser
	mu      sync.Mutex    // one command at a time
	replies chan reply    // answers, in the order the commands were sent
	output  chan struct{} // the pane printed (coalesced)
	ended   chan struct{} // the control client is gone: the session ended
	last    string        // the screen as last read
}

// exitedMark is what the pane prints once the program has exited.
const exitedMark = "[e2e: the program exited]"

// reply is the answer to one command: its lines, or the error it printed.
type reply struct {
	text string
	err  error
}

func startTerm(t *testing.T, w, h int, args ...string) *term {
	t.Helper()
	return launch(t, w, h, isolatedEnv(t), "", binPath+" "+strings.Join(args, " "))
}

// startTermCmd runs a shell command line in the private tmux server.
func startTermCmd(t *testing.T, w, h int, command string) *term {
	t.Helper()
	return launch(t, w, h, isolatedEnv(t), "", command)
}

// startTermEnv is startTerm with extra environment variables, and with the
// XDG directories of env (so several runs can share one journal).
func startTermEnv(t *testing.T, w, h int, env []string, args ...string) *term {
	t.Helper()
	return launch(t, w, h, env, "", binPath+" "+strings.Join(args, " "))
}

// startTermRecorded is startTermEnv that, when record is set, writes every
// byte the program sends to its terminal to that file (tmux pipe-pane). The
// program starts only once the recording does.
func startTermRecorded(t *testing.T, w, h int, env []string, record string, args ...string) *term {
	t.Helper()
	return launch(t, w, h, env, record, binPath+" "+strings.Join(args, " "))
}

// launch starts command in a new tmux server of its own, w x h, with env's
// XDG and EVDESK variables, and attaches the control client.
func launch(t *testing.T, w, h int, env []string, record, command string) *term {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	tm := &term{t: t, sock: filepath.Join(dir, "sock"), status: filepath.Join(dir, "status")}
	var vars strings.Builder
	for _, kv := range env {
		if strings.HasPrefix(kv, "XDG_") || strings.HasPrefix(kv, "EVDESK_") {
			vars.WriteString(kv + " ")
		}
	}
	gate := filepath.Join(dir, "gate")
	wait := ""
	if record != "" {
		wait = fmt.Sprintf("while [ ! -e %s ]; do sleep 0.01; done; ", gate)
	}
	// After the program, the pane says so and stays until exitStatus lets
	// it go, so its last words can still be read.
	cmdline := fmt.Sprintf("%senv TERM=xterm-256color COLORTERM=truecolor %s %s; echo $? > %s; printf '\\n%%s' '%s'; read -r _",
		wait, vars.String(), command, tm.status, exitedMark)
	if out, err := tm.tmuxProcess("new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmdline).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(tm.close)
	tm.attach()
	if record != "" {
		tm.tmux("pipe-pane", "-o", "cat >> "+record)
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return tm
}

func (tm *term) tmuxProcess(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-S", tm.sock, "-f", "/dev/null"}, args...)...)
}

// attach starts the control client and waits for its own attach answer.
func (tm *term) attach() {
	tm.t.Helper()
	tm.ctl = tm.tmuxProcess("-C", "attach-session")
	in, err := tm.ctl.StdinPipe()
	if err != nil {
		tm.t.Fatal(err)
	}
	out, err := tm.ctl.StdoutPipe()
	if err != nil {
		tm.t.Fatal(err)
	}
	if err := tm.ctl.Start(); err != nil {
		tm.t.Fatalf("tmux -C: %v", err)
	}
	tm.in = in
	tm.replies, tm.output, tm.ended = make(chan reply, 1), make(chan struct{}, 1), make(chan struct{})
	go tm.read(out)
	if _, err := tm.answer(); err != nil {
		tm.t.Fatalf("tmux -C attach: %v", err)
	}
}

// read sorts the control client's lines into answers and notices. tmux
// never puts a notice inside an answer's %begin ... %end block.
func (tm *term) read(r io.Reader) {
	defer close(tm.ended)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20) // a notice carries the pane's output
	var block []string
	in := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, "%begin "):
			in, block = true, nil
		case in && (strings.HasPrefix(line, "%end ") || strings.HasPrefix(line, "%error ")):
			in = false
			text := strings.Join(block, "\n")
			if len(block) > 0 {
				text += "\n"
			}
			var err error
			if strings.HasPrefix(line, "%error ") {
				err = errors.New(strings.TrimSpace(text))
			}
			tm.replies <- reply{text: text, err: err}
		case in:
			block = append(block, line)
		case strings.HasPrefix(line, "%output "):
			select {
			case tm.output <- struct{}{}:
			default:
			}
		}
	}
}

// answer waits for the next command's answer.
func (tm *term) answer() (string, error) {
	select {
	case r := <-tm.replies:
		return r.text, r.err
	case <-tm.ended:
		select { // an answer that came just before the end
		case r := <-tm.replies:
			return r.text, r.err
		default:
		}
		return "", errors.New("the tmux session has ended")
	case <-time.After(waitLimit):
		return "", errors.New("tmux did not answer")
	}
}

// tmux runs one tmux command and returns what it printed.
func (tm *term) tmux(args ...string) string {
	tm.t.Helper()
	out, err := tm.try(args...)
	if err != nil {
		tm.t.Fatalf("tmux %v: %v", args, err)
	}
	return out
}

// try runs one tmux command and returns what it printed, or its error.
func (tm *term) try(args ...string) (string, error) {
	return tm.tryAll(args)
}

// tryAll runs tmux commands as one command line, so tmux runs them
// together (a scan's text and its end key reach the pane in one go, as a
// scanner types them, however busy this machine is); it returns what the
// last printed, or the first error.
func (tm *term) tryAll(cmds ...[]string) (string, error) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	line := make([]string, len(cmds))
	for i, args := range cmds {
		quoted := make([]string, len(args))
		for j, a := range args {
			quoted[j] = tmuxQuote(a)
		}
		line[i] = strings.Join(quoted, " ")
	}
	if _, err := io.WriteString(tm.in, strings.Join(line, " ; ")+"\n"); err != nil {
		return "", err
	}
	var out string
	for range cmds { // one answer per command
		o, err := tm.answer()
		if err != nil {
			return "", err
		}
		out = o
	}
	return out, nil
}

// tmuxQuote makes s one word of tmux's command language: single quotes
// keep everything literal; text with a quote or a control character goes
// in double quotes, with the escapes they understand.
func tmuxQuote(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '\'' || r < 0x20 || r == 0x7f }) {
		return "'" + s + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"' || r == '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\%03o`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// close ends the tmux server and the control client.
func (tm *term) close() {
	_ = tm.tmuxProcess("kill-server").Run()
	if tm.ctl != nil {
		_ = tm.in.Close()
		_ = tm.ctl.Wait()
	}
}

func (tm *term) screen() string { return tm.capture("-p") }

// joined is the screen with the lines the terminal wrapped joined again
// (typing at a plain prompt wraps; the console never does).
func (tm *term) joined() string { return tm.capture("-p", "-J") }

// capture reads the screen; once the session has ended (the program
// exited), it is the screen as last read.
func (tm *term) capture(flags ...string) string {
	tm.t.Helper()
	s, err := tm.try(append([]string{"capture-pane"}, flags...)...)
	if err == nil {
		tm.last = s
		return s
	}
	select { // a failed read is the end of the session, once it is seen
	case <-tm.ended:
		return tm.last
	case <-time.After(waitLimit):
		tm.t.Fatalf("tmux capture-pane: %v", err)
		return ""
	}
}

// keys types tmux key names (Enter, Escape) and, after -l, literal text,
// as a person types. The console holds a key a barcode scanner could also
// type for a moment (to tell a person's keys from a scanner's burst), so
// each such key goes alone, and the next waits until the screen shows
// that it acted (or settleLimit passed, for a key that changes nothing).
func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	literal := false
	for _, k := range keys {
		switch {
		case k == "-l":
			literal = true
		case literal:
			tm.typeText(k)
			literal = false
		case scannerKey(k) || k == "Escape":
			// Escape too: a key right after it would read as alt+key.
			tm.press(k)
		default:
			tm.tmux("send-keys", k)
		}
	}
}

// scan types text and then end (Enter, Tab; or nothing) in one write, as
// a barcode scanner types a code.
func (tm *term) scan(text, end string) {
	tm.t.Helper()
	cmds := [][]string{{"send-keys", "-l", text}}
	if end != "" {
		cmds = append(cmds, []string{"send-keys", end})
	}
	if _, err := tm.tryAll(cmds...); err != nil {
		tm.t.Fatalf("tmux send-keys %q %s: %v", text, end, err)
	}
}

// scannerKey reports whether a tmux key name is a key a scanner types:
// a character, Enter, keypad Enter, Tab, Space or a line feed.
func scannerKey(name string) bool {
	switch name {
	case "Enter", "KPEnter", "Tab", "Space", "C-j":
		return true
	}
	return len([]rune(name)) == 1
}

// typeText types text into the focused field a key at a time, each once
// the one before shows at the end of a line (the field's). A space at the
// end of a field does not show (the pane's lines come trimmed), so it goes
// with the key after it: two keys together are never a scan.
func (tm *term) typeText(text string) {
	tm.t.Helper()
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		chunk := string(rs[i])
		if rs[i] == ' ' && i+1 < len(rs) {
			i++
			chunk += string(rs[i])
		}
		tm.tmux("send-keys", "-l", chunk)
		shown := strings.TrimRight(string(rs[:i+1]), " ")
		shown = string([]rune(shown)[max(0, len([]rune(shown))-16):])
		tm.waitForScreen(fmt.Sprintf("%q typed", shown), tm.joined, func(s string) bool {
			for _, l := range strings.Split(s, "\n") {
				if strings.HasSuffix(strings.TrimRight(l, " │┃║"), shown) {
					return true
				}
			}
			return false
		})
	}
}

// personTypes types text into the bare desk's scan input as a person does,
// each key a run of its own. There keys act at once, so the next key
// could follow a shown one within the hold (faster than a person); a key
// no scanner types (End: the cursor is at the end already) ends each run
// instead, as the hold's timer ends a person's (its timings: ui's tests).
func (tm *term) personTypes(text string) {
	tm.t.Helper()
	for _, r := range text {
		tm.typeText(string(r))
		tm.tmux("send-keys", "End")
	}
}

// settleLimit bounds the wait for a typed key to show: long, since a
// busy machine can stall the program for seconds, and keys sent on while
// it is stalled reach it together, as a scanner's.
const settleLimit = 5 * time.Second

// press sends one key and waits until the screen has changed.
func (tm *term) press(key ...string) {
	tm.t.Helper()
	before := tm.screen()
	tm.tmux(append([]string{"send-keys"}, key...)...)
	limit := time.After(settleLimit)
	for {
		if now := tm.screen(); now != before || strings.Contains(now, exitedMark) {
			return
		}
		select {
		case <-tm.output:
		case <-tm.ended:
			return
		case <-limit:
			tm.t.Logf("key %v: the screen did not change", key)
			return
		}
	}
}

// paste sends text as a bracketed paste, as some scanners do.
func (tm *term) paste(text string) {
	tm.tmux("set-buffer", "--", text)
	tm.tmux("paste-buffer", "-p")
}

// waitFor reads the screen until ok holds, again each time the pane prints,
// failing after waitLimit.
func (tm *term) waitFor(what string, ok func(string) bool) {
	tm.t.Helper()
	tm.waitForScreen(what, tm.screen, ok)
}

// waitForScreen is waitFor on the screen as read reads it.
func (tm *term) waitForScreen(what string, read func() string, ok func(string) bool) {
	tm.t.Helper()
	deadline := time.After(waitLimit)
	for {
		s := read()
		if ok(s) {
			return
		}
		if strings.Contains(s, exitedMark) {
			tm.t.Fatalf("the program ended while waiting for %s; screen:\n%s", what, s)
		}
		select {
		case <-tm.output:
		case <-tm.ended:
			tm.t.Fatalf("the program ended while waiting for %s; screen:\n%s", what, s)
		case <-deadline:
			tm.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
	}
}

func (tm *term) waitText(texts ...string) {
	tm.t.Helper()
	tm.waitFor(strings.Join(texts, " + "), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// reply answers the question on screen (question: words of it) with key,
// as a person does: a key that reached the console too close to the one
// before is refused as part of a burst (the question then says "keys that
// come together do not answer"), and is pressed again on its own. Under
// load the test's key can follow the one that opened the question within
// the burst window; no person's does.
func (tm *term) reply(key, question string) {
	tm.t.Helper()
	tm.keys(key)
	refused := false
	tm.waitFor(question+" answered", func(s string) bool {
		refused = strings.Contains(s, question) && strings.Contains(s, "come together")
		return refused || !strings.Contains(s, question)
	})
	if refused {
		tm.keys(key)
		tm.waitGone(question)
	}
}

func (tm *term) waitGone(text string) {
	tm.t.Helper()
	tm.waitFor(text+" to disappear", func(s string) bool { return !strings.Contains(s, text) })
}

// exitStatus waits for the program to end and returns its exit status;
// the pane then closes.
func (tm *term) exitStatus() string {
	tm.t.Helper()
	tm.waitFor("the program to exit", func(s string) bool { return strings.Contains(s, exitedMark) })
	b, err := os.ReadFile(tm.status)
	if err != nil || len(b) == 0 {
		tm.t.Fatalf("the program left no exit status: %v", err)
	}
	tm.tmux("send-keys", "Enter")
	return strings.TrimSpace(string(b))
}

// quitCleanly presses q and expects the program to end with status 0.
func (tm *term) quitCleanly() {
	tm.t.Helper()
	tm.keys("q")
	if st := tm.exitStatus(); st != "0" {
		tm.t.Fatalf("exit status %s", st)
	}
}
