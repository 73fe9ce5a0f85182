package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/internal/webhook"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/console"
)

// Factory is what every command is built with: the streams, the root's
// flags, and the seams a command reaches the world through, each a
// function that does its work only when called (gh's cmdutil.Factory): a
// command that fails on its flags opens nothing, and a test replaces one
// seam (the clock, the session, the browser) without the others.
type Factory struct {
	IOStreams *IOStreams
	// BuildInfo reads the binary's build information (the module version
	// and VCS revision `evdesk version` prints).
	BuildInfo func() (*debug.BuildInfo, bool)
	// Now is the clock: token expiry, snapshot times, "first seen".
	Now func() time.Time
	// Browser opens a URL in the user's browser (login, the console's
	// links); it must not write to the terminal.
	Browser func(url string) error
	// Profile resolves a profile by name ("" for the default): --profile,
	// the config file and the environment.
	Profile func(name string) (config.Profile, error)
	// OwnProfile resolves a profile opened beside the one in use (the other
	// side of a comparison): as its file defines it, without the
	// environment's overrides, which belong to the profile in use.
	OwnProfile func(name string) (config.Profile, error)
	// AuthStore opens the credentials store (keyring, or the consented file).
	AuthStore func(auth.StoreOptions) *auth.Store
	// Getenv reads the environment (EVDESK_DEBUG, EVDESK_READ_ONLY, ...).
	Getenv func(string) string
	// OpenSession connects to the API for a profile, or starts the demo
	// simulator (openSession).
	OpenSession func(ctx context.Context, flags rootFlags, console bool) (*session, error)
	// CompleteTimeout bounds a shell completion's requests.
	CompleteTimeout time.Duration

	flags rootFlags // bound to the root command's persistent flags
	// runCtx is the running command's context (--timeout's, for a script
	// command), cancelRun ends it.
	runCtx    context.Context
	cancelRun context.CancelFunc
}

// NewFactory returns a factory on ios, its seams on the real world.
func NewFactory(ios *IOStreams) *Factory {
	f := &Factory{IOStreams: ios, BuildInfo: debug.ReadBuildInfo, Now: time.Now, Browser: auth.OpenBrowser,
		Profile: config.LoadProfile, OwnProfile: config.LoadOwnProfile, AuthStore: auth.NewStore, Getenv: os.Getenv,
		CompleteTimeout: completeTimeout}
	f.OpenSession = f.openSession
	return f
}

// cliSession opens the session of a script command (the root's flags;
// answers kept faithful for -o json) and prints its warning, if any, to
// standard error. The caller closes it.
func (f *Factory) cliSession(ctx context.Context) (*session, error) {
	s, err := f.OpenSession(ctx, f.flags, forCLI)
	if err != nil {
		return nil, err
	}
	s.warn(f.IOStreams.ErrOut)
	return s, nil
}

// session is what a command needs to talk to the API: clients and a label
// for the place it talks to. In demo mode it owns the in-process simulator.
type session struct {
	client  *api.Client
	profile string
	demo    bool
	noMouse bool // --no-mouse, or mouse = false in the profile
	// keys are the console's keys, as the profile's [keys] rebinds them.
	keys *ui.GlobalKeys
	// readOnly says why the session may not write ("" : it may); theme and
	// reduceMotion are the console's look (--theme, the profile, the
	// environment).
	readOnly     string
	theme        string
	reduceMotion bool
	warning      string // e.g. the refresh token nears its end of life
	// insecure warns, on every run, of plain http to another machine
	// (allow_insecure_http = true).
	insecure string
	account  string // who is signed in, for the status bar
	log      *slog.Logger
	closers  []io.Closer
	// senderClient sends check-ins: few retries of its own, so an outage
	// shows at once; the check-in sender retries without end.
	senderClient *api.Client
	transcriber  *api.Transcriber // nil: no AI credentials (the Transcribe screen explains)
	// retries is what the console's client retries now (nil for the CLI).
	retries *ui.RetryNote
	// clientOpts are the options every client of the session shares.
	clientOpts []api.Option
	// journalDir is the root of the check-in journals and their caches
	// when not the state dir's: --demo gets a temporary one of its own.
	// place is the folder of the session's server under it (place.go).
	journalDir string
	place      *checkinPlace
	// kioskPIN unlocks a kiosk desk (the profile's kiosk_pin or
	// EVDESK_KIOSK_PIN); never shown or logged.
	kioskPIN string
	// desk is the profile's desk settings: walk-ins, badges, the hook.
	desk config.Desk
	// demoSim is --demo's embedded simulator (nil otherwise).
	demoSim *sim.Server
	// changelogURL and changelogNotice: the profile's change log feed,
	// and whether the console tells its news at start.
	changelogURL    string
	changelogNotice bool
	feedClient      *http.Client // the change log's: the profile's TLS, no credentials
	// kioskSearch offers the registrant search at a locked kiosk.
	kioskSearch bool
}

