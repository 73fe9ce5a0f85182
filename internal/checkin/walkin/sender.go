package walkin

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
)

// Options configures a Sender.
type Options struct {
	EventID string
	// Create sends a create-tickets request (api RegistrationService).
	Create func(ctx context.Context, eventID string, req *api.TicketsRequest) (*api.TicketsResult, error)
	// Roster is the desk's roster at hand (nil while there is none): a
	// walk-in it lists is registered already, and a roster downloaded
	// after an unanswered registration tells whether it went through.
	Roster func() *roster.Roster
	// RefreshRoster asks for a new roster (after an unanswered
	// registration).
	RefreshRoster func()
	// CheckIn writes the registered walk-in's check-in into the check-in
	// journal and returns its scan id.
	CheckIn func(w Walkin) (string, error)
	// OnChange hears every change of a walk-in (on the sender's
	// goroutine).
	OnChange func(Walkin)
	// Sleep waits between tries (default a timer); tests inject one.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock.
	Now func() time.Time
	// CallTimeout bounds one request (default 20 s).
	CallTimeout time.Duration
}

// Sender registers the journal's walk-ins in order and checks them in.
type Sender struct {
	j      *Journal
	o      Options
	wake   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	lastErr error
	atRest  bool
}

// Retry waits: the first after a failure, doubling to the longest.
const (
	firstRetry = 2 * time.Second
	lastRetry  = time.Minute
)

// Start runs a sender until Close.
func Start(j *Journal, o Options) *Sender {
	if o.Sleep == nil {
		o.Sleep = api.SleepContext
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 20 * time.Second
	}
	s := &Sender{j: j, o: o, wake: make(chan struct{}, 1), done: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	go s.loop()
	return s
}

// Wake makes the sender try at once (the desk's retry, or a new roster).
func (s *Sender) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// LastErr is the last failure to reach the server; nil after a success.
func (s *Sender) LastErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// AtRest reports whether the sender waits with nothing it can do now.
func (s *Sender) AtRest() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.atRest
}

// Close stops the sender; walk-ins not yet sent stay in the journal.
func (s *Sender) Close() {
	s.cancel()
	<-s.done
}

func (s *Sender) loop() {
	defer close(s.done)
	wait := firstRetry
	for s.ctx.Err() == nil {
		changed := s.j.Changed()
		progressed, failed := s.pass()
		if progressed {
			wait = firstRetry
			continue
		}
		s.mu.Lock()
		s.atRest = true
		s.mu.Unlock()
		var timer <-chan time.Time
		if failed {
			ctx, cancel := context.WithCancel(s.ctx)
			t := make(chan time.Time, 1)
			go func(d time.Duration) {
				if s.o.Sleep(ctx, d) == nil {
					t <- time.Time{}
				}
			}(wait)
			timer = t
			wait = min(2*wait, lastRetry)
			select {
			case <-s.ctx.Done():
			case <-changed:
			case <-s.wake:
			case <-timer:
			}
			cancel()
		} else {
			select {
			case <-s.ctx.Done():
			case <-changed:
			case <-s.wake:
			}
		}
		s.mu.Lock()
		s.atRest = false
		s.mu.Unlock()
	}
}

// pass tries every walk-in that can move on, oldest first. progressed: a
// walk-in changed; failed: one is left for a retry later.
func (s *Sender) pass() (progressed, failed bool) {
	for _, w := range s.j.All() {
		if s.ctx.Err() != nil {
			return false, false
		}
		var err error
		moved := false
		switch w.State {
		case Waiting:
			moved, err = s.register(w)
		case Uncertain:
			moved, err = s.resolve(w)
		case Registered:
			moved, err = s.checkIn(w)
		default:
			continue
		}
		if err != nil {
			failed = true
			s.setErr(err)
		}
		progressed = progressed || moved
	}
	return progressed, failed
}

func (s *Sender) setErr(err error) {
	s.mu.Lock()
	s.lastErr = err
	s.mu.Unlock()
}

func (s *Sender) save(rec record) bool {
	w, err := s.j.record(rec)
	if err != nil {
		s.setErr(err)
		return false
	}
	if s.o.OnChange != nil {
		s.o.OnChange(w)
	}
	return true
}

// listed returns the roster's person for an address.
func (s *Sender) listed(email string) (*roster.Roster, roster.Person, bool) {
	if s.o.Roster == nil {
		return nil, roster.Person{}, false
	}
	ro := s.o.Roster()
	if ro == nil {
		return nil, roster.Person{}, false
	}
	p, ok := ro.ByEmail(email)
	return ro, p, ok
}

