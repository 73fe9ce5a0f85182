package emails

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/fakeclock"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/viewtest"
)

var testNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// clock is the fake clock shared by the simulator, the client and the
// screens.
type clock = fakeclock.Clock

type rig struct {
	*uitest.Driver
	sim   *sim.Sim
	ids   sim.Fixtures
	dir   string
	clock *clock
}

// newRig opens the emails screen of an event on a fresh simulator. hook,
// when set, sees every request before the simulator does.
func newRig(t *testing.T, w, h int, pick func(sim.Fixtures) (string, string), hook func(*http.Request, *clock)) *rig {
	t.Helper()
	clk := fakeclock.New(testNow)
	s := sim.New(sim.Options{Now: clk.Now, NoRateLimit: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hook != nil {
			hook(r, clk)
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	client, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	id, name := pick(s.Fixtures())
	d := viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen {
		return New(c, views.Env{Client: client, Now: clk.Now, Local: time.UTC}, id, name, WithExportDir(dir))
	})
	return &rig{Driver: d, sim: s, ids: s.Fixtures(), dir: dir, clock: clk}
}

func pastEvent(f sim.Fixtures) (string, string) { return f.PastEventID, "Intro to Kubernetes Webinar" }
func launchEvent(f sim.Fixtures) (string, string) {
	return f.BigEmailEventID, "Product Launch Live: Northwind Atlas"
}

// open selects the email type named name and opens its send status.
func (r *rig) open(name string) {
	r.Press("/")
	r.Type(name)
	r.Press("enter", "enter")
}

func TestTypesListStatusesAndTimes(t *testing.T) {
	r := newRig(t, 110, 30, launchEvent, nil)
	r.Contains("Emails of Product Launch Live", "Registration confirmation", "Ongoing",
		"Invitation", "Sent", "Scheduled", "in 5 days", "ago", "Sent when someone registers")
	r.Golden("types")
	r.Press("down")
	r.Contains("Sent: has been sent · Sun 8 Nov 2026 16:00 UTC")
}

func TestSendStatusChartFiltersSearchAndExport(t *testing.T) {
	r := newRig(t, 100, 34, pastEvent, nil)
	typeID := r.sim.EmailTypeIDs(r.ids.PastEventID)["Reminder: 1 day before"]
	counts := r.sim.SendStatusCounts(r.ids.PastEventID, typeID)
	total := 0
	for _, e := range api.SendStatuses {
		total += counts[e.Value]
	}
	r.open("1 day")
	r.Contains("Reminder: 1 day before SENT", fmt.Sprintf("%s recipients", ui.Thousands(total)),
		"Recipients by status", "Failed, by reason", "Delivered", "Missed schedule", "Unsubscribed",
		fmt.Sprintf("Delivered       %7s", ui.Thousands(counts[api.SendDelivered])))
	r.Golden("send_status")
	r.Press("w") // every recipient: "all", without "the"
	r.Contains(fmt.Sprintf("Export all %s recipients to CSV", ui.Thousands(total)))
	r.Lacks("the all")
	r.Press("esc")
	r.Lacks("Export all")

	// f cycles the status filter: scheduled, pending, delivered, failed.
	r.Press("f", "f", "f", "f")
	r.Contains("f status: Failed", fmt.Sprintf("showing %s of %s", ui.Thousands(counts[api.SendFailed]), ui.Thousands(total)), "> Failed")
	r.Lacks("Delivered  2026")
	r.Golden("filter_failed")
	// F cycles the reason: bounced.
	r.Press("F")
	r.Contains("F reason: Bounced", fmt.Sprintf("showing %s of", ui.Thousands(counts[api.SendFailed+"/"+api.FailureBounced])))

	// Export what is shown.
	r.Press("w")
	r.Contains(fmt.Sprintf("Export the %s recipients shown to CSV", ui.Thousands(counts[api.SendFailed+"/"+api.FailureBounced])), "Save as", "filtered.csv")
	r.Press("enter")
	path := filepath.Join(r.dir, "intro-to-kubernetes-webinar-reminder-1-day-before-send-status-filtered.csv")
	r.Contains("Exported " + ui.Thousands(counts[api.SendFailed+"/"+api.FailureBounced]) + " recipient")
	lines := readCSV(t, path)
	if len(lines) != 1+counts[api.SendFailed+"/"+api.FailureBounced] || strings.Join(lines[0], ",") != "email,name,status,failure_reason,sent_utc" {
		t.Fatalf("csv has %d lines, header %v", len(lines), lines[0])
	}
	for _, l := range lines[1:] {
		if l[2] != api.SendFailed || l[3] != api.FailureBounced || !strings.HasSuffix(l[4], "Z") {
			t.Fatalf("exported %v", l)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("export mode %v", st.Mode())
	}
	leftovers, _ := filepath.Glob(filepath.Join(r.dir, ".*.tmp"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}

	// esc clears the status and reason filters first, then / searches.
	r.Press("esc")
	r.Contains("f status: all", "F reason: all")
	r.Lacks("showing")
	first := lines[1][1] // a bounced recipient's name
	r.Press("/")
	r.Type(strings.ToLower(first))
	r.Press("enter")
	r.Contains(first, "showing")
	r.Press("esc") // clears the search
	r.Lacks("showing")
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestBigListLoadsEveryRecipientOnceAcrossTokenExpiry loads the 100,000
// recipients while the clock jumps past a page token's life after the 100th
// request: the pager starts over and the table ends with each recipient once.
func TestBigListLoadsEveryRecipientOnceAcrossTokenExpiry(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 recipients")
	}
	var mu sync.Mutex
	requests := 0
	r := newRig(t, 100, 30, launchEvent, func(req *http.Request, c *clock) {
		if !strings.HasSuffix(req.URL.Path, "/send_status") {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		requests++
		if requests == 101 {
			c.Advance(16 * time.Minute)
		}
	})
	r.open("invitation")
	r.Contains("Invitation SENT", "100,000 recipients", "100,000 of 100,000 loaded")
	mu.Lock()
	n := requests
	mu.Unlock()
	if n <= 334 {
		t.Fatalf("%d requests: the listing never started over", n)
	}
	counts := r.sim.SendStatusCounts(r.ids.BigEmailEventID, r.ids.BigEmailTypeID)
	for _, e := range api.SendStatuses {
		r.Contains(fmt.Sprintf("%-15s %7s", e.Label, ui.Thousands(counts[e.Value])))
	}
	r.Golden("big_loaded")
	r.Press("f", "f", "f", "f")
	r.Contains(fmt.Sprintf("showing %s of 100,000", ui.Thousands(counts[api.SendFailed])))
}

// TestStreamingShowsProgress drives the send-status screen directly with
// pages, as they arrive in the background: the first page shows at once
// with the count of the whole.
func TestStreamingShowsProgress(t *testing.T) {
	client, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	sent := testNow.Add(-time.Hour)
	et := api.EmailType{EmailTypeID: "t1", Name: "Launch invitation", Status: api.EmailTypeSent, TriggerDate: &sent}
	s := newSendStatus(ctx, client, options{now: func() time.Time { return testNow }, local: time.UTC}, "e1", "Launch", et)
	s.SetSize(100, 26)
	_ = s.Init() // not run: pages are fed by hand
	page := func(from, n int) ui.Page[api.EmailSendRecord] {
		m := ui.Page[api.EmailSendRecord]{Total: 100_000}
		for i := from; i < from+n; i++ {
			r := api.EmailSendRecord{Email: fmt.Sprintf("p%d@example.org", i), Name: fmt.Sprintf("Person %d", i), Status: api.SendDelivered, SentDate: &sent}
			if i%10 == 0 {
				r.Status, r.FailureReason = api.SendFailed, api.FailureBounced
			}
			m.Items = append(m.Items, r)
		}
		return m
	}
	s.onPage(page(0, 300))
	v := s.View()
	for _, want := range []string{"loading 300 of 100,000…", "(300 of 100,000 loaded)", "Person 1 ", "300 of 100,000 loaded"} {
		if !strings.Contains(v, want) {
			t.Fatalf("first page: view lacks %q:\n%s", want, v)
		}
	}
	for p := 1; p < 41; p++ {
		s.onPage(page(p*300, 300))
	}
	if v := s.View(); !strings.Contains(v, "loading 12,300 of 100,000…") {
		t.Fatalf("after 41 pages:\n%s", v)
	}
	// A page the screen's stream did not ask for (a stale answer) is dropped.
	s.Update(page(50_000, 300))
	if len(s.recs) != 12_300 {
		t.Fatalf("stale page taken: %d", len(s.recs))
	}
	// An error keeps what arrived and says where it stopped.
	s.onPage(ui.Page[api.EmailSendRecord]{Err: fmt.Errorf("boom")})
	if v := s.View(); !strings.Contains(v, "ERROR: stopped at 12,300 of 100,000") {
		t.Fatalf("after an error:\n%s", v)
	}

	// A reload after a whole load keeps the rows on screen until the new
	// answer is whole, and keeps them when it fails.
	_ = s.reload()
	s.onPage(ui.Page[api.EmailSendRecord]{Items: page(0, 500).Items, Total: 500, Done: true})
	_ = s.reload()
	s.onPage(ui.Page[api.EmailSendRecord]{Items: page(0, 200).Items, Total: 900})
	if v := s.View(); len(s.recs) != 500 || !strings.Contains(v, "500 recipients") || !strings.Contains(v, "refreshing 200 of 900…") {
		t.Fatalf("while reloading (%d rows):\n%s", len(s.recs), v)
	}
	s.onPage(ui.Page[api.EmailSendRecord]{Err: fmt.Errorf("boom")})
	if v := s.View(); len(s.recs) != 500 || !strings.Contains(v, "ERROR: reload failed") {
		t.Fatalf("after a failed reload (%d rows):\n%s", len(s.recs), v)
	}
	_ = s.reload()
	s.onPage(ui.Page[api.EmailSendRecord]{Items: page(0, 300).Items, Total: 300, Done: true})
	if v := s.View(); len(s.recs) != 300 || !strings.Contains(v, "300 recipients") {
		t.Fatalf("after a whole reload (%d rows):\n%s", len(s.recs), v)
	}
}

func TestSmallTerminals(t *testing.T) {
	r := newRig(t, 80, 24, pastEvent, nil)
	r.open("1 day")
	r.Contains("Recipients by status", "Failed, by reason")
	r.Golden("send_status_80x24")
	r.Send(teaSize(60, 20))
	r.Contains("Recipients by status", "f status: all") // room for one chart only
	r.Lacks("Failed, by reason")
	r.Golden("send_status_60x20")
	r.Press("v")
	r.Contains("v chart")
	r.Lacks("Recipients by status")
	r.Send(teaSize(60, 40))
	r.Press("v")
	r.Contains("Recipients by status", "Failed, by reason")
}

func TestRelativeAndSlug(t *testing.T) {
	at := func(d time.Duration) *time.Time { v := testNow.Add(d); return &v }
	for d, want := range map[time.Duration]string{
		0: "now", 3 * 24 * time.Hour: "in 3 days", -2 * time.Hour: "2 hours ago", 90 * time.Minute: "in 1 hour",
		-45 * time.Minute: "45 minutes ago", 100 * 24 * time.Hour: "in 3 months", -800 * 24 * time.Hour: "2 years ago",
	} {
		if got := relative(at(d), testNow); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
	if relative(nil, testNow) != "-" {
		t.Error("nil time")
	}
	for in, want := range map[string]string{"Reminder: 1 day before": "reminder-1-day-before", "São Paulo Day!": "s-o-paulo-day", "": "email"} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every column of an export is formula-safe: a server may send any word.
func TestExportNeutralisesFormulasInEveryColumn(t *testing.T) {
	recs := []sendRec{{name: "=HYPERLINK(1)", email: "+ana@example.org", reason: otherReason,
		unlisted: &unlistedWords{status: "@SUM(A1)", reason: "-1+cmd"}}}
	var out strings.Builder
	if err := writeCSV(&out, recs, []int32{0}); err != nil {
		t.Fatal(err)
	}
	want := "email,name,status,failure_reason,sent_utc\n'+ana@example.org,'=HYPERLINK(1),'@SUM(A1),'-1+cmd,\n"
	if out.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", out.String(), want)
	}
}

// Every key of the send status means one thing, and the failure-reason
// filter is F (b opens exhibitors elsewhere).
func TestSendStatusKeysMeanOneThing(t *testing.T) {
	client, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"))
	if err != nil {
		t.Fatal(err)
	}
	keys := ui.DefaultGlobalKeys()
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: keys}
	s := newSendStatus(ctx, client, options{now: func() time.Time { return testNow }, local: time.UTC}, "e1", "Launch",
		api.EmailType{EmailTypeID: "t1", Name: "Invitation"})
	s.statusFilter = 1 // esc clears the filters now: Back is an action too
	as := s.actions()
	viewtest.OneMeaning(t, keys, append(as.FullHelp(), s.table.Keys.Navigation()...)...)
	for _, want := range []key.Binding{keys.StatusFilter, keys.ReasonFilter, keys.Chart, keys.Save, keys.Refresh, keys.Back} {
		if !slices.ContainsFunc(as, func(a ui.Action) bool { return slices.Equal(a.Key.Keys(), want.Keys()) }) {
			t.Errorf("no action on %v", want.Keys())
		}
	}
	if k := keys.ReasonFilter.Keys(); !slices.Equal(k, []string{"F"}) {
		t.Errorf("reason filter on %v, want F", k)
	}
	s.Update(uitest.Key("b"))
	if s.reasonFilter != 0 {
		t.Error("b changed the reason filter")
	}
	s.Update(uitest.Key("F"))
	if s.reasonFilter != 1 {
		t.Error("F did not cycle the reason filter")
	}
}

func TestTypesKeysMeanOneThing(t *testing.T) {
	client, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"))
	if err != nil {
		t.Fatal(err)
	}
	keys := ui.DefaultGlobalKeys()
	s := New(&ui.Context{Theme: ui.NewTheme(true, true), Keys: keys}, views.Env{Client: client}, "e1", "Launch")
	var bindings []key.Binding
	for _, group := range s.FullHelp() {
		bindings = append(bindings, group...)
	}
	viewtest.OneMeaning(t, keys, bindings...)
}

// While a CSV is being written, quitting asks first and w says to wait.
func TestExportInFlight(t *testing.T) {
	client, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	s := newSendStatus(ctx, client, options{now: func() time.Time { return testNow }, local: time.UTC}, "e1", "Launch",
		api.EmailType{EmailTypeID: "t1", Name: "Invitation"})
	s.SetSize(100, 30)
	if s.ConfirmQuit() != "" || s.notExporting() != "" {
		t.Fatal("busy before any export")
	}
	if cmd := s.startExport(filepath.Join(t.TempDir(), "out.csv")); cmd == nil {
		t.Fatal("no export started")
	}
	if s.ConfirmQuit() == "" {
		t.Error("quitting does not ask while the export is written")
	}
	_, cmd := s.Update(uitest.Key("w"))
	if msg, ok := cmd().(ui.ToastMsg); !ok || !strings.Contains(msg.Text, "still being written") {
		t.Errorf("w during an export: %#v", msg)
	}
	if s.Dialog.Open() {
		t.Error("a second export form opened")
	}
}

// Filters that leave nobody say so, not that nobody received the email.
func TestAnEmptyFilterSaysItIsTheFilter(t *testing.T) {
	r := newRig(t, 100, 34, pastEvent, nil)
	r.open("1 day")
	r.Press("f", "f", "f", "F") // delivered, and failed as bounced: nobody
	r.Contains("No recipient is delivered and failed as bounced (f or F changes the filters, esc clears them).")
	r.Lacks("Nobody received this email")
}

// At 140 columns the status reads whole ("Missed sc…" before).
func TestWideStatusReadsWhole(t *testing.T) {
	r := newRig(t, 140, 34, pastEvent, nil)
	r.open("1 day")
	r.Press("f", "f", "f", "f", "f") // missed schedule
	r.Contains("f status: Missed schedule")
	r.Lacks("Missed sc…")
	if !strings.Contains(strings.Split(r.View(), "row 1 of")[0], "Missed schedule          ") {
		t.Fatalf("no row shows the whole status:\n%s", r.View())
	}
}

// A recipient's row and export line come from what the screen keeps of
// the record: labels on screen, the API's words in the file, and words the
// spec does not list as received in both.
func TestSendRecordDrawsAndExportsAsReceived(t *testing.T) {
	s := &SendStatusScreen{opts: options{local: time.UTC}, times: map[int64]string{}}
	sent := time.Date(2026, 11, 20, 9, 30, 42, 0, time.UTC)
	recs := []sendRec{
		s.convert(api.EmailSendRecord{Email: "Ana@Example.org", Name: "Ana", Status: api.SendFailed, FailureReason: api.FailureBounced, SentDate: &sent}),
		s.convert(api.EmailSendRecord{Email: "bo@example.org", Status: "queued-elsewhere", FailureReason: "mailbox-on-mars"}),
	}
	for i, want := range [][]string{
		{"Ana", "Ana@Example.org", "Failed", "Bounced", "2026-11-20 09:30"},
		{"-", "bo@example.org", "queued-elsewhere", "mailbox-on-mars", "-"},
	} {
		if got := s.cells(recs[i]); !slices.Equal(got, want) {
			t.Errorf("row %d: %q, want %q", i, got, want)
		}
	}
	var out strings.Builder
	if err := writeCSV(&out, recs, []int32{0, 1}); err != nil {
		t.Fatal(err)
	}
	want := "email,name,status,failure_reason,sent_utc\n" +
		"Ana@Example.org,Ana,failed,bounced,2026-11-20T09:30:42Z\n" +
		"bo@example.org,,queued-elsewhere,mailbox-on-mars,\n"
	if out.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", out.String(), want)
	}
}

// An export writes what is shown as it is shown: the rows the search
// leaves, in the table's order, in a file named as filtered.
func TestExportIsWhatIsShownInItsOrder(t *testing.T) {
	r := newRig(t, 100, 34, pastEvent, nil)
	r.open("1 day")
	r.Press("s") // by name
	r.Press("/")
	r.Type("an")
	r.Press("enter")
	r.Contains("showing")
	r.Press("w")
	r.Contains("send-status-filtered.csv")
	r.Press("enter")
	r.Contains("Exported")
	lines := readCSV(t, filepath.Join(r.dir, "intro-to-kubernetes-webinar-reminder-1-day-before-send-status-filtered.csv"))[1:]
	if len(lines) < 2 {
		t.Fatalf("%d lines", len(lines))
	}
	shown := func(l []string) string { return cmp.Or(strings.ToLower(l[1]), "-") } // the name as the table sorts it
	for i, l := range lines {
		if !strings.Contains(strings.ToLower(l[0]+l[1]), "an") {
			t.Fatalf("line %d is not shown: %v", i, l)
		}
		if i > 0 && shown(lines[i-1]) > shown(l) {
			t.Fatalf("lines %d and %d are not in the table's order: %v, %v", i-1, i, lines[i-1], l)
		}
	}
}
