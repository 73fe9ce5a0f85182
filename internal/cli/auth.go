package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/words"
)

// profileFlag is the --profile value ("" when not given).
func profileFlag(cmd *cobra.Command) string {
	if f := cmd.Flag("profile"); f != nil {
		return f.Value.String()
	}
	return ""
}

// loadProfile resolves the profile of a command through the factory:
// --profile, the config file and the environment.
func (f *Factory) loadProfile(cmd *cobra.Command) (config.Profile, error) {
	return f.Profile(profileFlag(cmd))
}

func profileArg(name string) string {
	if name == config.DefaultProfileName {
		return ""
	}
	return " --profile " + name
}

// loginOptions are login's: the profile, the store and the browser come
// through the factory, the terminal it asks on from the command.
type loginOptions struct {
	deps
	Profile  func() (config.Profile, error)
	Store    func(auth.StoreOptions) *auth.Store
	Browser  func(url string) error
	Terminal func() *auth.Terminal
	// The flags: --no-browser, --insecure-storage, --ai, --webhook-secret
	// and --timeout.
	NoBrowser, Insecure, AI, WebhookSecret bool
	Timeout                                time.Duration
}

func newLoginCmd(f *Factory, runF runFunc[loginOptions]) *cobra.Command {
	var cmd *cobra.Command
	o := &loginOptions{deps: f.deps(), Store: f.AuthStore, Browser: f.Browser,
		Profile: func() (config.Profile, error) { return f.loadProfile(cmd) },
		Terminal: func() *auth.Terminal {
			out := cmd.ErrOrStderr()
			if in := cmd.InOrStdin(); in != nil && !authIsStdin(cmd) {
				return &auth.Terminal{In: auth.NewLineReader(in), Out: out}
			}
			return auth.StdTerminal(out)
		}}
	cmd = &cobra.Command{
		Use:   "login",
		Short: "Log in with your browser (OAuth) and keep the session in the keyring",
		Long: "Log in to the profile's provider with the OAuth authorization-code flow (PKCE).\n" +
			"evdesk opens your browser and also prints the URL: on a machine without a browser,\n" +
			"open it elsewhere and paste the address the browser ends on (or just the code).\n" +
			"The client secret is asked once and kept in the OS keyring, never in the config file.\n\n" +
			"With --ai, store the API key and secret that sign transcription tokens instead;\n" +
			"with --webhook-secret, the secret token of the webhook endpoint (`evdesk webhooks listen`).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd, o, runF, loginRun) },
	}
	cmd.Annotations = map[string]string{interactive: "its own --timeout"}
	fl := cmd.Flags()
	fl.BoolVar(&o.NoBrowser, "no-browser", false, "do not open a browser; print the URL and wait for the redirect or a pasted URL/code")
	fl.BoolVar(&o.Insecure, "insecure-storage", false, "if the OS keyring is unavailable, keep credentials in a plain 0600 file in the config dir")
	fl.BoolVar(&o.AI, "ai", false, "store the API key and secret for the AI (transcription) services instead of logging in")
	fl.BoolVar(&o.WebhookSecret, "webhook-secret", false, "store the webhook endpoint's secret token instead of logging in")
	cmd.MarkFlagsMutuallyExclusive("ai", "webhook-secret")
	fl.DurationVar(&o.Timeout, "timeout", auth.DefaultLoginTimeout, "how long to wait for the browser")
	return cmd
}

