// Package viewtest holds what the views' tests share: the simulator on a
// fixed clock behind real HTTP, a client for it, and the console shell
// around a screen, driven with keys by uitest.
package viewtest

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
)

// Now is the tests' clock: the simulator seeds its data relative to it.
var Now = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// Clock returns Now.
func Clock() time.Time { return Now }

// Server is a simulator on the fixed clock, served over HTTP for the test.
type Server struct {
	*sim.Sim
	URL string // base address including /v2
}

// NewServer starts a simulator with no rate limit, stopped with the test.
func NewServer(t testing.TB) *Server {
	t.Helper()
	return NewServerWith(t, nil)
}

// NewServerWith is NewServer with the simulator behind wrap, a handler the
// test writes to answer some requests its own way (a refusal, a fault).
func NewServerWith(t testing.TB, wrap func(http.Handler) http.Handler) *Server {
	t.Helper()
	s := sim.New(sim.Options{Now: Clock, NoRateLimit: true})
	var h http.Handler = s
	if wrap != nil {
		h = wrap(s)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	return &Server{Sim: s, URL: srv.URL + "/v2"}
}

// Client is a client for the server with token, extra options last. Like
// the console's, it sanitises every string of every answer.
func (s *Server) Client(t testing.TB, token string, opts ...api.Option) *api.Client {
	t.Helper()
	c, err := api.New(append([]api.Option{api.WithBaseURL(s.URL), api.WithToken(token),
		api.WithRateLimit(0, 0), api.WithClock(Clock), api.WithStringFilter(sanitize.Field)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Open runs the shell, in the demo's colours-off theme, on the screen open
// builds, at w x h, as the Events section.
func Open(t testing.TB, w, h int, open func(*ui.Context) ui.Screen) *uitest.Driver {
	t.Helper()
	return OpenSection(t, "Events", w, h, open)
}

// OpenSection is Open with the section's name.
func OpenSection(t testing.TB, section string, w, h int, open func(*ui.Context) ui.Screen) *uitest.Driver {
	t.Helper()
	return OpenContext(t, Context(), section, w, h, open)
}

// Context is the program context the views' tests run in: colours off,
// the demo's labels, and the tests' clock, so a time on screen (a failure in
// the recent errors) is the same on every run.
func Context() *ui.Context {
	return &ui.Context{Theme: ui.NewTheme(true, true), Profile: "test", Demo: true, Now: Clock}
}

// OpenContext is OpenSection with a context the test prepared (a browser
// opener that records, say).
func OpenContext(t testing.TB, ctx *ui.Context, section string, w, h int, open func(*ui.Context) ui.Screen) *uitest.Driver {
	t.Helper()
	app := ui.NewApp(ctx, []ui.Section{{Name: section, New: open}})
	return uitest.New(t, app, w, h)
}
