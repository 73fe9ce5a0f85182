package emails

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views/viewtest"
)

// Run: go test ./views/emails -run '^$' -bench . -benchtime 3x
//
// The big email's 100,000 send records come from the simulator over HTTP,
// through the client's pager, into the send-status screen, exactly as the
// console loads them (pages of 300), minus the Bubble Tea event loop.

type bigList struct {
	client *api.Client
	et     api.EmailType
	ids    sim.Fixtures
}

func newBigList(b *testing.B) *bigList {
	b.Helper()
	srv := viewtest.NewServer(b)
	client, ids := srv.Client(b, sim.DemoToken), srv.Fixtures()
	var et api.EmailType
	for t, err := range client.Emails.Types(context.Background(), ids.BigEmailEventID, api.ListEmailTypesOptions{}) {
		if err != nil {
			b.Fatal(err)
		}
		if t.EmailTypeID == ids.BigEmailTypeID {
			et = t
		}
	}
	// Warm the simulator's position cache, so it is not counted below.
	if _, err := client.Emails.SendStatusPage(context.Background(), ids.BigEmailEventID, ids.BigEmailTypeID,
		api.ListSendStatusOptions{PageSize: 1}, ""); err != nil {
		b.Fatal(err)
	}
	return &bigList{client: client, et: et, ids: ids}
}

// load fills a new send-status screen with every record.
func (l *bigList) load(b *testing.B) *SendStatusScreen {
	b.Helper()
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	s := newSendStatus(ctx, l.client, options{now: func() time.Time { return testNow }, local: time.UTC},
		l.ids.BigEmailEventID, "Product Launch Live", l.et)
	s.SetSize(120, 40)
	_ = s.Init() // not run: the pages are fetched here, as the stream would
	pager := l.client.Emails.SendStatusPager(l.ids.BigEmailEventID, l.et.EmailTypeID,
		api.ListSendStatusOptions{PageSize: sendPageSize})
	for !pager.Done() {
		items, err := pager.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		s.onPage(ui.Page[api.EmailSendRecord]{Items: items, Done: pager.Done(), Total: pager.Total()})
	}
	if len(s.recs) != sim.BigEmailRecipients || s.table.Len() != sim.BigEmailRecipients {
		b.Fatalf("loaded %d records, %d rows", len(s.recs), s.table.Len())
	}
	return s
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkSendStatusLoad100k loads 100,000 records from the simulator
// into the screen (HTTP, JSON, pager, rows, chart counts). It reports the
// time per load and the heap the loaded screen holds (rows, table index,
// pager's seen set).
func BenchmarkSendStatusLoad100k(b *testing.B) {
	l := newBigList(b)
	var held uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		before := heapInUse()
		b.StartTimer()
		s := l.load(b)
		b.StopTimer()
		held = heapInUse() - before
		runtime.KeepAlive(s)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/load")
	b.ReportMetric(float64(held)/(1<<20), "MB-held")
	b.ReportMetric(float64(held)/sim.BigEmailRecipients, "B-held/record")
}

// BenchmarkSendStatusFilter100k measures, with 100,000 records loaded: one
// press of f (status filter: the matching rows are handed to the table),
// one character typed into the / search, and one frame.
func BenchmarkSendStatusFilter100k(b *testing.B) {
	l := newBigList(b)
	s := l.load(b)
	b.Run("status-key", func(b *testing.B) {
		f := uitest.Key("f")
		b.ReportAllocs()
		for b.Loop() {
			s.Update(f) // all -> scheduled -> ... -> missed_schedule -> all
		}
	})
	s.statusFilter = 0
	s.refilter()
	b.Run("search-char", func(b *testing.B) {
		s.Update(uitest.Key("/"))
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			s.table.SetFilter("")
			b.StartTimer()
			s.Update(uitest.Key("a")) // a full scan of 100,000 rows
		}
		s.Update(uitest.Key("esc"))
	})
	b.Run("view", func(b *testing.B) {
		down := uitest.Key("down")
		b.ReportAllocs()
		for b.Loop() {
			s.Update(down)
			_ = s.View()
		}
	})
}
