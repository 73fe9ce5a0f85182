package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
)

// simOptions are `evdesk sim`'s: where it listens, the simulator's
// options, and what it also writes.
type simOptions struct {
	deps
	Addr, EnvFile string
	Sim           sim.Options
	TLS           bool
	RedirectURI   string
}

func newSimCmd(f *Factory, runF runFunc[simOptions]) *cobra.Command {
	o := &simOptions{deps: f.deps()}
	opts := &o.Sim
	cmd := &cobra.Command{
		Use:         "sim",
		Annotations: map[string]string{interactive: "serves until interrupted"},
		Short:       "Serve the API simulator for local development and tests",
		Long: "Serve the simulator: the whole API in memory with deterministic demo data.\n" +
			"It prints shell-ready variables, and --env-file writes them to a file (0600,\n" +
			"atomically, once it listens) while it keeps serving, so another shell can load\n" +
			"them: `set -a; . ./sim.env; set +a`.",
		Example: "  evdesk sim --env-file sim.env &\n  set -a; . ./sim.env; set +a\n  evdesk events list\n" +
			"  evdesk sim --token-ttl 3s --error-rate 0.05     # refresh and faults in seconds",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validateShare("--error-rate", opts.ErrorRate); err != nil {
				return err
			}
			if err := validateShare("--drop-rate", opts.DropRate); err != nil {
				return err
			}
			if opts.RPS < 0 || opts.Latency < 0 || opts.TokenTTL < 0 {
				return flagErrorf("--rps, --latency and --token-ttl must not be negative")
			}
			// OAuth gives a token's life in whole seconds: below one it
			// would read as 0, a token that never expires.
			if opts.TokenTTL != 0 && (opts.TokenTTL < time.Second || opts.TokenTTL%time.Second != 0) {
				return flagErrorf("--token-ttl %v: give whole seconds, at least 1s (tokens carry their life in seconds)", opts.TokenTTL)
			}
			if err := checkSimWebhook(&opts.Webhook); err != nil {
				return err
			}
			if o.RedirectURI != "" {
				if err := config.CheckRedirectURI(o.RedirectURI); err != nil {
					return flagErrorf("--redirect-uri %q %v", o.RedirectURI, err)
				}
			}
			return run(cmd, o, runF, simRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Addr, "addr", "127.0.0.1:8765", "address to listen on (host:port; port 0 picks a free one)")
	fl.DurationVar(&opts.Latency, "latency", 0, "added latency per request, e.g. 150ms")
	fl.Float64Var(&opts.ErrorRate, "error-rate", 0, "share of requests answered with a 5xx, 0 to 1")
	fl.Float64Var(&opts.DropRate, "drop-rate", 0, "share of connections dropped without an answer, 0 to 1")
	fl.Float64Var(&opts.RPS, "rps", 30, "requests per second per token before 429 (the LIGHT rate limit); 0 for no limit")
	fl.DurationVar(&opts.TokenTTL, "token-ttl", 0, "life of the access tokens its OAuth server issues, e.g. 3s (default 1h)")
	fl.StringVar(&o.EnvFile, "env-file", "", "also write the EVDESK_ variables to `FILE` (0600), for another shell")
	fl.StringVar(&opts.Webhook.URL, "webhook-url", "", "deliver the change log's webhook events to this `URL` (validated first, as the provider does)")
	fl.StringVar(&opts.Webhook.Secret, "webhook-secret", "", "the webhook endpoint's secret token that signs deliveries (with --webhook-url)")
	fl.DurationVar(&opts.Webhook.Every, "webhook-every", 30*time.Second, "deliver the next event this often (0: only on POST "+sim.WebhookFirePath+")")
	fl.StringVar(&o.RedirectURI, "redirect-uri", "", "register this redirect URI with the demo app too (an app's https one: login then takes the pasted address); printed as EVDESK_REDIRECT_URI")
	fl.BoolVar(&o.TLS, "tls", false, "serve https (TLS 1.2+) with a certificate made for the run; prints EVDESK_CA_FILE to trust it")
	return cmd
}

func simRun(ctx context.Context, o *simOptions) error {
	o.Sim.NoRateLimit = o.Sim.RPS == 0
	start := sim.Start
	if o.TLS {
		start = sim.StartTLS
	}
	srv, err := start(o.Addr, o.Sim)
	if err != nil {
		return fmt.Errorf("serve the simulator on %s: %w", o.Addr, err)
	}
	vars := simVars(srv)
	if o.Sim.Webhook.Secret != "" {
		vars = append(vars, [2]string{config.EnvWebhookSecret, o.Sim.Webhook.Secret})
	}
	if o.RedirectURI != "" {
		srv.RegisterRedirectURI(o.RedirectURI)
		for i := range vars {
			if vars[i][0] == config.EnvRedirectURI {
				vars[i][1] = o.RedirectURI
			}
		}
	}
	if o.TLS {
		caFile, remove, err := writeSimCA(srv.CAPEM())
		if err != nil {
			_ = srv.Close()
			return err
		}
		defer remove()
		vars = append(vars, [2]string{config.EnvCAFile, caFile})
	}
	if o.EnvFile != "" {
		if err := writeEnvFile(o.EnvFile, vars); err != nil {
			_ = srv.Close()
			return fmt.Errorf("--env-file: %w", err)
		}
	}
	out := o.IO.Out
	for _, kv := range vars {
		if kv[0] == simOtherHostTokenEnv {
			fmt.Fprintln(out, "# a second account, its phone policy a little different (evdesk phone compare):")
		}
		fmt.Fprintf(out, "%s=%s\n", kv[0], kv[1])
	}
	fmt.Fprintf(out, "# try: curl -H \"Authorization: Bearer $%s\" \"$%s/%s_events/events?role_type=host\"\n",
		config.EnvToken, config.EnvBaseURL, config.DefaultPathWord)
	if o.EnvFile != "" {
		fmt.Fprintf(out, "# the variables are in %s: set -a; . %s; set +a\n", o.EnvFile, o.EnvFile)
	}
	if o.Sim.Webhook.URL != "" {
		fmt.Fprintf(out, "# webhooks: validating %s, then an event every %s; deliver now: curl -X POST %s%s\n",
			o.Sim.Webhook.URL, o.Sim.Webhook.Every, srv.AuthURL(), sim.WebhookFirePath)
	}
	fmt.Fprintln(out, "# serving until interrupted (ctrl+c)")
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shut down the simulator: %w", err)
	}
	fmt.Fprintln(o.IO.ErrOut, "simulator stopped")
	return nil
}