func (s *session) Close() {
	for _, c := range s.closers {
		_ = c.Close()
	}
}

// warn prints the session's warnings (plain http, an ageing login) for
// scripts.
func (s *session) warn(w io.Writer) {
	for _, text := range []string{s.insecure, s.warning} {
		if text != "" {
			fmt.Fprintln(w, "evdesk: warning:", text)
		}
	}
}

// Who a session is for: the console sanitises every string of every answer
// as it arrives (no screen can print a server's escape sequence); the CLI
// keeps answers faithful for -o json and sanitises what it prints.
const (
	forConsole = true
	forCLI     = false
)

// openSession connects to the configured API, or starts the simulator for --demo.
func (f *Factory) openSession(ctx context.Context, flags rootFlags, console bool) (*session, error) {
	debug := f.debugging(flags)
	level, also := slog.LevelInfo, []io.Writer(nil)
	if debug {
		level = slog.LevelDebug
		if !console { // a script's standard error is free; the console's terminal is not
			also = append(also, f.IOStreams.ErrOut)
		}
	}
	logger, logFile := config.OpenLog(level, also...)
	s := &session{log: logger, closers: []io.Closer{logFile}}
	var profile config.Profile
	if !flags.demo { // a broken config file must not block the demo
		load := f.Profile
		if flags.other {
			load = f.OwnProfile
		}
		p, err := load(flags.profile)
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
		s.demoSim = srv
		pin := config.FromEnv(os.LookupEnv).KioskPIN
		if err := config.CheckKioskPIN(pin); pin != "" && err != nil {
			s.Close()
			return nil, fmt.Errorf("%s %v", config.EnvKioskPIN, err)
		}
		profile = config.Profile{Name: "demo", BaseURL: srv.URL(), PathWord: config.DefaultPathWord, Token: sim.DemoToken,
			KioskPIN: pin, ReadOnly: config.ParseBool(f.Getenv(config.EnvReadOnly)), Theme: strings.ToLower(f.Getenv(config.EnvTheme)),
			ChangelogURL: srv.ChangelogURL()}
		s.demo, s.account = true, sim.DemoHostEmail
		// The demo server starts afresh on every run: journals kept from
		// an earlier run would answer for scans it has never seen.
		dir, err := os.MkdirTemp("", "evdesk-demo-journal-")
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("make the demo's journal folder: %w", err)
		}
		s.journalDir = dir
		s.closers = append(s.closers, removeDir(dir))
	}
	if flags.other && profile.Token == "" && profile.TokenEnv == "" && (profile.AuthURL == "" || profile.ClientID == "") {
		return nil, fmt.Errorf("profile %q has no credentials of its own: give it a token variable (`evdesk config set-profile %s --token-env VAR`) or log in to it (`evdesk login --profile %s`); %s and the other EVDESK_ variables speak for the profile in use only, and never reach another profile's server",
			profile.Name, profile.Name, profile.Name, config.EnvToken)
	}
	if err := profile.Validate(); err != nil {
		return nil, err
	}
	s.desk = profile.Desk
	tlsConf, err := profile.TLSConfig()
	if err != nil {
		return nil, err
	}
	s.insecure = profile.InsecureHTTPWarning()
	s.feedClient = changelogClient(tlsConf)
	ts, err := auth.TokenSourceFor(ctx, profile, auth.WithStore(f.AuthStore(auth.StoreOptions{})))
	if err != nil {
		if _, set := os.LookupEnv(config.EnvToken); flags.other && set && errors.Is(err, auth.ErrLoginRequired) {
			err = fmt.Errorf("%w (%s is the token of the profile in use: it is never sent to another profile's server)", err, config.EnvToken)
		}
		return nil, err
	}
	if w, ok := ts.(interface{ Warning() string }); ok {
		s.warning = w.Warning()
		s.account = accountLabel(f.AuthStore(auth.StoreOptions{}), profile.Name)
	}
	s.place = f.newCheckinPlace(profile, s.demo)
	// One pacer for the account: the console's calls and the check-in
	// sender keep to its rate together.
	pacer := api.NewPacer(profile.RequestRate(), 0)
	common := []api.Option{api.WithBaseURL(profile.BaseURL), api.WithPathWord(profile.PathWord),
		api.WithTokenSource(ts), api.WithUserAgent("evdesk/" + f.version()), api.WithLogger(logger),
		api.WithMaxBodyBytes(profile.MaxResponseBytes()), api.WithPacer(pacer), api.WithTLSConfig(tlsConf),
		api.WithListingBudget(api.ListingBudget{Items: profile.MaxListingItems, Bytes: profile.MaxListingBytes()})}
	if console {
		common = append(common, api.WithStringFilter(sanitize.Field))
	}
	if debug {
		common = append(common, api.WithDebugBodies(api.DebugBodyBytes))
	}
	s.readOnly = f.readOnlyReason(flags, profile)
	if s.readOnly != "" { // the net under the CLI's and the console's own refusals
		common = append(common, api.WithReadOnly(s.readOnly))
	}
	s.theme, s.reduceMotion = profile.Theme, profile.ReduceMotion
	if flags.theme != "" {
		s.theme = flags.theme
	}
	s.clientOpts = common
	mainOpts := common
	if console { // the console counts its client's retries in the status bar
		s.retries = &ui.RetryNote{}
		note := s.retries
		mainOpts = append(slices.Clone(common), api.WithRetryNotice(func(n api.RetryNotice) { note.Set(n.String()) }))
	}
	client, err := api.New(mainOpts...)
	if err != nil {
		return nil, err
	}
	sender, err := api.New(append(slices.Clone(common),
		api.WithRetry(api.RetryPolicy{MaxAttempts: 2, BaseDelay: 200 * time.Millisecond,
			MaxDelay: time.Second, MaxRetryAfter: 30 * time.Second}))...)
	if err != nil {
		return nil, err
	}
	s.client, s.senderClient, s.profile, s.kioskPIN = client, sender, profile.Name, profile.KioskPIN
	s.kioskSearch = profile.KioskSearch
	s.noMouse = flags.noMouse || profile.NoMouse
	if console { // the profile's [keys]: a key that cannot be is refused, with its line
		s.keys = ui.DefaultGlobalKeys()
		if err := s.keys.Rebind(profile.Keys, profile.KeyOrigin); err != nil {
			return nil, err
		}
	}
	s.changelogURL, s.changelogNotice = profile.ChangelogURL, !profile.NoChangelogNotice
	if tr, err := newTranscriber(ctx, f, flags, s); err == nil {
		s.transcriber = tr
	} else {
		logger.Info("transcription unavailable", "err", err)
	}
	logger.Info("session opened", "base_url", profile.BaseURL, "demo", s.demo)
	return s, nil
}