func loginRun(ctx context.Context, o *loginOptions) error {
	p, err := o.Profile()
	if err != nil {
		return err
	}
	term := o.Terminal()
	out := term.Out
	st := o.Store(auth.StoreOptions{AllowFile: o.Insecure})
	if o.AI {
		return loginAI(ctx, p, st, term, o.Insecure, out)
	}
	if o.WebhookSecret {
		return loginWebhookSecret(ctx, p, st, term, o.Insecure, out)
	}
	if err := p.ValidateLogin(); err != nil {
		return err
	}
	secret, prompted := p.ClientSecret, false
	if secret == "" {
		secret, err = st.ClientSecretFor(p) // never one stored for another sign-in server
		if err != nil && !errors.Is(err, auth.ErrNotFound) {
			fmt.Fprintf(out, "Could not read the stored client secret (%v).\n", err)
		}
		if secret == "" {
			if secret, err = term.ReadSecret(ctx, fmt.Sprintf("Client secret for client id %s (input hidden): ", p.ClientID)); err != nil {
				return fmt.Errorf("client secret: %w", err)
			}
			prompted = true
		}
	}
	if err := ensureStorage(ctx, st, term, p.Name, o.Insecure, out); err != nil {
		return err
	}
	if len(p.Scopes) == 0 { // every scope evdesk's features need (README, Scopes and plans)
		p.Scopes = api.RequestedScopes(p.PathWord)
	}
	sess, err := auth.Login(ctx, auth.LoginOptions{Profile: p, ClientSecret: secret, SaveClientSecret: prompted,
		Store: st, NoBrowser: o.NoBrowser, OpenBrowser: o.Browser, Input: term.In, Out: out, Timeout: o.Timeout})
	if err != nil {
		if errors.Is(err, auth.ErrInvalidClient) && !prompted && p.ClientSecret == "" {
			return fmt.Errorf("%w: if the stored client secret is wrong, run `evdesk logout --forget-secrets%s` and log in again", err, profileArg(p.Name))
		}
		return err
	}
	who := sess.UserID
	if who == "" {
		who = "(user not reported by the provider)"
	}
	fmt.Fprintf(out, "\nLogged in to profile %q as %s.\n", p.Name, who)
	if len(sess.Scopes) > 0 {
		fmt.Fprintf(out, "Scopes: %s\n", strings.Join(sess.Scopes, " "))
		for _, g := range api.LeftOut(sess.Scopes, p.PathWord) {
			fmt.Fprintf(out, "Not granted, so unavailable: %s (needs %s)\n", g.Feature, strings.Join(g.Missing, ", "))
		}
	}
	announceBackend(out, st, p.Name, sess.Backend)
	if p.Token != "" {
		fmt.Fprintf(out, "Note: %s is set in this environment and overrides this login.\n", config.EnvToken)
	}
	return nil
}

// authIsStdin reports whether the command reads the process's standard input
// (not a test's reader).
func authIsStdin(cmd *cobra.Command) bool {
	type fder interface{ Fd() uintptr }
	f, ok := cmd.InOrStdin().(fder)
	return ok && f.Fd() == 0
}

// ensureStorage makes sure secrets have somewhere to go: the keyring, or
// the plain file with consent (--insecure-storage or a y/N answer).
func ensureStorage(ctx context.Context, st *auth.Store, term *auth.Terminal, profile string, insecure bool, out io.Writer) error {
	perr := st.Probe()
	if perr == nil {
		return nil
	}
	fmt.Fprintf(out, "The OS keyring cannot be used: %v\n", perr)
	if !insecure {
		if !term.Confirm(ctx, fmt.Sprintf("Keep the credentials in a PLAIN FILE %s (mode 0600, not encrypted)?", st.FilePath(profile))) {
			return fmt.Errorf("%w: credentials not stored; fix the keyring or run again with --insecure-storage", perr)
		}
	}
	st.SetAllowFile(true)
	return nil
}

// announceBackend says loudly where the secrets went.
func announceBackend(out io.Writer, st *auth.Store, profile string, b auth.Backend) {
	if b == auth.BackendFile {
		fmt.Fprintf(out, "WARNING: credentials are stored in %s.\n", st.Describe(profile, b))
		return
	}
	fmt.Fprintf(out, "Credentials are stored in %s.\n", st.Describe(profile, b))
}