// fromRoster records a walk-in registered as the roster shows it.
func (s *Sender) fromRoster(w Walkin, p roster.Person) bool {
	var tickets []api.Ticket
	for _, t := range p.Tickets {
		tickets = append(tickets, api.Ticket{TicketID: t.ID, Email: p.Email, QRCodeURL: t.QRCodeURL})
	}
	return s.save(record{Type: recRegistered, ID: w.ID, At: s.o.Now().UTC(), Tickets: tickets})
}

func (s *Sender) register(w Walkin) (bool, error) {
	if _, p, ok := s.listed(w.Email); ok && strings.EqualFold(p.Status, api.RegistrationRegistered) {
		// Registered meanwhile (at another desk, or online): check in.
		return s.fromRoster(w, p), nil
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.o.CallTimeout)
	res, err := s.o.Create(ctx, s.o.EventID, w.Request())
	cancel()
	if s.ctx.Err() != nil {
		return false, nil
	}
	switch {
	case err == nil:
		return s.answered(w, res), nil
	case nothingSent(err):
		return false, err
	case refusal(err):
		return s.save(record{Type: recRefused, ID: w.ID, At: s.o.Now().UTC(), Reason: refusalWords(err),
			Questions: api.QuestionsIn(err)}), nil
	}
	// Sent, and no answer: the ticket may exist. Never send it again
	// before a roster taken after now tells.
	if s.o.RefreshRoster != nil {
		s.o.RefreshRoster()
	}
	return s.save(record{Type: recSent, ID: w.ID, At: s.o.Now().UTC(), Reason: err.Error()}), err
}

// answered records the server's answer to a registration.
func (s *Sender) answered(w Walkin, res *api.TicketsResult) bool {
	var made []api.Ticket
	for _, t := range res.Tickets {
		if api.NormalizeEmail(t.Email) == w.Email || t.Email == "" {
			made = append(made, t)
		}
	}
	// A success that names no ticket and refuses nothing registered them
	// all the same (the description shows no answer body): the roster
	// brings their ticket later.
	if len(made) > 0 || len(res.Errors) == 0 {
		return s.save(record{Type: recRegistered, ID: w.ID, At: s.o.Now().UTC(), Tickets: made})
	}
	var why string
	for _, e := range res.Errors {
		why = strings.TrimSuffix(e.Meaning(), ".")
		if e.ErrorCode != "" {
			why += " (" + e.ErrorCode + ")"
		}
	}
	return s.save(record{Type: recRefused, ID: w.ID, At: s.o.Now().UTC(), Reason: why})
}

// resolve settles an unanswered registration by a roster downloaded after
// it: listed, it went through; not listed, it did not, and is sent again.
func (s *Sender) resolve(w Walkin) (bool, error) {
	ro, p, ok := s.listed(w.Email)
	switch {
	case ro == nil || !ro.Updated().After(w.SentAt):
		return false, nil // wait for a newer roster
	case ok:
		return s.fromRoster(w, p), nil
	}
	return s.register(w)
}

func (s *Sender) checkIn(w Walkin) (bool, error) {
	id, err := s.o.CheckIn(w)
	if err != nil {
		return false, fmt.Errorf("the check-in of %s could not be saved: %w", w.Email, err)
	}
	return s.save(record{Type: recCheckedIn, ID: w.ID, At: s.o.Now().UTC(), Scan: id}), nil
}

// nothingSent reports a failure before the request left: no connection, a
// rate limit, no token. Sending again cannot register anyone twice.
func nothingSent(err error) bool {
	var ue *api.UnreachableError
	if errors.As(err, &ue) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var te *api.TokenError
	if errors.As(err, &te) {
		return true
	}
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests
}

// refusal reports an answer that refuses the registration for good: a 4xx
// other than a rate limit, or the client's own validation.
func refusal(err error) bool {
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return true
	}
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500 && ae.Status != http.StatusTooManyRequests &&
		!errors.Is(err, api.ErrOutcomeUnknown)
}

// refusalWords is a refusal for the desk: the meaning of the server's code
// and, for missing answers, the questions by name.
func refusalWords(err error) string {
	if qs := api.QuestionsIn(err); len(qs) > 0 && api.IsCode(err, api.CodeMissingRequiredAnswers) {
		labels := make([]string, len(qs))
		for i, q := range qs {
			labels[i] = api.QuestionLabel(q)
		}
		return "the registration form requires " + strings.Join(labels, ", ")
	}
	return err.Error()
}
