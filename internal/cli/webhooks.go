package cli

import (
	"bytes"
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

// newWebhooksCmd is `evdesk webhooks`.
func newWebhooksCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhooks",
		Short: "Receive the provider's webhook events",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newWebhooksListenCmd(f, nil))
	return cmd
}

// listenOptions are `webhooks listen`'s.
type listenOptions struct {
	deps
	Export                 *exporter
	Addr, ForwardTo, Spool string
	Transcribe             bool
	// Secret finds the endpoint's secret token and the profile it belongs
	// to; OpenSession opens a session (for --transcribe and the demo).
	Secret      func() (secret, profile string, err error)
	OpenSession func(context.Context) (*session, error)
	Demo        bool
}

func newWebhooksListenCmd(f *Factory, runF runFunc[listenOptions]) *cobra.Command {
	o := &listenOptions{deps: f.deps()}
	o.Secret = func() (string, string, error) {
		if f.flags.demo {
			return sim.DemoWebhookSecret, "demo", nil
		}
		p, err := f.Profile(f.flags.profile)
		if err != nil {
			return "", "", err
		}
		secret, err := webhookSecret(f.AuthStore(auth.StoreOptions{}), p)
		return secret, p.Name, err
	}
	o.OpenSession = func(ctx context.Context) (*session, error) {
		flags := f.flags
		flags.timeout = 0
		return f.OpenSession(ctx, flags, forCLI)
	}
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
			"transcript there as SRT. With --demo the embedded simulator delivers an event every 5 s.\n" +
			"It runs until interrupted (--timeout does not apply).",
		Example: "  evdesk webhooks listen -o json | jq .fields\n" +
			"  evdesk webhooks listen --jq 'select(.named) | .event'\n" +
			"  evdesk webhooks listen --forward-to http://127.0.0.1:3000/hooks\n" +
			"  evdesk --demo webhooks listen --transcribe",
		Args:        cobra.NoArgs,
		Annotations: map[string]string{interactive: "runs until interrupted"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.check(); err != nil {
				return err
			}
			o.Demo = f.flags.demo
			return run(cmd, o, runF, listenRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Addr, "addr", DefaultWebhookAddr, "address to listen on (host:port; port 0 picks a free one)")
	fl.StringVar(&o.ForwardTo, "forward-to", "", "also POST each verified event to this `URL` (body and signature headers unchanged)")
	fl.StringVar(&o.Spool, "spool", "", "keep recording-completed events in `DIR` (default: the state dir's webhooks/PROFILE)")
	fl.BoolVar(&o.Transcribe, "transcribe", false, "transcribe each recording (external_storage_url) and write its SRT beside it in the spool")
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return cmd
}

// listenRun listens until the command's context ends.
func listenRun(ctx context.Context, o *listenOptions) error {
	secret, profile, err := o.Secret()
	if err != nil {
		return err
	}
	if !o.Transcribe && !o.Demo {
		return o.listen(ctx, secret, profile, nil)
	}
	s, err := o.OpenSession(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	return o.listen(ctx, secret, profile, s)
}

// webhookSecret is the profile's secret token: the environment's, else
// the keyring's.
func webhookSecret(st *auth.Store, p config.Profile) (string, error) {
	if p.WebhookSecret != "" {
		return p.WebhookSecret, nil
	}
	secret, err := st.WebhookSecret(p.Name)
	if err != nil {
		if errors.Is(err, auth.ErrNotFound) {
			return "", fmt.Errorf("no webhook secret token for profile %q: set %s or run `evdesk login --webhook-secret%s`",
				p.Name, config.EnvWebhookSecret, profileArg(p.Name))
		}
		return "", err
	}
	return secret, nil
}

// check reads the flags: an address to listen on ("" as host listens on
// every interface: allowed, when asked for), a forward URL, a folder.
func (o *listenOptions) check() error {
	if _, port, err := net.SplitHostPort(o.Addr); err != nil || port == "" {
		return flagErrorf("--addr %q is not host:port, such as %s", o.Addr, DefaultWebhookAddr)
	}
	if o.ForwardTo != "" {
		if err := config.CheckHTTPURL(o.ForwardTo); err != nil {
			return flagErrorf("--forward-to %q %v, such as http://127.0.0.1:3000/hooks", o.ForwardTo, err)
		}
	}
	if o.Spool != "" {
		if err := config.CheckFilePath(o.Spool); err != nil {
			return flagErrorf("--spool %v", err)
		}
	}
	return nil
}

// listen serves until ctx ends. s is nil without a session (no
// transcription, no demo).
func (o *listenOptions) listen(ctx context.Context, secret, profile string, s *session) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &lockedWriter{w: o.IO.Out}
	errOut := &lockedWriter{w: o.IO.ErrOut}
	spool := webhook.Spool{Dir: o.Spool}
	if spool.Dir == "" {
		spool.Dir = webhook.DefaultSpoolDir(profile)
	}
	var workers sync.WaitGroup
	var forward *webhook.Forwarder
	if o.ForwardTo != "" {
		forward = webhook.NewForwarder(o.ForwardTo, func(ev webhook.Event, err error) {
			if err != nil {
				errOut.printf("evdesk: forward %s: %v\n", ev.Name, err)
			}
		})
		workers.Go(func() { forward.Run(ctx) })
	}
	var transcribe chan webhook.Recording
	if o.Transcribe {
		if s.transcriber == nil {
			return errors.New("--transcribe needs the AI services API key and secret: run `evdesk login --ai`")
		}
		transcribe = make(chan webhook.Recording, 64)
		tr := s.transcriber
		workers.Go(func() { transcribeLoop(ctx, tr, transcribe, errOut) })
	}
	handle := func(ev webhook.Event) {
		var rec webhook.Recording
		if ev.Name == webhook.EventRecordingCompleted {
			// Kept before it is printed: what a script reads is on disk.
			path, err := spool.Save(ev)
			if err != nil {
				errOut.printf("evdesk: %v\n", err)
			}
			rec = webhook.Recording{Path: path, ReceivedAt: ev.ReceivedAt, URL: ev.ExternalStorageURL()}
		}
		o.print(out, errOut, ev)
		if forward != nil {
			forward.Send(ev)
		}
		if transcribe == nil || rec.Path == "" {
			return
		}
		select {
		case transcribe <- rec:
		default:
			errOut.printf("evdesk: not transcribed (too many waiting): %s\n", rec.Path)
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
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.Addr, err)
	}
	srv := webhook.Serve(ln, l, 0)
	// The listener's own context: on the way out it stops after serving
	// does, and what it accepted is drained before the workers stop.
	runCtx, stopRun := context.WithCancel(context.Background())
	var runner sync.WaitGroup
	runner.Go(func() { l.Run(runCtx) })
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
	stopRun()
	runner.Wait()
	l.Drain()
	cancel()
	workers.Wait()
	if errors.Is(err, context.DeadlineExceeded) {
		err = nil // a client that would not finish: cut, as it should be
	}
	return err
}

// print writes one accepted event: a JSON line (through --jq or
// --template when given), or a line of words.
func (o *listenOptions) print(w *lockedWriter, errOut *lockedWriter, ev webhook.Event) {
	if !o.Export.Is(formatJSON) {
		w.printf("%s\n", ev.Words())
		return
	}
	var buf bytes.Buffer
	if o.Export.jq != "" || o.Export.template != "" {
		if err := o.Export.writeJSON(&buf, ev); err != nil {
			errOut.printf("evdesk: %s: %v\n", ev.Name, err)
			return
		}
		w.write(buf.Bytes())
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return
	}
	w.write(append(sanitize.JSON(b), '\n'))
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
