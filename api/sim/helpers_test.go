package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

// testEpoch is mid-morning UTC, so the seed day has room either side.
var testEpoch = time.Date(2026, time.March, 10, 10, 0, 0, 0, time.UTC)

type fakeClock = fakeclock.Clock

func newFakeClock(t time.Time) *fakeClock { return fakeclock.New(t) }

// env is a simulator behind a real HTTP server.
type env struct {
	t     *testing.T
	sim   *Sim
	srv   *httptest.Server
	clock *fakeClock
	base  string // .../v2/vendor_events
}

// newEnv starts a simulator on a fake clock; the rate limit is off unless
// the test's options set RPS.
func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	clock := newFakeClock(testEpoch)
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	if opts.RPS == 0 {
		opts.NoRateLimit = true
	}
	s := New(opts)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	word := opts.PathWord
	if word == "" {
		word = DefaultPathWord
	}
	return &env{t: t, sim: s, srv: srv, clock: clock, base: srv.URL + "/v2/" + word + "_events"}
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request with token (none when empty) and a JSON body (none when nil).
func (e *env) do(method, path, token string, body any) reply {
	e.t.Helper()
	r, err := e.try(context.Background(), method, path, token, body)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

func (e *env) try(ctx context.Context, method, path, token string, body any) (reply, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, e.base+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, err
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: b}, nil
}

// decode unmarshals the reply after checking its status.
func (r reply) decode(t *testing.T, want int, out any) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body %s", r.status, want, clip(r.body))
	}
	if out != nil {
		if err := json.Unmarshal(r.body, out); err != nil {
			t.Fatalf("decode %s: %v", clip(r.body), err)
		}
	}
}

// wantError checks an error reply's status and code and returns its body.
func (r reply) wantError(t *testing.T, status, code int) apiError {
	t.Helper()
	var e apiError
	r.decode(t, status, &e)
	if e.Code != code {
		t.Fatalf("code %d, want %d; body %s", e.Code, code, r.body)
	}
	if e.Message == "" {
		t.Fatalf("error without message: %s", r.body)
	}
	return e
}

func (r reply) hasField(field string) bool {
	var e apiError
	_ = json.Unmarshal(r.body, &e)
	return strings.Contains(e.Message, field+": ")
}

// list fetches one page of the events listing.
func (e *env) list(token string, q url.Values) reply {
	e.t.Helper()
	return e.do("GET", "/events?"+q.Encode(), token, nil)
}

// listAll pages through a listing and returns every event.
func (e *env) listAll(token, role, status string, pageSize int) []api.Event {
	e.t.Helper()
	var all []api.Event
	q := url.Values{"role_type": {role}, "event_status_type": {status}}
	if pageSize > 0 {
		q.Set("page_size", strconv.Itoa(pageSize))
	}
	for range 1000 {
		var page api.EventList
		e.list(token, q).decode(e.t, 200, &page)
		all = append(all, page.Events...)
		if page.NextPageToken == "" {
			if len(all) != page.TotalRecords {
				e.t.Fatalf("collected %d events, total_records %d", len(all), page.TotalRecords)
			}
			return all
		}
		q.Set("next_page_token", page.NextPageToken)
	}
	e.t.Fatal("listing did not end")
	return nil
}

func (e *env) get(token, id string) api.Event {
	e.t.Helper()
	var ev api.Event
	e.do("GET", "/events/"+id, token, nil).decode(e.t, 200, &ev)
	return ev
}

func ptr[T any](v T) *T { return &v }

// validCreate is a create request that succeeds for the demo host.
func validCreate(now time.Time) api.EventCreate {
	start := now.Add(10 * 24 * time.Hour).Truncate(time.Hour)
	end := start.Add(2 * time.Hour)
	return api.EventCreate{
		Name:           "Evdesk Test Launch",
		Description:    "A test event.",
		Timezone:       "Europe/Lisbon",
		EventType:      api.EventTypeSimple,
		HubID:          HubID,
		AccessLevel:    api.AccessPrivateUnrestricted,
		AttendanceType: api.AttendanceVirtual,
		MeetingType:    api.MeetingTypeWebinar,
		Calendar:       []api.CalendarEntry{{StartTime: &start, EndTime: &end}},
		Categories:     []string{"Business & Networking"},
		Tags:           []string{"test"},
	}
}

// clip shortens a body for a failure message.
func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

// record returns the stored record of an event, read under the store lock.
func (e *env) record(id string) eventRec {
	e.t.Helper()
	e.sim.st.mu.Lock()
	defer e.sim.st.mu.Unlock()
	r := e.sim.st.events[id]
	if r == nil {
		e.t.Fatalf("no event %s in the store", id)
	}
	return *r
}

// eventCount is the number of stored events, read under the store lock.
func (e *env) eventCount() int {
	e.sim.st.mu.Lock()
	defer e.sim.st.mu.Unlock()
	return len(e.sim.st.events)
}
