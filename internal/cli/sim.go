package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

func newSimCmd() *cobra.Command {
	var (
		addr string
		opts sim.Options
	)
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Serve the API simulator for local development and tests",
		Long: "Serve the simulator: the whole API in memory with deterministic demo data.\n" +
			"It prints shell-ready variables; `eval \"$(evdesk sim ... | grep ^EVDESK_)\"` in\n" +
			"another shell points evdesk at it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validateShare("--error-rate", opts.ErrorRate); err != nil {
				return err
			}
			if err := validateShare("--drop-rate", opts.DropRate); err != nil {
				return err
			}
			if opts.RPS < 0 || opts.Latency < 0 {
				return fmt.Errorf("--rps and --latency must not be negative")
			}
			opts.NoRateLimit = opts.RPS == 0
			srv, err := sim.Start(addr, opts)
			if err != nil {
				return fmt.Errorf("serve the simulator on %s: %w", addr, err)
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s=%s\n", config.EnvBaseURL, srv.URL())
			fmt.Fprintf(out, "%s=%s\n", config.EnvToken, sim.DemoToken)
			fmt.Fprintf(out, "%s=%s\n", config.EnvAuthURL, srv.AuthURL())
			fmt.Fprintf(out, "%s=%s\n", config.EnvClientID, sim.DemoClientID)
			fmt.Fprintf(out, "%s=%s\n", config.EnvClientSecret, sim.DemoClientSecret)
			fmt.Fprintf(out, "EVDESK_TOKEN_NO_PHONE=%s\n", sim.NoPhoneToken)
			fmt.Fprintf(out, "# a second account, its phone policy a little different (evdesk phone compare):\n")
			fmt.Fprintf(out, "%s=%s\n", simOtherHostTokenEnv, sim.OtherHostToken)
			fmt.Fprintf(out, "# AI services (evdesk login --ai): key %s secret %s\n", sim.DemoAIKey, sim.DemoAISecret)
			fmt.Fprintf(out, "# try: curl -H \"Authorization: Bearer $%s\" \"$%s/%s_events/events?role_type=host\"\n",
				config.EnvToken, config.EnvBaseURL, config.DefaultPathWord)
			fmt.Fprintln(out, "# serving until interrupted (ctrl+c)")
			<-cmd.Context().Done()
			ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				return fmt.Errorf("shut down the simulator: %w", err)
			}
			fmt.Fprintln(cmd.ErrOrStderr(), "simulator stopped")
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8765", "address to listen on (host:port; port 0 picks a free one)")
	f.DurationVar(&opts.Latency, "latency", 0, "added latency per request, e.g. 150ms")
	f.Float64Var(&opts.ErrorRate, "error-rate", 0, "share of requests answered with a 5xx, 0 to 1")
	f.Float64Var(&opts.DropRate, "drop-rate", 0, "share of connections dropped without an answer, 0 to 1")
	f.Float64Var(&opts.RPS, "rps", 30, "requests per second per token before 429 (the LIGHT rate limit); 0 for no limit")
	return cmd
}

// shutdownTimeout bounds how long the simulator may take to stop.
const shutdownTimeout = 5 * time.Second

// simOtherHostTokenEnv is the variable `evdesk sim` prints the second
// account's token as; a profile's token_env can name it.
const simOtherHostTokenEnv = "EVDESK_TOKEN_OTHER_HOST"

func validateShare(flag string, v float64) error {
	if v < 0 || v > 1 {
		return fmt.Errorf("%s must be between 0 and 1 (a share of requests), got %g", flag, v)
	}
	return nil
}
