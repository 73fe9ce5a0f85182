package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// listener is a running `evdesk webhooks listen`: its address, and what it
// printed, line by line.
type listener struct {
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:PORT/
	stdout *lines
	stderr *lines
}

// lines collects a stream's lines and lets a test wait for one.
type lines struct {
	mu    sync.Mutex
	all   []string
	added chan struct{} // closed and replaced on each new line
}

func newLines(r io.Reader) *lines {
	l := &lines{added: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			l.mu.Lock()
			l.all = append(l.all, sc.Text())
			close(l.added)
			l.added = make(chan struct{})
			l.mu.Unlock()
		}
	}()
	return l
}

// wait returns the first line holding want, waiting as lines come (at
// most a minute: a failed test's cap, not a timing).
func (l *lines) wait(t *testing.T, want string) string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		l.mu.Lock()
		for _, s := range l.all {
			if strings.Contains(s, want) {
				l.mu.Unlock()
				return s
			}
		}
		added := l.added
		l.mu.Unlock()
		select {
		case <-added:
		case <-deadline:
			t.Fatalf("no line with %q in:\n%s", want, l.text())
		}
	}
}

func (l *lines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "\n")
}

// startListener runs the binary's listener on a free loopback port.
func startListener(t *testing.T, env []string, args ...string) *listener {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"webhooks", "listen", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	l := &listener{cmd: cmd, stdout: newLines(stdout), stderr: newLines(stderr)}
	line := l.stderr.wait(t, "listening for webhook deliveries on ")
	l.url = strings.Fields(strings.SplitAfter(line, "deliveries on ")[1])[0]
	return l
}

// stop interrupts the listener and returns its exit status and peak memory
// (its own high-water mark, read while it runs: see peakRSS).
func (l *listener) stop(t *testing.T) (int, int64) {
	t.Helper()
	rss, known := peakRSS(l.cmd.Process.Pid)
	_ = l.cmd.Process.Signal(syscall.SIGINT)
	_ = l.cmd.Wait()
	if ru, ok := l.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && !known {
		rss = ru.Maxrss * 1024
	}
	return l.cmd.ProcessState.ExitCode(), rss
}

// fire asks a simulator to deliver events now.
func fire(t *testing.T, simURL, query string) []sim.DeliveryResult {
	t.Helper()
	status, res, err := sim.Fire(simURL, query)
	if err != nil || status != http.StatusOK {
		t.Fatalf("fire: %d %v", status, err)
	}
	return res
}

