package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/internal/webhook"
)

// DefaultWebhookAddr is where `evdesk webhooks listen` listens by default:
// loopback only, so nothing outside this machine reaches it unless asked.
const DefaultWebhookAddr = "127.0.0.1:8979"

// demoWebhookEvery is how often the demo's simulator delivers an event.
const demoWebhookEvery = 5 * time.Second

func addWebhooksCommands(root *cobra.Command, f *Factory) {
	cmd := &cobra.Command{
		Use:   "webhooks",
		Short: "Receive the provider's webhook events",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newWebhooksListenCmd(f))
	root.AddCommand(cmd)
}

// listenOptions are `webhooks listen`'s flags.
type listenOptions struct {
	addr, forwardTo, spool string
	transcribe             bool
	out                    *outputFormat
}

func newWebhooksListenCmd(f *Factory) *cobra.Command {
	o := listenOptions{out: newOutput("table", "json")}
	cmd := &cobra.Command{
		Use:   "listen",
		Short: "Receive, verify and print webhook deliveries (forward, spool, transcribe)",
		Long: "Listen for the provider's webhook deliveries at any path of --addr (loopback by default).\n" +
			"Every delivery's x-zm-signature is verified with the endpoint's secret token\n" +
			"(EVDESK_WEBHOOK_SECRET, else the one `evdesk login --webhook-secret` stored); an unsigned,\n" +
			"stale (over 5 minutes) or replayed delivery is refused, and so is a body over 1 MiB.\n" +
			"The endpoint URL validation challenge is answered. Each accepted event is printed on\n" +
			"standard output, as a line of words or (-o json) a JSON line; refusals go to standard error.\n" +
			"The events the change log names carry its new fields; others pass through whole.\n\n" +
			"Recording-completed events are kept in a spool folder (--spool, default the state dir),\n" +
			"where the console's Transcribe section lists them; --transcribe writes each one's\n" +
			"transcript there as SRT. With --demo the embedded simulator delivers an event every 5 s.",
		Example: "  evdesk webhooks listen -o json | jq .fields\n" +
			"  evdesk webhooks listen --forward-to http://127.0.0.1:3000/hooks\n" +
			"  evdesk --demo webhooks listen --transcribe",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.check(); err != nil {
				return err
			}
			if !f.flags.demo && !o.transcribe {
				p, err := config.LoadProfile(f.flags.profile)
				if err != nil {
					return err
				}
				secret, err := webhookSecret(p)
				if err != nil {
					return err
				}
				return o.run(cmd, secret, p.Name, nil)
			}
			// The transcription service (and the demo's simulator) need a
			// session; a listener runs until interrupted, not --timeout.
			flags := f.flags
			flags.timeout = 0
			return f.runSession(cmd, nil, flags, func(cmd *cobra.Command, _ []string, s *session) error {
				secret, name := sim.DemoWebhookSecret, s.profile
				if !s.demo {
					p, err := config.LoadProfile(f.flags.profile)
					if err != nil {
						return err
					}
					if secret, err = webhookSecret(p); err != nil {
						return err
					}
				}
				return o.run(cmd, secret, name, s)
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.addr, "addr", DefaultWebhookAddr, "address to listen on (host:port; port 0 picks a free one)")
	fl.VarP(o.out, "output", "o", "how each event is printed: table (a line of words) or json (a JSON line)")
	fl.StringVar(&o.forwardTo, "forward-to", "", "also POST each verified event to this `URL` (body and signature headers unchanged)")
	fl.StringVar(&o.spool, "spool", "", "keep recording-completed events in `DIR` (default: the state dir's webhooks/PROFILE)")
	fl.BoolVar(&o.transcribe, "transcribe", false, "transcribe each recording (external_storage_url) and write its SRT beside it in the spool")
	return cmd
}

// webhookSecret is the profile's secret token: the environment's, else
// the keyring's.
func webhookSecret(p config.Profile) (string, error) {
	if p.WebhookSecret != "" {
		return p.WebhookSecret, nil
	}
	secret, err := auth.NewStore(auth.StoreOptions{}).WebhookSecret(p.Name)
	if err != nil {
		if errors.Is(err, auth.ErrNotFound) {
			return "", fmt.Errorf("no webhook secret token for profile %q: set %s or run `evdesk login --webhook-secret%s`",
				p.Name, config.EnvWebhookSecret, profileArg(p.Name))
		}
		return "", err
	}
	return secret, nil
}

func (o *listenOptions) check() error {
	host, port, err := net.SplitHostPort(o.addr)
	if err != nil || port == "" {
		return fmt.Errorf("--addr %q is not host:port, such as %s", o.addr, DefaultWebhookAddr)
	}
	_ = host // "" listens on every interface: allowed, when asked for
	if o.forwardTo != "" {
		if err := config.CheckHTTPURL(o.forwardTo); err != nil {
			return fmt.Errorf("--forward-to %q %v, such as http://127.0.0.1:3000/hooks", o.forwardTo, err)
		}
	}
	if o.spool != "" {
		if err := config.CheckFilePath(o.spool); err != nil {
			return fmt.Errorf("--spool %v", err)
		}
	}
	return nil
}

// run listens until the command's context ends. s is nil without a
// session (no transcription, no demo).
func (o *listenOptions) run(cmd *cobra.Command, secret, profile string, s *session) error {
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	out := &lockedWriter{w: cmd.OutOrStdout()}
	errOut := &lockedWriter{w: cmd.ErrOrStderr()}
	spool := webhook.Spool{Dir: o.spool}
	if spool.Dir == "" {
		spool.Dir = webhook.DefaultSpoolDir(profile)
	}
	var workers sync.WaitGroup
	var forward *webhook.Forwarder
	if o.forwardTo != "" {
		forward = webhook.NewForwarder(o.forwardTo, func(ev webhook.Event, err error) {
			if err != nil {
				errOut.printf("evdesk: forward %s: %v\n", ev.Name, err)
			}
		})
		workers.Go(func() { forward.Run(ctx) })
	}
	var transcribe chan webhook.Recording
	if o.transcribe {
		if s.transcriber == nil {
			return errors.New("--transcribe needs the AI services API key and secret: run `evdesk login --ai`")
		}
		transcribe = make(chan webhook.Recording, 64)
		tr := s.transcriber
		workers.Go(func() { transcribeLoop(ctx, tr, transcribe, errOut) })
	}
	handle := func(ev webhook.Event) {
		o.print(out, ev)
		if forward != nil {
			forward.Send(ev)
		}
		if ev.Name != webhook.EventRecordingCompleted {
			return
		}
		path, err := spool.Save(ev)
		if err != nil {
			errOut.printf("evdesk: %v\n", err)
			return
		}
		if transcribe == nil {
			return
		}
		rec := webhook.Recording{Path: path, ReceivedAt: ev.ReceivedAt, URL: ev.ExternalStorageURL()}
		select {
		case transcribe <- rec:
		default:
			errOut.printf("evdesk: not transcribed (too many waiting): %s\n", path)
		}
	}
	l, err := webhook.NewListener(webhook.Options{Secret: secret, Handle: handle,
		Refused: func(r webhook.Refusal) {
			errOut.printf("evdesk: refused %d from %s: %s\n", r.Status, r.Remote, r.Reason)
		},
		Validated: func() { errOut.printf("evdesk: answered the endpoint URL validation challenge\n") },
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.addr, err)
	}
	srv := webhook.Serve(ln, l, 0)
	workers.Go(func() { l.Run(ctx) })
	url := "http://" + srv.Addr().String() + "/"
	errOut.printf("evdesk: listening for webhook deliveries on %s (any path); recordings go to %s\n", url, spool.Dir)
	if s != nil && s.demoSim != nil {
		s.demoSim.DeliverWebhooks(sim.WebhookOptions{URL: url + "webhooks", Secret: secret, Every: demoWebhookEvery})
		errOut.printf("evdesk: demo: the embedded simulator delivers an event every %s\n", demoWebhookEvery)
	}
	<-ctx.Done()
	shut, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	err = srv.Shutdown(shut)
	cancel()
	workers.Wait()
	if errors.Is(err, context.DeadlineExceeded) {
		err = nil // a client that would not finish: cut, as it should be
	}
	return err
}

// print writes one accepted event.
func (o *listenOptions) print(w *lockedWriter, ev webhook.Event) {
	if o.out.value == "json" {
		b, err := json.Marshal(ev)
		if err != nil {
			return
		}
		w.write(append(sanitize.JSON(b), '\n'))
		return
	}
	w.printf("%s\n", ev.Words())
}

// transcribeLoop transcribes recordings one at a time, writing SRT files.
func transcribeLoop(ctx context.Context, tr *api.Transcriber, in <-chan webhook.Recording, errOut *lockedWriter) {
	for {
		select {
		case <-ctx.Done():
			return
		case rec := <-in:
			path, _, err := webhook.TranscribeRecording(ctx, tr, rec)
			if err != nil {
				errOut.printf("evdesk: %s: %v\n", sanitize.Line(rec.URL), err)
				continue
			}
			errOut.printf("evdesk: transcript of %s written to %s\n", sanitize.Line(rec.URL), path)
		}
	}
}

// lockedWriter serialises writes from the listener's goroutines, so lines
// never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) printf(format string, args ...any) {
	l.write([]byte(strings.TrimSuffix(fmt.Sprintf(format, args...), "\n") + "\n"))
}

func (l *lockedWriter) write(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(b)
}