func loginAI(ctx context.Context, p config.Profile, st *auth.Store, term *auth.Terminal, insecure bool, out io.Writer) error {
	key, err := term.ReadLine(ctx, "AI services API key: ")
	if err != nil || key == "" {
		return fmt.Errorf("API key: %w", authErrOr(err, errors.New("nothing entered")))
	}
	secret, err := term.ReadSecret(ctx, "AI services API secret (input hidden): ")
	if err != nil {
		return fmt.Errorf("API secret: %w", err)
	}
	if err := ensureStorage(ctx, st, term, p.Name, insecure, out); err != nil {
		return err
	}
	c := auth.AICredentials{APIKey: key, APISecret: secret}
	if _, err := auth.NewJWTSource(c); err != nil {
		return err
	}
	b, err := st.SaveAICredentials(p.Name, p.BaseURL, c)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Transcription credentials saved for profile %q.\n", p.Name)
	announceBackend(out, st, p.Name, b)
	return nil
}

func loginWebhookSecret(ctx context.Context, p config.Profile, st *auth.Store, term *auth.Terminal, insecure bool, out io.Writer) error {
	secret, err := term.ReadSecret(ctx, "Webhook secret token (input hidden): ")
	if err != nil || strings.TrimSpace(secret) == "" {
		return fmt.Errorf("webhook secret token: %w", authErrOr(err, errors.New("nothing entered")))
	}
	if err := ensureStorage(ctx, st, term, p.Name, insecure, out); err != nil {
		return err
	}
	b, err := st.SaveWebhookSecret(p.Name, strings.TrimSpace(secret))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Webhook secret token saved for profile %q.\n", p.Name)
	announceBackend(out, st, p.Name, b)
	if p.WebhookSecret != "" {
		fmt.Fprintf(out, "Note: %s is set in this environment and wins over it.\n", config.EnvWebhookSecret)
	}
	return nil
}

func authErrOr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// authOptions are the options of logout and auth status and token: what
// they read comes through the factory (the profile, the store, the clock).
type authOptions struct {
	deps
	Profile func() (config.Profile, error)
	Store   func(auth.StoreOptions) *auth.Store
	Getenv  func(string) string
	// All and Forget are logout's --all and --forget-secrets.
	All, Forget bool
}

// newAuthOptions binds the options to the factory and the command's
// --profile.
func newAuthOptions(f *Factory, cmd **cobra.Command) *authOptions {
	return &authOptions{deps: f.deps(), Store: f.AuthStore, Getenv: f.Getenv,
		Profile: func() (config.Profile, error) { return f.loadProfile(*cmd) }}
}

func newLogoutCmd(f *Factory) *cobra.Command { return newLogoutCmdF(f, nil) }

func newLogoutCmdF(f *Factory, runF runFunc[authOptions]) *cobra.Command {
	var cmd *cobra.Command
	o := newAuthOptions(f, &cmd)
	cmd = &cobra.Command{
		Use:   "logout",
		Short: "Remove the stored tokens of a profile (--all: of every profile)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd, o, runF, logoutRun) },
	}
	cmd.Flags().BoolVar(&o.All, "all", false, "log out of every profile")
	cmd.Flags().BoolVar(&o.Forget, "forget-secrets", false, "also remove the stored client secret and transcription credentials")
	return cmd
}

