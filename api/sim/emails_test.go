package sim

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

func TestEmailTypesOfEveryEvent(t *testing.T) {
	e := newEnv(t, Options{})
	now := e.clock.Now()
	names := map[string]bool{}
	statuses := map[string]int{}
	e.sim.st.mu.Lock()
	events := make([]*eventRec, 0, len(e.sim.st.events))
	for _, ev := range e.sim.st.events {
		events = append(events, ev)
	}
	e.sim.st.mu.Unlock()
	for _, ev := range events {
		if ev.hostID() != DemoHostID {
			continue
		}
		var l api.EmailTypeList
		e.do("GET", "/events/"+ev.ev.EventID+"/email_types?page_size=300", DemoToken, nil).decode(t, 200, &l)
		if l.TotalRecords != len(l.EmailTypes) || l.TotalRecords < 5 {
			t.Fatalf("%s: %d email types", ev.ev.Name, l.TotalRecords)
		}
		ids := map[string]bool{}
		for _, et := range l.EmailTypes {
			names[et.Name] = true
			statuses[et.Status]++
			if ids[et.EmailTypeID] {
				t.Fatalf("%s: id %s twice", ev.ev.Name, et.EmailTypeID)
			}
			ids[et.EmailTypeID] = true
			switch et.Status {
			case api.EmailTypeSent:
				if et.TriggerDate.After(now) {
					t.Errorf("%s / %s sent at %v, after now", ev.ev.Name, et.Name, et.TriggerDate)
				}
			case api.EmailTypeScheduled:
				if !ev.isDraft() && et.TriggerDate.Before(now) {
					t.Errorf("%s / %s scheduled at %v, before now", ev.ev.Name, et.Name, et.TriggerDate)
				}
			}
		}
	}
	for _, n := range []string{"Registration confirmation", "Reminder: 1 day before", "Post-event survey", "Event cancellation notice"} {
		if !names[n] {
			t.Errorf("no %q anywhere", n)
		}
	}
	for _, st := range api.EmailTypeStatuses {
		if statuses[st.Value] == 0 {
			t.Errorf("no email type is %s", st.Value)
		}
	}
}

func TestBigEmailHasEveryStatusAndReason(t *testing.T) {
	s := New(Options{Now: newFakeClock(testEpoch).Now})
	f := s.Fixtures()
	counts := s.SendStatusCounts(f.BigEmailEventID, f.BigEmailTypeID)
	total := 0
	for _, st := range api.SendStatuses {
		if counts[st.Value] == 0 {
			t.Errorf("no %s record", st.Value)
		}
		total += counts[st.Value]
	}
	if total != BigEmailRecipients {
		t.Fatalf("%d records", total)
	}
	for _, r := range api.FailureReasons {
		if counts[api.SendFailed+"/"+r.Value] == 0 {
			t.Errorf("no failure %s", r.Value)
		}
	}
	// Deterministic: a second simulator on another clock agrees.
	again := New(Options{Now: newFakeClock(testEpoch.Add(5 * time.Hour)).Now})
	if got := again.SendStatusCounts(f.BigEmailEventID, f.BigEmailTypeID); fmt.Sprint(got) != fmt.Sprint(counts) {
		t.Fatalf("counts differ between runs: %v vs %v", got, counts)
	}
}

// sendPage fetches one send-status page.
func sendPage(e *env, eventID, typeID string, q url.Values) reply {
	e.t.Helper()
	return e.do("GET", "/events/"+eventID+"/email_types/"+typeID+"/send_status?"+q.Encode(), DemoToken, nil)
}

