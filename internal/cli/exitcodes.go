package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
)

// Exit statuses, as `evdesk help exit-codes` documents them (the same as
// gh's, so scripts written for one read the other).
const (
	exitOK          = 0 // success
	exitFailed      = 1 // the command failed; for check, compare and --diff: drift
	exitUsage       = 2 // a usage error, or the command could not tell (check, compare)
	exitInterrupted = 3 // interrupted (ctrl+c, SIGTERM)
	exitSignIn      = 4 // sign-in needed: not logged in, or the login has lapsed

	// The drift commands' words for 1 and 2.
	exitDrift  = exitFailed
	exitBroken = exitUsage
)

// exitCodes is the exit-codes help topic's table, in order.
var exitCodes = []struct {
	code    int
	meaning string
}{
	{exitOK, "success"},
	{exitFailed, "the command failed (the message on standard error says why), including a name the\n" +
		"account does not have: an event, a --ticket-type, --session or link the event does not have\n" +
		"(the command line was well formed; the account said no); for `phone check`,\n" +
		"`phone compare` and `phone settings --diff`: the policy drifted"},
	{exitUsage, "a usage error (an unknown command or flag, a missing argument, a flag value of a\n" +
		"form evdesk does not accept, flags that do not go together, a request that breaks the\n" +
		"API's rules before it is sent);\n" +
		"for the drift commands: they could not tell (a broken baseline, an unreachable server)"},
	{exitInterrupted, "interrupted (ctrl+c or SIGTERM) before the command finished"},
	{exitSignIn, "sign-in needed: not logged in, the login lapsed, or the server refused the token\n" +
		"(run `evdesk login`, or set EVDESK_TOKEN)"},
}

// exitCoder is an error that chooses its exit status.
type exitCoder interface{ ExitCode() int }

// exitError gives an error its exit status; with a nil err it is silent
// (the command's output already said why).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }
func (e *exitError) ExitCode() int { return e.code }

// usageError is a command-line mistake, told with what to do instead.
type usageError struct {
	msg string
	err error
}

func (e *usageError) Error() string { return e.msg }
func (e *usageError) Unwrap() error { return e.err }
func (e *usageError) ExitCode() int { return exitUsage }

// flagErrorf is a usage error about a flag's value or a missing flag.
func flagErrorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &usageError{msg: err.Error(), err: err}
}

// exitCode chooses the exit status for a command's error; ctx is the run's
// (main's, which a signal ends; --timeout ends only a child). Interrupted and
// sign-in-needed win over what the command said, since a script reacts to
// them in one way whatever the command was; then the error's own status;
// a request that broke the API's rules before it was sent is a usage error.
func exitCode(ctx context.Context, err error) int {
	switch {
	case err == nil:
		return exitOK
	case ctx != nil && ctx.Err() != nil:
		return exitInterrupted
	case signInNeeded(err):
		return exitSignIn
	}
	var ec exitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return exitUsage
	}
	return exitFailed
}

// signInNeeded reports whether err means the user has to sign in (again).
func signInNeeded(err error) bool {
	return errors.Is(err, auth.ErrLoginRequired) || errors.Is(err, config.ErrNoCredentials) || api.IsStatus(err, 401)
}

// exitCodesHelp is the text of `evdesk help exit-codes`.
func exitCodesHelp() string {
	var b strings.Builder
	b.WriteString("evdesk exits with one of these statuses, so scripts can branch on why it stopped:\n\n")
	for _, c := range exitCodes {
		lines := strings.Split(c.meaning, "\n")
		fmt.Fprintf(&b, "  %d  %s\n", c.code, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "     %s\n", l)
		}
	}
	b.WriteString("\nA status other than these comes from the Go runtime (a crash: please report it).\n")
	return b.String()
}
