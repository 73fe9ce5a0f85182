package e2e

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/config"
)

const hostileSecret = "hostile-suite-secret"

// deliver posts body to the listener as the provider would, signed with
// secret at ts (sig "" signs; "-" leaves the header out; anything else is
// sent as the signature). ts "" leaves the timestamp out.
func deliver(t *testing.T, url string, body []byte, ts, sig string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ts != "" {
		req.Header.Set("x-zm-request-timestamp", ts)
	}
	switch sig {
	case "":
		req.Header.Set("x-zm-signature", signV0(hostileSecret, ts, body))
	case "-":
	default:
		req.Header.Set("x-zm-signature", sig)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("delivery: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// signV0 signs as the provider documents it, written here apart from
// evdesk's verifier.
func signV0(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("v0:" + ts + ":"))
	m.Write(body)
	return "v0=" + hex.EncodeToString(m.Sum(nil))
}

func now() string { return strconv.FormatInt(time.Now().Unix(), 10) }

// hostileBodies are deliveries with escape sequences, C1 and bidi controls
// and line breaks in every string: the event name, the change log's new
// fields, and everything else.
func hostileBodies() [][]byte {
	p := hostile.Payload
	bodies := []map[string]any{
		{"event": "meeting.participant_data", "payload": map[string]any{"object": map[string]any{
			"topic": p, "participant": map[string]any{"user_name": p, "vendor_thin_client_plugin_version": p, "rc_reason": p}}}},
		{"event": "session.user_data", "payload": map[string]any{"object": map[string]any{"user": map[string]any{"rc_reason": p}}}},
		{"event": "session.recording_completed", "payload": map[string]any{"object": map[string]any{
			"session_name": p, "external_storage_url": "https://media.example/" + p + ".mp3"}}},
		{"event": "meeting.started" + p, "payload": map[string]any{p: p, "list": []any{p, map[string]any{"k": p}}}},
	}
	var out [][]byte
	for i, b := range bodies {
		b["event_ts"] = i
		raw, _ := json.Marshal(b)
		out = append(out, raw)
	}
	return out
}

// TestHostileDeliveriesNeverReachTheTerminal: escape sequences in every
// string of every delivery are sanitised in the words and in the JSON
// lines; the named events are still typed.
func TestHostileDeliveriesNeverReachTheTerminal(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"table", "json"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			l := startListener(t, append(isolatedEnv(t), config.EnvWebhookSecret+"="+hostileSecret), "-o", format)
			for _, b := range hostileBodies() {
				if status := deliver(t, l.url+"hooks", b, now(), ""); status != http.StatusOK {
					t.Fatalf("%s: %d", b, status)
				}
			}
			l.stdout.wait(t, "meeting.started")
			l.stop(t)
			out := l.stdout.text()
			terminalSafe(t, format+" stdout", []byte(out))
			terminalSafe(t, format+" stderr", []byte(l.stderr.text()))
			for _, seq := range hostile.Sequences {
				if strings.Contains(out, seq) {
					t.Errorf("%s output keeps %q", format, seq)
				}
			}
			if !strings.Contains(out, "rc_reason") || len(strings.Split(strings.TrimSpace(out), "\n")) != 4 {
				t.Errorf("%s: want four events, the named ones typed:\n%s", format, out)
			}
		})
	}
}

// TestListenerRefusesForgedStaleAndReplayedDeliveries: bad or missing
// signatures, missing, malformed or skewed timestamps and replays are
// refused with their status, and said on standard error; nothing of them
// reaches standard output.
func TestListenerRefusesForgedStaleAndReplayedDeliveries(t *testing.T) {
	t.Parallel()
	l := startListener(t, append(isolatedEnv(t), config.EnvWebhookSecret+"="+hostileSecret), "-o", "json")
	body := []byte(`{"event":"session.user_data","payload":{"object":{"rc_reason":"ok"}}}`)
	ts := now()
	old := strconv.FormatInt(time.Now().Add(-10*time.Minute).Unix(), 10)
	future := strconv.FormatInt(time.Now().Add(10*time.Minute).Unix(), 10)
	for _, c := range []struct {
		name, ts, sig string
		status        int
		says          string
	}{
		{"no signature", ts, "-", 401, "no x-zm-signature header"},
		{"another secret", ts, signV0("guess", ts, body), 401, "does not match"},
		{"signature of another body", ts, signV0(hostileSecret, ts, []byte("{}")), 401, "does not match"},
		{"no timestamp", "", signV0(hostileSecret, "", body), 401, "no x-zm-request-timestamp"},
		{"timestamp not a time", "tomorrow", signV0(hostileSecret, "tomorrow", body), 401, "not a time"},
		{"ten minutes old", old, "", 401, "more than 5 minutes"},
		{"ten minutes ahead", future, "", 401, "more than 5 minutes"},
	} {
		if status := deliver(t, l.url, body, c.ts, c.sig); status != c.status {
			t.Errorf("%s: %d, want %d", c.name, status, c.status)
		}
		l.stderr.wait(t, c.says)
	}
	if status := deliver(t, l.url, body, ts, ""); status != http.StatusOK {
		t.Fatalf("genuine: %d", status)
	}
	if status := deliver(t, l.url, body, ts, ""); status != http.StatusConflict {
		t.Errorf("replay: %d, want 409", status)
	}
	l.stderr.wait(t, "a replay")
	l.stop(t)
	if got := len(strings.Split(strings.TrimSpace(l.stdout.text()), "\n")); got != 1 {
		t.Errorf("%d events printed, want the one genuine delivery:\n%s", got, l.stdout.text())
	}
}