func TestSendStatusPagingFiltersAndExpiry(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	id, typ := f.BigEmailEventID, f.BigEmailTypeID

	// Walk the whole listing: every address once, in a stable order.
	seen := make(map[string]bool, BigEmailRecipients)
	q := url.Values{"page_size": {"300"}}
	var first api.EmailSendRecord
	for page := 0; ; page++ {
		var l api.EmailSendList
		sendPage(e, id, typ, q).decode(t, 200, &l)
		if l.TotalRecords != BigEmailRecipients {
			t.Fatalf("total %d", l.TotalRecords)
		}
		for _, r := range l.Emails {
			if seen[r.Email] {
				t.Fatalf("%s twice", r.Email)
			}
			seen[r.Email] = true
			if api.CheckEmail(r.Email) != nil || r.Name == "" {
				t.Fatalf("record %+v", r)
			}
		}
		if page == 0 {
			first = l.Emails[0]
		}
		if l.NextPageToken == "" {
			break
		}
		q.Set("next_page_token", l.NextPageToken)
	}
	if len(seen) != BigEmailRecipients {
		t.Fatalf("%d distinct addresses", len(seen))
	}

	// A token older than 15 minutes is refused with code 300.
	var l api.EmailSendList
	sendPage(e, id, typ, url.Values{"page_size": {"10"}}).decode(t, 200, &l)
	if l.Emails[0] != first && l.Emails[0].Email != first.Email {
		t.Fatalf("order changed: %+v vs %+v", l.Emails[0], first)
	}
	e.clock.Advance(15 * time.Minute)
	sendPage(e, id, typ, url.Values{"page_size": {"10"}, "next_page_token": {l.NextPageToken}}).wantError(t, 400, CodeInvalidPageToken)
	// A token is only good for its own listing (filters included).
	sendPage(e, id, typ, url.Values{"page_size": {"10"}}).decode(t, 200, &l)
	sendPage(e, id, typ, url.Values{"status": {"failed"}, "next_page_token": {l.NextPageToken}}).wantError(t, 400, CodeInvalidPageToken)

	// The status filter partitions the listing.
	sum := 0
	for _, st := range api.SendStatuses {
		var fl api.EmailSendList
		sendPage(e, id, typ, url.Values{"status": {st.Value}, "page_size": {"300"}}).decode(t, 200, &fl)
		for _, r := range fl.Emails {
			if r.Status != st.Value {
				t.Fatalf("%s filter returned %+v", st.Value, r)
			}
		}
		sum += fl.TotalRecords
	}
	if sum != BigEmailRecipients {
		t.Fatalf("filtered totals add up to %d", sum)
	}
	// Search matches names and addresses, case-insensitively.
	var sl api.EmailSendList
	sendPage(e, id, typ, url.Values{"search_text": {strings.ToUpper(first.Email)}}).decode(t, 200, &sl)
	if sl.TotalRecords != 1 || sl.Emails[0].Email != first.Email {
		t.Fatalf("search by address: %+v", sl)
	}
	last := strings.Fields(first.Name)[1]
	sendPage(e, id, typ, url.Values{"search_text": {last}, "status": {"failed"}}).decode(t, 200, &sl)
	if sl.TotalRecords == 0 || sl.TotalRecords > BigEmailRecipients/20 {
		t.Fatalf("search %q among failed: %d", last, sl.TotalRecords)
	}

	// Errors: bad status, bad size, unknown type, scopes.
	if r := sendPage(e, id, typ, url.Values{"status": {"bounced"}}); r.status != 400 || !r.hasField("status") {
		t.Fatalf("bad status: %d %s", r.status, r.body)
	}
	if r := sendPage(e, id, typ, url.Values{"page_size": {"301"}}); r.status != 400 || !r.hasField("page_size") {
		t.Fatalf("bad size: %d", r.status)
	}
	if r := sendPage(e, id, "NoSuchType", nil); r.status != 404 {
		t.Fatalf("unknown type: %d", r.status)
	}
	sendPage(e, "NoSuchEvent000000000000", typ, nil).wantError(t, 404, api.CodeEventNotFound)
	sendPage(e, f.OtherHostEventID, typ, nil).wantError(t, 403, api.CodeEventAccessDenied)
	e.do("GET", "/events/"+f.OtherHostEventID+"/email_types", DemoToken, nil).wantError(t, 403, api.CodeEventAccessDenied)
	e.do("GET", "/events/"+id+"/email_types?status=done", DemoToken, nil).decode(t, 400, nil)
	e.do("GET", "/events/"+id+"/email_types", "", nil).decode(t, 401, nil)
	e.do("GET", "/events/"+id+"/email_types", ReadOnlyToken, nil).decode(t, 200, nil)
}

// TestSendStatusPageMemory: serving a page of the 100,000-record listing
// costs about one page, not the listing (after the first request built the
// cached position list).
func TestSendStatusPageMemory(t *testing.T) {
	s := New(Options{Now: newFakeClock(testEpoch).Now, NoRateLimit: true})
	f := s.Fixtures()
	path := "/v2/vendor_events/events/" + f.BigEmailEventID + "/email_types/" + f.BigEmailTypeID + "/send_status?page_size=300"
	serve := func() {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+DemoToken)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("status %d", w.Code)
		}
	}
	serve()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 20
	for range n {
		serve()
	}
	runtime.ReadMemStats(&after)
	perPage := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes allocated per page of 300", perPage)
	if perPage > 1<<20 {
		t.Fatalf("a page allocates %d bytes; the listing is being materialised", perPage)
	}
}

// BenchmarkSendStatusPage serves one page of 300 from the 100,000-record
// listing. Run: go test ./api/sim -run '^$' -bench SendStatus -benchmem
func BenchmarkSendStatusPage(b *testing.B) {
	s := New(Options{Now: newFakeClock(testEpoch).Now, NoRateLimit: true})
	f := s.Fixtures()
	path := "/v2/vendor_events/events/" + f.BigEmailEventID + "/email_types/" + f.BigEmailTypeID + "/send_status?page_size=300"
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+DemoToken)
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
}
