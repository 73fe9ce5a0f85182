package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The peak memory a test reads must be the binary's own. Linux starts a
// child on its parent's memory (Go's exec uses vfork) and, at the exec,
// counts the parent's peak into the child's ru_maxrss: a test process that
// served a 64 MiB answer, or runs under -race, lends the child its peak.
// So the runs that measure go through a spawner: this test binary started
// once, before any test, in a mode of its own that starts each run and
// reports what it used. It holds no output (the runs write to files), so
// its own peak stays a few megabytes.

const spawnerEnv = "EVDESK_E2E_SPAWNER"

type spawnRequest struct {
	ID             int
	Path           string
	Args, Env      []string
	Stdout, Stderr string // files for the run's output
	Timeout        time.Duration
}

type spawnAnswer struct {
	ID     int
	Err    string // how the run ended, when not with status 0
	Exit   int
	MaxRSS int64 // bytes
	CPU    time.Duration
	Took   time.Duration
}

// serveSpawns is the spawner: a request a line on standard input, an
// answer a line on standard output, runs side by side.
func serveSpawns() {
	var mu sync.Mutex
	out := json.NewEncoder(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var wg sync.WaitGroup
	for sc.Scan() {
		var req spawnRequest
		if json.Unmarshal(sc.Bytes(), &req) != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ans := spawnOne(req)
			mu.Lock()
			_ = out.Encode(ans)
			mu.Unlock()
		}()
	}
	wg.Wait()
}

func spawnOne(req spawnRequest) spawnAnswer {
	ans := spawnAnswer{ID: req.ID}
	stdout, err1 := os.Create(req.Stdout)
	stderr, err2 := os.Create(req.Stderr)
	if err := errors.Join(err1, err2); err != nil {
		ans.Err = err.Error()
		return ans
	}
	defer stdout.Close()
	defer stderr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), req.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, req.Path, req.Args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = req.Env, stdout, stderr
	start := time.Now()
	err := cmd.Run()
	ans.Took = time.Since(start)
	if err != nil {
		ans.Err = err.Error()
	}
	if cmd.ProcessState != nil {
		ans.Exit = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			ans.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
			ans.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return ans
}

// spawner is the test process's side: it sends requests and hands each
// answer to the run that asked.
type spawner struct {
	in      io.WriteCloser
	cmd     *exec.Cmd
	mu      sync.Mutex
	next    int
	waiting map[int]chan spawnAnswer
	dead    chan struct{}
}

var theSpawner *spawner

// startSpawner starts the spawner; TestMain calls it first, while this
// process is small.
func startSpawner() (*spawner, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), spawnerEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &spawner{in: in, cmd: cmd, waiting: map[int]chan spawnAnswer{}, dead: make(chan struct{})}
	go func() {
		defer close(s.dead)
		dec := json.NewDecoder(outPipe)
		for {
			var ans spawnAnswer
			if dec.Decode(&ans) != nil {
				return
			}
			s.mu.Lock()
			ch := s.waiting[ans.ID]
			delete(s.waiting, ans.ID)
			s.mu.Unlock()
			if ch != nil {
				ch <- ans
			}
		}
	}()
	return s, nil
}

func (s *spawner) stop() {
	_ = s.in.Close()
	_ = s.cmd.Wait()
}

// run runs path with args and env through the spawner, its output in dir.
func (s *spawner) run(dir, path string, env []string, timeout time.Duration, args ...string) (ans spawnAnswer, stdout, stderr []byte, err error) {
	s.mu.Lock()
	s.next++
	req := spawnRequest{ID: s.next, Path: path, Args: args, Env: env, Timeout: timeout,
		Stdout: filepath.Join(dir, fmt.Sprintf("run%d.out", s.next)), Stderr: filepath.Join(dir, fmt.Sprintf("run%d.err", s.next))}
	ch := make(chan spawnAnswer, 1)
	s.waiting[req.ID] = ch
	b, _ := json.Marshal(req)
	_, werr := s.in.Write(append(b, '\n'))
	s.mu.Unlock()
	if werr != nil {
		return ans, nil, nil, fmt.Errorf("the spawner is gone: %w", werr)
	}
	select {
	case ans = <-ch:
	case <-s.dead:
		return ans, nil, nil, errors.New("the spawner is gone")
	}
	stdout, err1 := os.ReadFile(req.Stdout)
	stderr, err2 := os.ReadFile(req.Stderr)
	return ans, stdout, stderr, errors.Join(err1, err2)
}

// peakRSS is a running process's own peak memory (VmHWM: its address
// space's high-water mark since its exec, not its parent's); known is false
// where /proc does not tell. A process started straight from the test
// process (not through the spawner) is measured so, before it is stopped.
func peakRSS(pid int) (rss int64, known bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

const ballastEnv = "EVDESK_E2E_BALLAST"

// TestSpawnerMeasuresTheRunNotTheTests: the peak a run reports is its own,
// not the test process's. A copy of this test binary holds 200 MB (in a
// process of its own, so the other tests' figures stay clean), then runs a
// small command: its peak stays small.
func TestSpawnerMeasuresTheRunNotTheTests(t *testing.T) {
	t.Parallel()
	if os.Getenv(ballastEnv) == "1" {
		ballast := make([]byte, 200<<20)
		for i := range ballast { // touch it: resident
			ballast[i] = 1
		}
		r := runBinary(t, isolatedEnv(t), "version")
		if r.err != nil || len(r.stdout) == 0 {
			t.Fatalf("%v %s", r.err, r.stderr)
		}
		if r.maxRSS > 100<<20 {
			t.Errorf("a run of `evdesk version` reports a peak of %d MB: the test process's memory", r.maxRSS>>20)
		}
		_ = ballast[len(ballast)-1]
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSpawnerMeasuresTheRunNotTheTests$", "-test.v")
	cmd.Env = append(os.Environ(), ballastEnv+"=1")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("%v\n%s", err, out)
	}
}
