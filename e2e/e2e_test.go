package e2e

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// binPath is the evdesk binary, built once for all the tests.
var binPath string

func TestMain(m *testing.M) {
	if os.Getenv(spawnerEnv) == "1" {
		serveSpawns()
		os.Exit(0)
	}
	// The tests wait on terminals and processes far more than they
	// compute: unless told otherwise, run four to a core.
	flag.Parse()
	told := false
	flag.Visit(func(f *flag.Flag) { told = told || f.Name == "test.parallel" })
	if !told {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	sp, err := startSpawner() // first, while this process is small
	if err != nil {
		fmt.Fprintln(os.Stderr, "start the spawner:", err)
		os.Exit(1)
	}
	theSpawner = sp
	dir, err := os.MkdirTemp("", "evdesk-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "evdesk")
	// go run keeps the linked program in the build cache, so only the
	// first run after a change links it; -exec hands its path to cp,
	// which puts a copy where the tests expect it.
	build := exec.Command("go", "run", "-exec", "cp", "github.com/evdesk/evdesk", binPath)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build evdesk: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	sp.stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// isolatedEnv keeps the binary away from the user's config, state and token.
func isolatedEnv(t *testing.T) []string {
	dir := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "EVDESK_") && !strings.HasPrefix(kv, "XDG_") {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
}

func TestConsoleEndToEnd(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 100, 30, "--demo")
	tm.waitText("DEMO", "63 loaded", "1 All 63")

	tm.keys("/")
	tm.keys("-l", "kub")
	tm.waitText("Intro to Kubernetes Webinar", "Kubernetes Day Lisbon")
	tm.waitGone("Quarterly All-Hands")
	tm.keys("Enter")
	tm.keys("Enter")
	tm.waitText("Overview", "Europe/Lisbon")

	tm.keys("Escape")
	tm.waitText("1 All 63")
	tm.keys("Escape") // clears the filter
	tm.waitText("of 63")

	tm.keys("3")
	tm.waitText("3 Draft 8", "of 8")
	tm.keys("g")
	tm.keys("Enter")
	tm.waitText("DRAFT")
	tm.keys("p")
	tm.waitText("[ Yes ]")
	tm.reply("y", "[ Yes ]")
	tm.waitText("is now published", "UPCOMING")
	tm.keys("Escape")
	tm.waitText("3 Draft 7")

	tm.keys("?")
	tm.waitText("closes this help")
	tm.keys("?")
	tm.waitGone("closes this help")
	tm.quitCleanly()
}

// startSim starts `evdesk sim` and returns its KEY=value lines.
func startSim(t *testing.T) (map[string]string, *exec.Cmd) {
	t.Helper()
	return startSimWith(t)
}

// startSimWith is startSim with more flags.
func startSimWith(t *testing.T, flags ...string) (map[string]string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"sim", "--addr", "127.0.0.1:0"}, flags...)...)
	cmd.Env = isolatedEnv(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	vars := map[string]string{}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# serving") {
			break
		}
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			vars[k] = v
		}
	}
	go func() { // keep reading so the server never blocks on a full pipe
		for sc.Scan() {
		}
	}()
	return vars, cmd
}

