package checkin

import (
	"context"
	"fmt"
	"io"
	goruntime "runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
)

// These benchmarks measure the desk against a bare Bubble Tea program in
// the same run, as ratios (the targets), in CPU time, which a busy
// machine inflates less than the wall clock:
//
//	go test ./views/checkin -run '^$' -bench 'VsBare' -count 5

// bareDesk is the anchor: a bare program with a text input whose Enter
// looks the typed text up in a map (the same 20,000 emails as the roster)
// and shows the answer in a line.
type bareDesk struct {
	input  textinput.Model
	people map[string]string
	answer string
}

func newBareDesk(people map[string]string) *bareDesk {
	in := textinput.New()
	in.Prompt = "Scan > "
	in.Focus()
	return &bareDesk{input: in, people: people}
}

func (m *bareDesk) Init() tea.Cmd { return nil }

func (m *bareDesk) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.Code == tea.KeyEnter {
		email := strings.ToLower(strings.TrimSpace(m.input.Value()))
		if name, ok := m.people[email]; ok {
			m.answer = "CHECKED IN " + name
		} else {
			m.answer = "NOT REGISTERED " + email
		}
		m.input.Reset()
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

func (m *bareDesk) View() tea.View {
	return tea.NewView("Desk ready\n" + m.input.View() + "\n" + m.answer)
}

// BenchmarkEnterToAnswerVsBare times, alternately, the desk's Enter with
// the roster of 20,000 answering (Update and the frame, as
// BenchmarkEnterToAnswer) and the bare program's Enter with its map lookup
// (Update and its frame), each in the CPU time of the UI's thread, and
// reports both p99s and their ratio (target: at most 1.5), and the
// medians' for scale.
func BenchmarkEnterToAnswerVsBare(b *testing.B) {
	r := newRig(b, func(c *rigConfig) { c.checkIn = instantCheckIn })
	r.settle("ONLINE", "roster 20,000")
	regs := r.sim.RegistrantEmails(r.ids.LargeConferenceEventID)
	people := make(map[string]string, len(regs))
	for _, e := range regs {
		people[strings.ToLower(e)] = e
	}
	d, bare := r.desk(), newBareDesk(people)
	bare.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	desk, anchor := make([]int64, 0, b.N), make([]int64, 0, b.N)
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	b.ResetTimer()
	for i := range b.N {
		email := regs[i%len(regs)]
		if i%10 == 9 {
			email = fmt.Sprintf("stranger%d@example.org", i)
		}
		d.input.SetValue(email)
		c := threadCPU()
		_, _ = d.Update(enter)
		_ = d.View()
		desk = append(desk, threadCPU()-c)
		if e := d.recent.at(0); e.email != email || e.expect == scanqueue.ExpectNothing {
			b.Fatalf("no answer from the roster: %+v", e)
		}
		bare.input.SetValue(email)
		c = threadCPU()
		bare.Update(enter)
		_ = bare.View()
		anchor = append(anchor, threadCPU()-c)
	}
	b.StopTimer()
	reportRatio(b, "p50", desk, anchor, 50)
	reportRatio(b, "p99", desk, anchor, 99)
}

// reportRatio reports the pct-th percentiles of the desk's and the
// anchor's CPU times and their ratio.
func reportRatio(b *testing.B, name string, desk, anchor []int64, pct int) {
	at := func(s []int64) float64 {
		slices.Sort(s)
		return float64(s[(len(s)-1)*pct/100])
	}
	dp, ap := at(desk), at(anchor)
	b.ReportMetric(dp/1000, "desk-"+name+"-cpu-us")
	b.ReportMetric(ap/1000, "bare-"+name+"-cpu-us")
	if ap > 0 {
		b.ReportMetric(dp/ap, name+"-ratio")
	}
}

// frames passes a program's model through, and closes seen[k] at the first
// frame that shows wants[k] (and every earlier one).
type frames struct {
	m     uitest.Model
	wants []string
	seen  []chan struct{}
	k     int
	last  atomic.Value // the latest frame, for a failure's message
}

func (f *frames) Init() tea.Cmd { return f.m.Init() }

func (f *frames) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := f.m.Update(msg)
	if mm, ok := m.(uitest.Model); ok {
		f.m = mm
	}
	return f, cmd
}