// checkSimWebhook checks the webhook flags: a URL needs a secret, and both
// go together.
func checkSimWebhook(o *sim.WebhookOptions) error {
	switch {
	case o.URL == "" && o.Secret == "":
		o.Every = 0
		return nil
	case o.URL == "":
		return flagErrorf("--webhook-secret needs --webhook-url (where to deliver)")
	case o.Secret == "":
		return flagErrorf("--webhook-url needs --webhook-secret (the endpoint's secret token, which signs every delivery)")
	case o.Every < 0:
		return flagErrorf("--webhook-every must not be negative")
	}
	if err := sim.CheckWebhookURL(o.URL); err != nil {
		return flagErrorf("--webhook-url %v", err)
	}
	return nil
}

// writeSimCA writes the simulator's certificate where EVDESK_CA_FILE can
// name it, in a folder of its own that remove deletes when it stops.
func writeSimCA(pem []byte) (path string, remove func(), err error) {
	dir, err := os.MkdirTemp("", "evdesk-sim-ca-")
	if err != nil {
		return "", nil, fmt.Errorf("--tls: %w", err)
	}
	path = filepath.Join(dir, "ca.pem")
	if err := atomicfile.WriteFile(path, pem, 0o644); err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("--tls: write the certificate: %w", err)
	}
	return path, func() { _ = os.RemoveAll(dir) }, nil
}

// simVars are the settings that point evdesk at srv, in print order.
func simVars(srv *sim.Server) [][2]string {
	return [][2]string{
		{config.EnvBaseURL, srv.URL()},
		{config.EnvToken, sim.DemoToken},
		{config.EnvAuthURL, srv.AuthURL()},
		{config.EnvClientID, sim.DemoClientID},
		{config.EnvClientSecret, sim.DemoClientSecret},
		{config.EnvRedirectURI, sim.DemoRedirectURI},
		{config.EnvAIKey, sim.DemoAIKey},
		{config.EnvAISecret, sim.DemoAISecret},
		{config.EnvChangelogURL, srv.ChangelogURL()},
		{"EVDESK_TOKEN_NO_PHONE", sim.NoPhoneToken},
		{simOtherHostTokenEnv, sim.OtherHostToken},
	}
}

// writeEnvFile writes vars as KEY=VALUE lines a shell can source, private
// to the user (it holds the simulator's secrets), in one atomic step: a
// shell polling for the file never reads half of it.
func writeEnvFile(path string, vars [][2]string) error {
	var b strings.Builder
	b.WriteString("# evdesk sim: load with `set -a; . " + path + "; set +a`\n")
	for _, kv := range vars {
		fmt.Fprintf(&b, "%s=%s\n", kv[0], kv[1])
	}
	return atomicfile.WriteFile(path, []byte(b.String()), 0o600)
}

// shutdownTimeout bounds how long the simulator may take to stop.
const shutdownTimeout = 5 * time.Second

// simOtherHostTokenEnv is the variable `evdesk sim` prints the second
// account's token as; a profile's token_env can name it.
const simOtherHostTokenEnv = "EVDESK_TOKEN_OTHER_HOST"

func validateShare(flag string, v float64) error {
	if v < 0 || v > 1 {
		return flagErrorf("%s must be between 0 and 1 (a share of requests), got %g", flag, v)
	}
	return nil
}
