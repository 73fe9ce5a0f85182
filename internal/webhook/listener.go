package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/netutil"
)

// Defaults of Options.
const (
	DefaultMaxBody       = 1 << 20 // the change log shows no payload near this size
	DefaultMaxConcurrent = 32
	DefaultQueue         = 256
	DefaultMaxConns      = 256
	defaultReplayLimit   = 100_000
)

// Server timeouts: a delivery is answered within AnswerWithin, and a client
// that sends its request slower than that is cut off.
const (
	AnswerWithin      = 3 * time.Second
	readHeaderTimeout = 2 * time.Second
	readTimeout       = AnswerWithin
	writeTimeout      = 5 * time.Second
	idleTimeout       = 5 * time.Second
	maxHeaderBytes    = 32 << 10
)

// Options configure a Listener.
type Options struct {
	// Secret is the endpoint's secret token (required).
	Secret string
	// Now is the clock for timestamps (default time.Now).
	Now func() time.Time
	// MaxBody caps a delivery's body in bytes (default DefaultMaxBody).
	MaxBody int64
	// MaxConcurrent caps the requests handled at once; more are refused
	// with 503 (default DefaultMaxConcurrent).
	MaxConcurrent int
	// Queue is how many accepted events may wait for Handle; when full, a
	// delivery is refused with 503 and the provider retries (default
	// DefaultQueue).
	Queue int
	// Handle is given every accepted event, one at a time, in order of
	// acceptance, on Run's goroutine.
	Handle func(Event)
	// Refused is told about every refused request (status and reason),
	// from the request's goroutine; nil ignores them.
	Refused func(Refusal)
	// Validated is told about each validation challenge answered.
	Validated func()
}

// Refusal is a request the listener refused.
type Refusal struct {
	Status int
	Reason string
	Remote string
}

// Listener is the http.Handler that receives deliveries.
type Listener struct {
	o      Options
	sem    chan struct{}
	queue  chan Event
	replay *replayGuard
}

// NewListener checks o and builds a listener.
func NewListener(o Options) (*Listener, error) {
	if o.Secret == "" {
		return nil, errors.New("the webhook secret token is empty")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.Handle == nil {
		o.Handle = func(Event) {}
	}
	return &Listener{o: o, sem: make(chan struct{}, o.MaxConcurrent), queue: make(chan Event, o.Queue),
		replay: newReplayGuard(defaultReplayLimit)}, nil
}

// Run hands queued events to Handle until ctx ends.
func (l *Listener) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-l.queue:
			l.o.Handle(ev)
		}
	}
}

// Drain hands the events still queued to Handle, for a listener that has
// stopped serving (and whose Run has returned): a delivery answered 200
// is never dropped on the way out.
func (l *Listener) Drain() {
	for {
		select {
		case ev := <-l.queue:
			l.o.Handle(ev)
		default:
			return
		}
	}
}

// ServeHTTP answers one request: at any path, POST only.
func (l *Listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case l.sem <- struct{}{}:
		defer func() { <-l.sem }()
	default:
		w.Header().Set("Retry-After", "1")
		l.refuse(w, r, http.StatusServiceUnavailable, "busy: too many deliveries at once")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		l.refuse(w, r, http.StatusMethodNotAllowed, "method "+r.Method+" (deliveries are POSTs)")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, l.o.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			l.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", l.o.MaxBody))
			return
		}
		l.refuse(w, r, http.StatusBadRequest, "the body did not arrive whole in time")
		return
	}
	now := l.o.Now()
	ts, sig := r.Header.Get(HeaderTimestamp), r.Header.Get(HeaderSignature)
	if err := Verify(l.o.Secret, ts, sig, body, now); err != nil {
		l.refuse(w, r, http.StatusUnauthorized, err.Error())
		return
	}
	env, err := parseEnvelope(body)
	if err != nil {
		l.refuse(w, r, http.StatusBadRequest, err.Error())
		return
	}
	if env.Event == ValidationEvent {
		l.answerChallenge(w, r, env)
		return
	}
	sent, _ := ParseTimestamp(ts) // Verify read it
	key := strings.TrimSpace(sig)
	if err := l.replay.admit(key, sent, now); err != nil {
		status := http.StatusConflict
		if errors.Is(err, ErrReplayMemoryFull) {
			status = http.StatusServiceUnavailable
		}
		l.refuse(w, r, status, err.Error())
		return
	}
	select {
	case l.queue <- newEvent(env, body, key, sent, now):
		w.WriteHeader(http.StatusOK)
	default:
		l.replay.forget(key) // the provider sends it again: that is no replay
		w.Header().Set("Retry-After", "1")
		l.refuse(w, r, http.StatusServiceUnavailable, "busy: the events received are not handled yet")
	}
}

// answerChallenge answers the endpoint URL validation.
func (l *Listener) answerChallenge(w http.ResponseWriter, r *http.Request, env envelope) {
	plain, err := plainToken(env.Payload)
	if err != nil {
		l.refuse(w, r, http.StatusBadRequest, err.Error())
		return
	}
	b, _ := json.Marshal(struct {
		PlainToken     string `json:"plainToken"`
		EncryptedToken string `json:"encryptedToken"`
	}{plain, EncryptToken(l.o.Secret, plain)})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
	if l.o.Validated != nil {
		l.o.Validated()
	}
}

func (l *Listener) refuse(w http.ResponseWriter, r *http.Request, status int, reason string) {
	http.Error(w, reason, status)
	if l.o.Refused != nil {
		l.o.Refused(Refusal{Status: status, Reason: reason, Remote: r.RemoteAddr})
	}
}

// Server serves a Listener on ln with the timeouts and limits that keep
// slow or many clients from holding it: a bounded number of connections,
// headers and body within AnswerWithin, small headers.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan error
	once sync.Once
}

// Serve starts serving l on ln; Close (or Shutdown) stops it.
func Serve(ln net.Listener, l *Listener, maxConns int) *Server {
	if maxConns <= 0 {
		maxConns = DefaultMaxConns
	}
	s := &Server{
		srv: &http.Server{Handler: l, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
			WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes,
			ErrorLog: discardLog},
		ln:   netutil.LimitListener(ln, maxConns),
		done: make(chan error, 1),
	}
	// One delivery a connection: an idle kept-alive connection would hold
	// one of the few places a flood leaves for the provider's next try.
	s.srv.SetKeepAlivesEnabled(false)
	go func() {
		err := s.srv.Serve(s.ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.done <- err
	}()
	return s
}

// Addr is the address served.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Shutdown stops accepting and waits for the requests in hand until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	return errors.Join(err, s.wait())
}

// Close stops at once.
func (s *Server) Close() error {
	err := s.srv.Close()
	return errors.Join(err, s.wait())
}

func (s *Server) wait() error {
	var err error
	s.once.Do(func() { err = <-s.done })
	return err
}

// discardLog silences net/http's own complaints (a client that went away):
// refusals are reported through Options.Refused, in evdesk's words.
var discardLog = log.New(io.Discard, "", 0)