func logoutRun(ctx context.Context, o *authOptions) error {
	out := o.IO.Out
	st := o.Store(auth.StoreOptions{})
	var names []string
	if o.All {
		stored, err := st.Profiles()
		if err != nil {
			return err
		}
		names = stored
		if file, err := config.ReadFile(config.Path()); err == nil {
			for _, n := range file.ProfileNames() {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
		slices.Sort(names)
	} else {
		p, err := o.Profile()
		if err != nil {
			return err
		}
		names = []string{p.Name}
	}
	var errs []error
	for _, name := range names {
		if err := logoutOne(ctx, st, name, o.Forget, out); err != nil {
			errs = append(errs, err)
		}
	}
	if tok := strings.TrimSpace(o.Getenv(config.EnvToken)); tok != "" {
		fmt.Fprintf(out, "Note: %s is still set in this environment; unset it to stop using that token.\n", config.EnvToken)
	}
	return errors.Join(errs...)
}

func logoutOne(ctx context.Context, st *auth.Store, name string, forget bool, out io.Writer) error {
	info, err := st.Info(name)
	if err != nil {
		return err
	}
	if info.Session == nil && (!forget || (info.ClientSecret == "" && info.AI == "")) {
		fmt.Fprintf(out, "Profile %q: not logged in.\n", name)
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, auth.DefaultLockTimeout)
	defer cancel()
	unlock, err := st.Lock(lctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	if forget {
		err = st.Forget(name)
	} else {
		err = st.Clear(name)
	}
	if err != nil {
		return err
	}
	what := "tokens"
	if forget {
		what = "tokens, client secret and transcription credentials"
	}
	fmt.Fprintf(out, "Profile %q: logged out (%s removed).\n", name, what)
	return nil
}

func newAuthCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Inspect the stored login and print access tokens",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newAuthStatusCmd(f), newAuthTokenCmd(f))
	return cmd
}

func newAuthStatusCmd(f *Factory) *cobra.Command { return newAuthStatusCmdF(f, nil) }

func newAuthStatusCmdF(f *Factory, runF runFunc[authOptions]) *cobra.Command {
	var cmd *cobra.Command
	o := newAuthOptions(f, &cmd)
	cmd = &cobra.Command{
		Use:   "status",
		Short: "Show the login of the profile: user, scopes, token expiry, storage (exit 1 on a problem)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, o, runF, func(_ context.Context, o *authOptions) error {
				p, err := o.Profile()
				if err != nil {
					return err
				}
				return authStatus(o.IO.Out, p, o.Store(auth.StoreOptions{}), o.Now())
			})
		},
	}
	return cmd
}

// authStatus prints the status and returns an error when something needs
// fixing.
func authStatus(out io.Writer, p config.Profile, st *auth.Store, now time.Time) error {
	var problems []string
	row := func(k, v string) { fmt.Fprintf(out, "%-15s %s\n", k+":", v) }
	src := p.File
	if src == "" {
		src = "the environment"
	}
	row("profile", fmt.Sprintf("%s (from %s)", p.Name, src))
	row("auth url", words.OrDash(redactURLUserinfo(p.AuthURL)))
	row("client id", words.OrDash(p.ClientID))
	if p.Token != "" {
		row(config.EnvToken, "set: it overrides the stored login for every command")
	}
	info, err := st.Info(p.Name)
	if err != nil {
		return err
	}
	switch {
	case p.ClientSecret != "":
		row("client secret", "from "+config.EnvClientSecret+" (not shown)")
	case info.ClientSecret != "":
		row("client secret", "stored in "+st.Describe(p.Name, info.ClientSecret))
	default:
		row("client secret", "not stored (`evdesk login` asks for it)")
	}
	if info.Session == nil {
		row("login", "not logged in")
		if p.Token == "" {
			problems = append(problems, fmt.Sprintf("not logged in: run `evdesk login%s`", profileArg(p.Name)))
		}
	} else {
		s := info.Session
		user := words.OrDash(s.UserID)
		if s.AccountID != "" {
			user += " (account " + s.AccountID + ")"
		}
		row("user", user)
		if s.BaseURL != "" {
			row("issued by", fmt.Sprintf("%s (sign-in %s): used with these only", s.BaseURL, words.OrDash(s.AuthURL)))
		}
		if err := auth.CheckSessionServers(p, s); err != nil {
			problems = append(problems, err.Error())
		}
		row("scopes", words.OrDash(strings.Join(s.Scopes, " ")))
		scopeCoverage(out, row, s.Scopes, p.PathWord)
		if now.Before(s.Expiry) {
			row("access token", fmt.Sprintf("valid until %s (%s left)", s.Expiry.Local().Format(authTimeLayout), authRoundDur(s.Expiry.Sub(now))))
		} else {
			row("access token", fmt.Sprintf("expired %s ago (refreshed on next use)", authRoundDur(now.Sub(s.Expiry))))
		}
		if !s.RefreshIssuedAt.IsZero() {
			ends := s.RefreshIssuedAt.Add(auth.DefaultRefreshTokenLifetime)
			row("refresh token", fmt.Sprintf("%s old, valid until %s", authRoundDur(now.Sub(s.RefreshIssuedAt)), ends.Local().Format(authTimeLayout)))
		}
		if w := auth.RefreshWarning(s, now, auth.DefaultRefreshTokenLifetime, auth.DefaultRefreshWarnWithin); w != "" {
			row("warning", w)
			if !now.Before(s.RefreshIssuedAt.Add(auth.DefaultRefreshTokenLifetime)) {
				problems = append(problems, w)
			}
		}
		storage := st.Describe(p.Name, s.Backend)
		if _, err := st.Load(p.Name); err != nil {
			storage += ": " + err.Error()
			problems = append(problems, err.Error())
		}
		row("storage", storage)
	}
	switch { // the environment's pair wins over the stored one, as transcription reads them
	case p.AIKey != "" && p.AISecret != "":
		row("transcription", "from "+config.EnvAIKey+" and "+config.EnvAISecret+" (not shown)")
	case info.AI != "":
		row("transcription", fmt.Sprintf("API key %s stored in %s", info.AIKeyHint, st.Describe(p.Name, info.AI)))
	default:
		row("transcription", "no credentials (`evdesk login --ai`)")
	}
	if (p.AIKey == "") != (p.AISecret == "") {
		set, unset := config.EnvAIKey, config.EnvAISecret
		if p.AIKey == "" {
			set, unset = unset, set
		}
		row("warning", set+" is set without "+unset+": transcription needs both, so it is not used")
	}
	if len(problems) > 0 {
		return fmt.Errorf("profile %q: %s", p.Name, strings.Join(problems, "; "))
	}
	return nil
}