// TestListenerSurvivesAHugeBodySlowClientsAndAFlood: a 100 MB body is
// refused without being read (memory stays small), a client that sends
// its request slowly is cut off while others are served, and a flood of
// deliveries is answered 200 or 503 (busy), never by a crash.
func TestListenerSurvivesAHugeBodySlowClientsAndAFlood(t *testing.T) {
	t.Parallel()
	l := startListener(t, append(isolatedEnv(t), config.EnvWebhookSecret+"="+hostileSecret))
	addr := strings.TrimSuffix(strings.TrimPrefix(l.url, "http://"), "/")

	start := time.Now()
	// 100 MB, signed as if genuine: refused at the cap.
	huge := io.MultiReader(strings.NewReader(`{"event":"x","payload":"`), io.LimitReader(zeros{}, 100<<20), strings.NewReader(`"}`))
	req, _ := http.NewRequest(http.MethodPost, l.url, huge)
	req.Header.Set("x-zm-request-timestamp", now())
	req.Header.Set("x-zm-signature", "v0=unverifiable")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("100 MB body: %d, want 413", resp.StatusCode)
		}
	} // else the listener closed the connection mid-upload: refused too
	l.stderr.wait(t, "refused 413")
	t.Logf("huge body refused after %v", time.Since(start).Round(time.Millisecond))

	// Slow clients: one never finishes its headers, one its body.
	var slow []net.Conn
	for _, partial := range []string{
		"POST / HTTP/1.1\r\nHost: x\r\nx-zm-request",
		"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"event\":",
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.Write([]byte(partial)); err != nil {
			t.Fatal(err)
		}
		slow = append(slow, conn)
	}
	// Meanwhile a genuine delivery is served.
	if status := deliver(t, l.url, []byte(`{"event":"during.slow"}`), now(), ""); status != http.StatusOK {
		t.Errorf("a delivery during slow clients: %d", status)
	}
	// The listener cuts the slow ones: the reads end (a minute is a failed
	// test's cap; the listener's own limit is seconds).
	for i, conn := range slow {
		_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
		_, err := io.Copy(io.Discard, conn)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Errorf("slow client %d was never cut off", i)
		}
	}
	t.Logf("slow clients cut after %v", time.Since(start).Round(time.Millisecond))
	// A flood: many deliveries at once, each different.
	const flood = 400
	statuses := make(chan int, flood)
	var wg sync.WaitGroup
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: flood}}
	for i := range flood {
		wg.Go(func() {
			body := []byte(fmt.Sprintf(`{"event":"flood.%d"}`, i))
			req, _ := http.NewRequest(http.MethodPost, l.url, bytes.NewReader(body))
			ts := now()
			req.Header.Set("x-zm-request-timestamp", ts)
			req.Header.Set("x-zm-signature", signV0(hostileSecret, ts, body))
			resp, err := client.Do(req)
			if err != nil {
				statuses <- 0
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			statuses <- resp.StatusCode
		})
	}
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for s := range statuses {
		count[s]++
	}
	if count[http.StatusOK] == 0 || count[http.StatusOK]+count[http.StatusServiceUnavailable] != flood {
		t.Errorf("flood answers %v: want only 200 and 503 (busy)", count)
	}
	t.Logf("flood of %d: %v", flood, count)
	// Still serving, and it stops cleanly. The flood's last handlers may
	// still hold their places a moment after their answers: busy (503)
	// until they let go, then 200.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		status := deliver(t, l.url, []byte(`{"event":"after.flood"}`), now(), "")
		if status == http.StatusOK {
			break
		}
		if status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Errorf("after the flood: %d", status)
			break
		}
	}
	code, rss := l.stop(t)
	if code != 0 && code != 3 {
		t.Errorf("exit %d (a crash?)\n%s", code, l.stderr.text())
	}
	t.Logf("peak RSS %d MB", rss>>20)
	if rss > 96<<20 {
		t.Errorf("peak RSS %d MB: the body is not bounded", rss>>20)
	}
}

// zeros reads as endless 'a's.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