// readOnlyReason says why a session of profile may not write: --read-only,
// else the profile's read_only or EVDESK_READ_ONLY; "" when it may.
func (f *Factory) readOnlyReason(flags rootFlags, profile config.Profile) string {
	if flags.readOnly {
		return "--read-only"
	}
	if profile.Name == "demo" && profile.File == "" && profile.ReadOnly {
		return config.EnvReadOnly + " is set"
	}
	return profile.ReadOnlyReason()
}

// debugging reports whether requests are logged: --debug, or
// EVDESK_DEBUG=api.
func (f *Factory) debugging(flags rootFlags) bool {
	return flags.debug || debugFromEnv(f.Getenv(config.EnvDebug))
}

// debugFromEnv reads EVDESK_DEBUG: "api" (gh's word) or 1/true.
func debugFromEnv(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "api", "1", "true", "yes":
		return true
	}
	return false
}

// removeDir is a closer that deletes a temporary folder.
type removeDir string

func (d removeDir) Close() error { return os.RemoveAll(string(d)) }

// accountLabel names the signed-in user and account from the session's
// metadata (never its tokens), or "" when unknown.
func accountLabel(st *auth.Store, profile string) string {
	info, err := st.Info(profile)
	if err != nil || info.Session == nil {
		return ""
	}
	who := info.Session.UserID
	if info.Session.AccountID != "" {
		who = strings.TrimSpace(who + " @ " + info.Session.AccountID)
	}
	return who
}