// TestRecordingDeliveredToAListenerBecomesATranscript: the simulator
// validates a running listener, delivers session.recording_completed, the
// listener prints it typed, keeps it and writes its transcript as SRT; a
// replay is refused; the console, started afterwards, lists the recording
// with its SRT and shows its transcript on enter.
func TestRecordingDeliveredToAListenerBecomesATranscript(t *testing.T) {
	t.Parallel()
	const secret = "e2e-webhook-secret"
	s := sim.New(sim.Options{NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	env := append(isolatedEnv(t), config.EnvBaseURL+"="+srv.URL+"/v2", config.EnvToken+"="+sim.DemoToken,
		config.EnvAIKey+"="+sim.DemoAIKey, config.EnvAISecret+"="+sim.DemoAISecret, config.EnvWebhookSecret+"="+secret)
	l := startListener(t, env, "--transcribe", "-o", "json")
	s.DeliverWebhooks(sim.WebhookOptions{URL: l.url + "hooks/evdesk", Secret: secret})

	res := fire(t, srv.URL, "?event=session.recording_completed")
	if len(res) != 1 || res[0].Status != http.StatusOK {
		t.Fatalf("delivery: %+v\nstderr:\n%s", res, l.stderr.text())
	}
	l.stderr.wait(t, "answered the endpoint URL validation challenge")
	var ev struct {
		Event  string            `json:"event"`
		Named  bool              `json:"named"`
		Fields map[string]string `json:"fields"`
		Body   json.RawMessage   `json:"body"`
	}
	if err := json.Unmarshal([]byte(l.stdout.wait(t, `"event":"session.recording_completed"`)), &ev); err != nil ||
		!ev.Named || ev.Fields["external_storage_url"] != sim.SampleKeynoteURL || !json.Valid(ev.Body) {
		t.Fatalf("printed %+v %v", ev, err)
	}
	done := l.stderr.wait(t, "transcript of "+sim.SampleKeynoteURL+" written to ")
	srtPath := strings.TrimSpace(strings.SplitAfter(done, "written to ")[1])
	srt, err := os.ReadFile(srtPath)
	if err != nil || !strings.HasPrefix(string(srt), "1\n00:00:00,600 --> ") || !strings.Contains(string(srt), "Alex Morgan: Good morning") {
		t.Fatalf("SRT %s: %v\n%s", srtPath, err, srt)
	}
	if !strings.HasPrefix(srtPath, envValue(env, "XDG_STATE_HOME")) {
		t.Errorf("the SRT is not in the default spool: %s", srtPath)
	}

	if res := fire(t, srv.URL, "?replay=1"); len(res) != 1 || res[0].Status != http.StatusConflict {
		t.Errorf("replay: %+v, want 409", res)
	}
	l.stderr.wait(t, "refused 409")

	// The console lists what the listener kept, and transcribes it again.
	tm := startTermEnv(t, 100, 30, env)
	tm.waitText("63 loaded")
	tm.keys("BTab") // Transcribe is the last section
	tm.waitText("h for the recordings webhooks brought")
	tm.keys("h")
	tm.waitText("1 recording", "yes", "keynote-welcome.mp3")
	tm.keys("Enter")
	tm.waitText("Good morning, everyone", "SRT kept in")
	tm.quitCleanly()

	if code, _ := l.stop(t); code != 0 && code != 3 {
		t.Errorf("listener exit %d", code)
	}
}

// TestSimDeliversToTheListenerItPrints: `evdesk sim --webhook-url` (a
// process) validates and delivers to `evdesk webhooks listen` (another),
// which forwards each event to a local service; the simulator prints the
// variables the listener reads.
func TestSimDeliversToTheListenerItPrints(t *testing.T) {
	t.Parallel()
	env := append(isolatedEnv(t), config.EnvWebhookSecret+"=two-processes")
	forwarded := make(chan string, 64)
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		forwarded <- r.Header.Get("x-zm-signature") + " " + string(b)
	}))
	defer svc.Close()
	l := startListener(t, env, "--forward-to", svc.URL+"/local")
	vars, _ := startSimWith(t, "--webhook-url", l.url+"x", "--webhook-secret", "two-processes", "--webhook-every", "0")
	base := vars[config.EnvBaseURL]
	if !strings.HasPrefix(vars[config.EnvChangelogURL], "http://") || vars[config.EnvWebhookSecret] != "two-processes" {
		t.Fatalf("printed %v", vars)
	}
	res := fire(t, strings.TrimSuffix(base, "/v2"), "")
	for _, r := range res {
		if r.Status != http.StatusOK {
			t.Errorf("%s: %+v", r.Event, r)
		}
	}
	l.stdout.wait(t, "meeting.participant_data  vendor_thin_client_plugin_version=6.2.1  rc_reason=network")
	l.stdout.wait(t, "meeting.participant_phone_callout_failed  (new event)")
	l.stdout.wait(t, "session.recording_completed  external_storage_url=https://media.evdesk.example/")
	for range res { // each went on to the local service, signature and all
		if got := <-forwarded; !strings.HasPrefix(got, "v0=") || !strings.Contains(got, `"event":`) {
			t.Errorf("forwarded %q", got)
		}
	}
	spooled, _ := filepath.Glob(filepath.Join(envValue(env, "XDG_STATE_HOME"), "evdesk", "webhooks", "default", "*.json"))
	if len(spooled) != 1 {
		t.Errorf("spooled %v, want the one recording", spooled)
	}
}
