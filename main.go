// Command evdesk is a terminal console for an event-management platform:
// events, check-in, co-editors, emails and more. `evdesk --demo` runs it
// against the embedded simulator.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views/console"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// Everything the commands print passes the sanitiser on its way out:
	// server text must never drive the user's terminal.
	stdout, stderr := sanitize.NewWriter(os.Stdout), sanitize.NewWriter(os.Stderr)
	root := newRootCmd()
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	stop()
	if err != nil {
		code := reportError(stderr, err)
		_ = stdout.Flush()
		_ = stderr.Flush()
		os.Exit(code)
	}
	_ = stdout.Flush()
	_ = stderr.Flush()
}

// exitCoder is an error that chooses the exit status (phone check and
// compare: 1 for drift, 2 when they could not tell); others exit 1.
type exitCoder interface{ ExitCode() int }

// reportError prints a command's error, unless it is a bare exit status
// (the command's output already said why), and returns the exit status.
func reportError(w io.Writer, err error) int {
	code := 1
	var ec exitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(w, "evdesk:", sanitize.Text(msg))
	}
	return code
}

// exitError gives an error its exit status; with a nil err it is silent.
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

// session is what every command needs: a client and a label for the place
// it talks to. In demo mode it owns the in-process simulator.
type session struct {
	client  *api.Client
	profile string
	demo    bool
	warning string // e.g. the refresh token nears its end of life
	account string // who is signed in, for the status bar
	log     *slog.Logger
	closers []io.Closer
	// senderClient sends check-ins: few retries of its own, so an outage
	// shows at once; the check-in sender retries without end.
	senderClient *api.Client
	transcriber  *api.Transcriber // nil: no AI credentials (the Transcribe screen explains)
	// clientOpts are the options every client of the session shares.
	clientOpts []api.Option
}

func (s *session) Close() {
	for _, c := range s.closers {
		_ = c.Close()
	}
}

// warn prints a session warning (such as an ageing login) for scripts.
func (s *session) warn(w io.Writer) {
	if s.warning != "" {
		fmt.Fprintln(w, "evdesk: warning:", s.warning)
	}
}

type rootFlags struct {
	demo    bool
	profile string
	timeout time.Duration
}

// DefaultTimeout bounds a command's whole run: long enough for a 100,000-row
// export at the provider's rate, short enough that a stalled server cannot
// hold a script for ever.
const DefaultTimeout = 5 * time.Minute

func newRootCmd() *cobra.Command {
	var flags rootFlags
	root := &cobra.Command{
		Use:   "evdesk",
		Short: "A terminal console for events, check-in desks and phone policy",
		Long: "evdesk is a terminal console for an event-management platform's API.\n\n" +
			"Run `evdesk --demo` to try it against the embedded simulator, or set\n" +
			"EVDESK_BASE_URL and EVDESK_TOKEN (`evdesk sim` prints both for a local simulator).",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := openSession(cmd.Context(), flags, forConsole)
			if err != nil {
				return err
			}
			defer s.Close()
			return runConsole(cmd.Context(), s)
		},
	}
	root.PersistentFlags().BoolVar(&flags.demo, "demo", false, "use the embedded simulator with demo data (no account needed)")
	root.PersistentFlags().StringVar(&flags.profile, "profile", "", "profile to use (default: $EVDESK_PROFILE, then the config file's default_profile)")
	root.PersistentFlags().DurationVar(&flags.timeout, "timeout", DefaultTimeout,
		"give up on a command that has not finished after this long (0: no limit; the console has none)")
	root.AddCommand(newSimCmd(), newEventsCmd(&flags), newVersionCmd())
	addAuthCommands(root)
	addCoeditorsCommands(root, &flags)
	addEmailsCommands(root, &flags)
	addCheckinCommands(root, &flags)
	addPhoneCommands(root, &flags)
	addAccessLinksCommands(root, &flags)
	addRegistrationCommands(root, &flags)
	addExhibitorsCommands(root, &flags)
	addTranscribeCommands(root, &flags)
	return root
}

// Who a session is for: the console sanitises every string of every answer
// as it arrives (no screen can print a server's escape sequence); the CLI
// keeps answers faithful for -o json and sanitises what it prints.
const (
	forConsole = true
	forCLI     = false
)