func TestSimServesWhatItPrints(t *testing.T) {
	t.Parallel()
	vars, cmd := startSim(t)
	base, token := vars["EVDESK_BASE_URL"], vars["EVDESK_TOKEN"]
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/v2") || token == "" {
		t.Fatalf("printed %v", vars)
	}
	// What the printed curl does.
	req, _ := http.NewRequest("GET", base+"/vendor_events/events?role_type=host", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Events       []json.RawMessage `json:"events"`
		TotalRecords int               `json:"total_records"`
	}
	err = json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || len(page.Events) == 0 {
		t.Fatalf("status %d, %d events, err %v", resp.StatusCode, len(page.Events), err)
	}

	// The CLI reads the same variables.
	env := append(isolatedEnv(t), "EVDESK_BASE_URL="+base, "EVDESK_TOKEN="+token)
	out, err := runCLI(env, "events", "list", "-o", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var listed []map[string]any
	if err := json.Unmarshal(out, &listed); err != nil || len(listed) < 60 {
		t.Fatalf("events list -o json: %d events, %v", len(listed), err)
	}
	id := listed[0]["event_id"].(string)
	out, err = runCLI(env, "events", "get", id)
	if err != nil || !strings.Contains(string(out), id) || !strings.Contains(string(out), "Timezone") {
		t.Fatalf("events get: %v\n%s", err, out)
	}
	out, err = runCLI(env, "events", "list", "--status", "someday")
	if err == nil || !strings.Contains(string(out), "--status") {
		t.Fatalf("bad --status accepted: %s", out)
	}

	// Interrupted, it shuts down cleanly.
	_ = cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sim exit: %v", err)
	}
}

func runCLI(env []string, args ...string) ([]byte, error) {
	cmd := exec.Command(binPath, args...)
	cmd.Env = env
	return cmd.CombinedOutput()
}

func TestConsoleWithoutConfigurationSaysWhatToDo(t *testing.T) {
	t.Parallel()
	out, err := runCLI(isolatedEnv(t), "events", "list")
	if err == nil || !strings.Contains(string(out), "EVDESK_BASE_URL") || !strings.Contains(string(out), "--demo") {
		t.Fatalf("err=%v out=%s", err, out)
	}
	// The revision lines need a build from a plain git clone (Go stamps
	// none in a linked worktree, golang/go#58218): check the ends only.
	out, err = runCLI(isolatedEnv(t), "version")
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if err != nil || !strings.HasPrefix(lines[0], "evdesk ") || len(lines[0]) == len("evdesk ") ||
		!strings.HasPrefix(lines[len(lines)-1], "go: go1.") {
		t.Fatalf("version: %v %s", err, out)
	}
}

// TestLoginEndToEnd logs in with the real binary against `evdesk sim`, the
// test playing the browser: it follows the printed URL to the loopback
// redirect. With no keyring on the machine, the tokens go to the consented
// file store; then the CLI works without EVDESK_TOKEN, and logout ends it.
func TestLoginEndToEnd(t *testing.T) {
	t.Parallel()
	vars, _ := startSim(t)
	env := isolatedEnv(t)
	env = append(env, "DBUS_SESSION_BUS_ADDRESS=", // no keyring: exercise the consented fallback
		"EVDESK_BASE_URL="+vars["EVDESK_BASE_URL"], "EVDESK_AUTH_URL="+vars["EVDESK_AUTH_URL"],
		"EVDESK_CLIENT_ID="+vars["EVDESK_CLIENT_ID"], "EVDESK_CLIENT_SECRET="+vars["EVDESK_CLIENT_SECRET"])
	if vars["EVDESK_AUTH_URL"] == "" || vars["EVDESK_CLIENT_ID"] == "" {
		t.Fatalf("sim printed no OAuth settings: %v", vars)
	}

	loginThroughBrowser(t, env, vars["EVDESK_AUTH_URL"])

	out, err := runCLI(env, "auth", "status")
	if err != nil || !strings.Contains(string(out), "file") {
		t.Fatalf("auth status: %v\n%s", err, out)
	}
	if strings.Contains(string(out), vars["EVDESK_CLIENT_SECRET"]) {
		t.Fatal("auth status shows the client secret")
	}
	out, err = runCLI(env, "events", "list", "--status", "draft")
	if err != nil || !strings.Contains(string(out), "draft") {
		t.Fatalf("events list with the stored login: %v\n%s", err, out)
	}
	if out, err = runCLI(env, "logout"); err != nil {
		t.Fatalf("logout: %v\n%s", err, out)
	}
	if out, err = runCLI(env, "auth", "status"); err == nil {
		t.Fatalf("auth status after logout should fail:\n%s", out)
	}
}