func (f *frames) View() tea.View {
	v := f.m.View()
	f.last.Store(v.Content)
	for f.k < len(f.wants) && strings.Contains(v.Content, f.wants[f.k]) {
		close(f.seen[f.k])
		f.k++
	}
	return v
}

// runToFrames runs m as a Bubble Tea program (no terminal: no input,
// output discarded, 100x30) until a frame shows each of wants in turn, and
// returns the process's CPU time spent until each; the program is ended
// before it returns.
func runToFrames(b *testing.B, m uitest.Model, wants ...string) []int64 {
	f := &frames{m: m, wants: wants}
	for range wants {
		f.seen = append(f.seen, make(chan struct{}))
	}
	ran := make(chan error, 1)
	c := processCPU()
	p := tea.NewProgram(f, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(100, 30), tea.WithoutSignalHandler())
	go func() { _, err := p.Run(); ran <- err }()
	var took []int64
	for k, want := range wants {
		select {
		case <-f.seen[k]:
			took = append(took, processCPU()-c)
		case err := <-ran:
			b.Fatalf("the program ended before showing %q: %v", want, err)
		case <-time.After(20 * time.Second):
			b.Fatalf("no frame showed %q; the last:\n%s", want, ansi.Strip(fmt.Sprint(f.last.Load())))
		}
	}
	p.Quit()
	if err := <-ran; err != nil {
		b.Fatal(err)
	}
	return took
}

// BenchmarkOpenVsBare times, alternately, the console opening on a desk
// whose roster of 20,000 is cached and a bare program (bareDesk) to its
// first frame, both as Bubble Tea programs, in the process's CPU time (the
// desk's background work included), and reports the medians and their
// ratio (target: at most 2): "median" to the desk's first frame (its scan
// input drawn), "ready-median" to the first frame that shows the roster
// in (the desk answers from it).
// The desk's server is unreachable, so the in-process simulator's work is
// not counted; the desk opens on its cache as it does offline.
func BenchmarkOpenVsBare(b *testing.B) {
	mk := func() *api.Client {
		c, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"), api.WithToken(sim.DemoToken),
			api.WithRateLimit(0, 0), api.WithClock(testClock), api.WithRetry(api.RetryPolicy{MaxAttempts: 1}),
			api.WithSleep(func(context.Context, time.Duration) error { return nil }))
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	client, sender := mk(), mk()
	seedRoster(b, b.TempDir()) // the event's id
	ev := seeded.eventID
	var desk, ready, anchor []int64
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		seedRoster(b, dir)
		var rt *runtime
		useHooks(b, dir, &testHooks{
			onRuntime: func(r *runtime) { rt = r },
			checkIn:   instantCheckIn,
			sender: func(o *scanqueue.SenderOptions) {
				o.Jitter = func() float64 { return 0 }
				o.Sleep = untilWoken
			},
			wait:        untilWoken,
			walkinSleep: untilWoken,
		})
		env := views.Env{Client: client, JournalDir: dir, Now: testClock, Local: time.UTC,
			Desks: views.Desks{SenderClient: sender, Desk: "evdesk bench"}}
		app := ui.NewApp(&ui.Context{Theme: ui.NewTheme(true, true), Profile: "bench"},
			[]ui.Section{{Name: "Check-in", New: func(c *ui.Context) ui.Screen { return NewPicker(c, env) }}},
			ui.WithInitialScreen(func(c *ui.Context) ui.Screen { return NewDesk(c, env, ev, "Observability Summit APAC", "", "") }))
		b.StartTimer()
		// "All desks 0 of 20,000": the roster is in.
		took := runToFrames(b, app, "Scan >", "of 20,000")
		desk, ready = append(desk, took[0]), append(ready, took[1])
		anchor = append(anchor, runToFrames(b, newBareDesk(nil), "Desk ready")[0])
		b.StopTimer()
		if rt != nil {
			rt.shutdown()
			<-rt.down
		}
		b.StartTimer()
	}
	reportRatio(b, "median", desk, anchor, 50)
	reportRatio(b, "ready-median", ready, anchor, 50)
}