const authTimeLayout = "2006-01-02 15:04 MST"

func authRoundDur(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	case d >= time.Hour:
		return d.Truncate(time.Minute).String()
	}
	return d.Truncate(time.Second).String()
}

func newAuthTokenCmd(f *Factory) *cobra.Command { return newAuthTokenCmdF(f, nil) }

func newAuthTokenCmdF(f *Factory, runF runFunc[authOptions]) *cobra.Command {
	var cmd *cobra.Command
	o := newAuthOptions(f, &cmd)
	cmd = &cobra.Command{
		Use:   "token",
		Short: "Print a fresh access token for scripts (refreshing it if needed)",
		Long: "Print a valid access token of the profile on standard output, refreshing it first\n" +
			"when it is about to expire. With " + config.EnvToken + " set, that token is printed.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, o, runF, func(ctx context.Context, o *authOptions) error {
				p, err := o.Profile()
				if err != nil {
					return err
				}
				ts, err := auth.TokenSourceFor(ctx, p)
				if err != nil {
					return err
				}
				tok, err := ts.Token()
				if err != nil {
					return err
				}
				if w, ok := ts.(interface{ Warning() string }); ok && w.Warning() != "" {
					fmt.Fprintln(o.IO.ErrOut, "warning:", w.Warning())
				}
				fmt.Fprintln(o.IO.Out, tok.AccessToken)
				return nil
			})
		},
	}
	return cmd
}

// scopeCoverage adds the features a login's scopes leave out to auth
// status: each with the scope it lacks.
func scopeCoverage(out io.Writer, row func(k, v string), granted []string, word string) {
	if len(granted) == 0 {
		row("features", "unknown: the sign-in server reported no scopes")
		return
	}
	gaps := api.LeftOut(granted, word)
	if len(gaps) == 0 {
		row("features", "every feature is allowed by these scopes")
		return
	}
	for i, g := range gaps {
		line := fmt.Sprintf("%s (needs %s)", g.Feature, strings.Join(g.Missing, ", "))
		if i == 0 {
			row("left out", line)
			continue
		}
		fmt.Fprintf(out, "%-15s %s\n", "", line)
	}
}