// loginThroughBrowser runs `evdesk login` in env and plays the browser: it
// follows the printed address to the authorization server, which approves
// and redirects to evdesk's loopback listener.
func loginThroughBrowser(t *testing.T, env []string, authURLBase string) {
	t.Helper()
	if out, err := tryLoginThroughBrowser(t, env, authURLBase); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}
}

// tryLoginThroughBrowser is loginThroughBrowser for a login that may fail:
// it returns what the login printed and how it ended.
func tryLoginThroughBrowser(t *testing.T, env []string, authURLBase string) (string, error) {
	t.Helper()
	login := exec.Command(binPath, "login", "--no-browser", "--insecure-storage")
	login.Env = env
	stdin, _ := login.StdinPipe()
	defer stdin.Close()
	stdout, _ := login.StdoutPipe()
	login.Stderr = login.Stdout
	if err := login.Start(); err != nil {
		t.Fatal(err)
	}
	var authURL string
	var transcript strings.Builder
	sc := bufio.NewScanner(stdout)
	for authURL == "" && sc.Scan() {
		line := sc.Text()
		transcript.WriteString(line + "\n")
		if u := strings.TrimSpace(line); strings.HasPrefix(u, authURLBase+"/oauth/authorize") {
			authURL = u
		}
	}
	if authURL == "" {
		t.Fatalf("no authorize URL printed:\n%s", transcript.String())
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for sc.Scan() {
			transcript.WriteString(sc.Text() + "\n")
		}
	}()
	req, _ := http.NewRequest("GET", authURL, nil)
	req.Header.Set("X-Sim-Auto-Approve", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("redirect page answered %d", resp.StatusCode)
	}
	<-done // all of the output read: Wait closes the pipe
	err = login.Wait()
	return transcript.String(), err
}

// TestSimEnvFileRecipe follows the README: the simulator keeps serving in
// the background while another shell loads its variables from the file.
func TestSimEnvFileRecipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	envFile := filepath.Join(dir, "sim.env")
	sim := exec.Command(binPath, "sim", "--addr", "127.0.0.1:0", "--env-file", envFile)
	sim.Env = isolatedEnv(t)
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Process.Kill(); _ = sim.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		if fi, err := os.Stat(envFile); err == nil {
			if fi.Mode().Perm() != 0o600 {
				t.Fatalf("the env file holds secrets: mode %v", fi.Mode().Perm())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the simulator wrote no env file")
		}
		time.Sleep(20 * time.Millisecond)
	}
	script := fmt.Sprintf("set -a; . %s; set +a; %s events list --status draft && env | grep -c '^EVDESK_'", envFile, binPath)
	sh := exec.Command("sh", "-c", script)
	sh.Env = isolatedEnv(t)
	out, err := sh.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "draft") {
		t.Fatalf("the recipe failed: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if n, _ := strconv.Atoi(lines[len(lines)-1]); n < 10 {
		t.Errorf("only %d EVDESK_ variables were loaded", n)
	}
}

// TestNoMouseLeavesTheMouseToTheTerminal reads what the console asks of
// the terminal: mouse reporting on by default, never with --no-mouse.
func TestNoMouseLeavesTheMouseToTheTerminal(t *testing.T) {
	t.Parallel()
	const cellMotion = "\x1b[?1002h" // report clicks, drags and the wheel
	for _, tc := range []struct {
		args  []string
		mouse bool
	}{{[]string{"--demo"}, true}, {[]string{"--demo", "--no-mouse"}, false}} {
		record := filepath.Join(t.TempDir(), "out")
		tm := startTermRecorded(t, 100, 30, isolatedEnv(t), record, tc.args...)
		tm.waitText("63 loaded")
		tm.keys("q")
		if st := tm.exitStatus(); st != "0" {
			t.Fatalf("%v: exit %s", tc.args, st)
		}
		out, err := os.ReadFile(record)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(out), cellMotion); got != tc.mouse {
			t.Errorf("%v: mouse reporting %v, want %v", tc.args, got, tc.mouse)
		}
	}
}
