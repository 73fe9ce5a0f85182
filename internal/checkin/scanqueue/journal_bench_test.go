package scanqueue

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// writeLongJournal writes the journal that reruns of `evdesk checkin EVENT
// LIST` leave: a header, people scans checked in, then lines "already"
// scans of the same people again and again, lines in all.
func writeLongJournal(tb testing.TB, dir string, people, lines int) string {
	tb.Helper()
	path := filepath.Join(dir, FileName(testEvent, ""))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	at := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	_ = enc.Encode(record{Type: recHeader, Version: formatVersion, Event: testEvent})
	for i := 1; i < lines; i++ {
		email := fmt.Sprintf("attendee-%05d@example.org", (i-1)%people)
		rec := record{Type: recScan, ID: fmt.Sprint(i), Email: email, Source: "list.csv", At: at, Outcome: CheckedIn, AckedAt: &at}
		if i > people {
			rec.Outcome, rec.Message = Already, "already checked in at this desk"
		}
		_ = enc.Encode(rec)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkOpenMillionLineJournal opens a journal of 1,000,000 lines (3,028
// people, the rest "already" lines of reruns): the first open folds it.
//
// Besides the wall time it reports the CPU time of the opens (cpu-ms/op,
// which a busy machine inflates less) and the most heap in use while
// opening (peak-heap-MB).
func BenchmarkOpenMillionLineJournal(b *testing.B) {
	dir := b.TempDir()
	var cpu time.Duration
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		writeLongJournal(b, dir, 3028, 1_000_000)
		runtime.GC()
		stop := watchHeap(&peak)
		before := cpuTime()
		b.StartTimer()
		j, err := Open(dir, testEvent, "")
		b.StopTimer()
		cpu += cpuTime() - before
		stop()
		if err != nil {
			b.Fatal(err)
		}
		if c := j.Counts(); c.Total() != 999_999 || len(lines(b, j.Path())) != 3029 {
			b.Fatalf("counts %+v", c)
		}
		j.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// watchHeap samples the heap in use until stop is called, keeping the
// largest figure in peak.
func watchHeap(peak *uint64) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-finished }
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