// openSession connects to the configured API, or starts the simulator for --demo.
func openSession(ctx context.Context, flags rootFlags, console bool) (*session, error) {
	logger, logFile := config.OpenLog(slog.LevelInfo)
	s := &session{log: logger, closers: []io.Closer{logFile}}
	var profile config.Profile
	if !flags.demo { // a broken config file must not block the demo
		p, err := config.LoadProfile(flags.profile)
		if err != nil {
			return nil, err
		}
		profile = p
	} else {
		srv, err := sim.Start("127.0.0.1:0", sim.Options{})
		if err != nil {
			return nil, fmt.Errorf("start the demo simulator: %w", err)
		}
		s.closers = append(s.closers, srv)
		profile = config.Profile{Name: "demo", BaseURL: srv.URL(), PathWord: config.DefaultPathWord, Token: sim.DemoToken}
		s.demo, s.account = true, sim.DemoHostEmail
	}
	if err := profile.Validate(); err != nil {
		return nil, err
	}
	ts, err := auth.TokenSourceFor(ctx, profile)
	if err != nil {
		return nil, err
	}
	if w, ok := ts.(interface{ Warning() string }); ok {
		s.warning = w.Warning()
		s.account = accountLabel(profile.Name)
	}
	// One pacer for the account: the console's calls and the check-in
	// sender keep to its rate together.
	pacer := api.NewPacer(profile.RequestRate(), 0)
	common := []api.Option{api.WithBaseURL(profile.BaseURL), api.WithPathWord(profile.PathWord),
		api.WithTokenSource(ts), api.WithUserAgent("evdesk/" + versionString()), api.WithLogger(logger),
		api.WithMaxBodyBytes(profile.MaxResponseBytes()), api.WithPacer(pacer)}
	if console {
		common = append(common, api.WithStringFilter(sanitize.Field))
	}
	s.clientOpts = common
	client, err := api.New(common...)
	if err != nil {
		return nil, err
	}
	sender, err := api.New(append(slices.Clone(common),
		api.WithRetry(api.RetryPolicy{MaxAttempts: 2, BaseDelay: 200 * time.Millisecond,
			MaxDelay: time.Second, MaxRetryAfter: 30 * time.Second}))...)
	if err != nil {
		return nil, err
	}
	s.client, s.senderClient, s.profile = client, sender, profile.Name
	if tr, err := newTranscriber(ctx, flags, s); err == nil {
		s.transcriber = tr
	} else {
		logger.Info("transcription unavailable", "err", err)
	}
	logger.Info("session opened", "base_url", profile.BaseURL, "demo", s.demo)
	return s, nil
}

func runConsole(ctx context.Context, s *session, opts ...ui.Option) error {
	uctx := &ui.Context{Log: s.log, Profile: s.profile, Account: s.account, Demo: s.demo, OpenURL: auth.OpenBrowser}
	var samples []string
	if s.demo {
		samples = sim.SampleAudioURLs
	}
	app := ui.NewApp(uctx, console.Sections(console.Deps{Client: s.client, Checkin: checkinDeps(s),
		Transcriber: s.transcriber, TranscribeSamples: samples, Phone: phoneDeps(ctx, s)}), opts...)
	p := tea.NewProgram(app, tea.WithContext(ctx))
	if s.warning != "" {
		go p.Send(ui.ToastMsg{Level: ui.ToastInfo, Text: s.warning}) // delivered once the program runs
	}
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted by a signal: a normal way to leave
	}
	return err
}

// accountLabel names the signed-in user and account from the session's
// metadata (never its tokens), or "" when unknown.
func accountLabel(profile string) string {
	info, err := auth.NewStore(auth.StoreOptions{}).Info(profile)
	if err != nil || info.Session == nil {
		return ""
	}
	who := info.Session.UserID
	if info.Session.AccountID != "" {
		who = strings.TrimSpace(who + " @ " + info.Session.AccountID)
	}
	return who
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the evdesk version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "evdesk", versionString())
		},
	}
}

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// shutdownTimeout bounds how long a server may take to stop.
const shutdownTimeout = 5 * time.Second

// withSession wraps a command's body: it bounds the run by --timeout, opens
// the session (printing any warning to stderr) and closes it when the body
// returns.
func withSession(flags *rootFlags, run func(cmd *cobra.Command, args []string, s *session) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		parent := cmd.Context()
		ctx, cancel := withTimeout(parent, flags.timeout)
		defer cancel()
		cmd.SetContext(ctx)
		defer cmd.SetContext(parent) // a command may open a second session

		s, err := openSession(ctx, *flags, forCLI)
		if err != nil {
			return explainTimeout(ctx, err)
		}
		defer s.Close()
		s.warn(cmd.ErrOrStderr())
		return explainTimeout(ctx, run(cmd, args, s))
	}
}

// errCommandTimeout is the cause of a context ended by --timeout.
type errCommandTimeout struct{ after time.Duration }

func (e errCommandTimeout) Error() string {
	return fmt.Sprintf("the command did not finish within %s (--timeout; 0 means no limit)", e.after)
}

// withTimeout bounds ctx by d; d <= 0 means no bound.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, d, errCommandTimeout{after: d})
}

// explainTimeout says, when err came from the --timeout running out, that
// it did, after what the command was waiting for (err's own text).
func explainTimeout(ctx context.Context, err error) error {
	var cause errCommandTimeout
	if err == nil || !errors.As(context.Cause(ctx), &cause) {
		return err
	}
	return fmt.Errorf("%w: gave up while waiting for: %v", cause, err)
}
