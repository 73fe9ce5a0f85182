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
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views/console"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCmd().ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "evdesk:", err)
		os.Exit(1)
	}
}

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
}

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
			s, err := openSession(cmd.Context(), flags)
			if err != nil {
				return err
			}
			defer s.Close()
			return runConsole(cmd.Context(), s)
		},
	}
	root.PersistentFlags().BoolVar(&flags.demo, "demo", false, "use the embedded simulator with demo data (no account needed)")
	root.PersistentFlags().StringVar(&flags.profile, "profile", "", "profile to use (default: $EVDESK_PROFILE, then the config file's default_profile)")
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

// openSession connects to the configured API, or starts the simulator for --demo.
func openSession(ctx context.Context, flags rootFlags) (*session, error) {
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
	client, err := api.New(api.WithBaseURL(profile.BaseURL), api.WithPathWord(profile.PathWord),
		api.WithTokenSource(ts), api.WithUserAgent("evdesk/"+versionString()), api.WithLogger(logger),
		api.WithMaxBodyBytes(profile.MaxResponseBytes()))
	if err != nil {
		return nil, err
	}
	sender, err := api.New(api.WithBaseURL(profile.BaseURL), api.WithPathWord(profile.PathWord),
		api.WithTokenSource(ts), api.WithUserAgent("evdesk/"+versionString()), api.WithLogger(logger),
		api.WithMaxBodyBytes(profile.MaxResponseBytes()),
		api.WithRetry(api.RetryPolicy{MaxAttempts: 2, BaseDelay: 200 * time.Millisecond,
			MaxDelay: time.Second, MaxRetryAfter: 30 * time.Second}))
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
	uctx := &ui.Context{Log: s.log, Profile: s.profile, Account: s.account, Demo: s.demo}
	var samples []string
	if s.demo {
		samples = sim.SampleAudioURLs
	}
	app := ui.NewApp(uctx, console.Sections(console.Deps{Client: s.client, Checkin: checkinDeps(s),
		Transcriber: s.transcriber, TranscribeSamples: samples}), opts...)
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

// withSession wraps a command's body: it opens the session (printing any
// warning to stderr) and closes it when the body returns.
func withSession(flags *rootFlags, run func(cmd *cobra.Command, args []string, s *session) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		s, err := openSession(cmd.Context(), *flags)
		if err != nil {
			return err
		}
		defer s.Close()
		s.warn(cmd.ErrOrStderr())
		return run(cmd, args, s)
	}
}