// runConsole runs the console on the session until the user quits.
func (f *Factory) runConsole(ctx context.Context, s *session, opts ...ui.Option) error {
	if s.insecure != "" { // on stderr too: it stays in the scrollback after the console
		fmt.Fprintln(f.IOStreams.ErrOut, "evdesk: warning:", s.insecure)
	}
	uctx := &ui.Context{Log: s.log, Profile: s.profile, Account: s.account, Demo: s.demo, OpenURL: f.Browser, Retries: s.retries,
		NoMouse: s.noMouse, Keys: s.keys, Insecure: s.insecure, ReadOnly: s.readOnly, ThemeMode: s.theme, ReduceMotion: s.reduceMotion}
	var samples []string
	if s.demo {
		samples = sim.SampleAudioURLs
	}
	env, err := checkinEnv(s)
	if err != nil {
		return err
	}
	for _, n := range s.place.notes { // adopted files: in the scrollback after the console
		fmt.Fprintln(f.IOStreams.ErrOut, "evdesk: "+sanitize.Line(n))
	}
	news := &consoleChangelog{}
	env.Phone = f.phoneEnv(ctx, s)
	env.Phone.Changelog = news.forField
	env.Transcribe = views.Transcribe{Transcriber: s.transcriber, TranscribeSamples: samples,
		Recordings: webhook.Spool{Dir: webhook.DefaultSpoolDir(s.profile)}}
	app := ui.NewApp(uctx, console.Sections(env),
		append(opts, ui.WithStartup(changelogStartup(ctx, s, news)))...)
	p := tea.NewProgram(app, tea.WithContext(ctx))
	for _, w := range []string{s.insecure, s.warning} {
		if w != "" {
			go p.Send(ui.ToastMsg{Level: ui.ToastInfo, Text: w}) // delivered once the program runs
		}
	}
	_, err = p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted by a signal: a normal way to leave
	}
	if err != nil && strings.Contains(err.Error(), "could not open TTY") {
		return errNoTerminal // Bubble Tea's words name no way out
	}
	return err
}

// errNoTerminal is the console started where there is no terminal (a
// pipe, a scheduler, a service).
var errNoTerminal = errors.New("the console needs a terminal, and none is attached here. " +
	"For scripts and schedulers use the subcommands: evdesk events list, evdesk checkin EVENT_ID, " +
	"evdesk emails status, evdesk phone check and more (evdesk --help lists them)")

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
