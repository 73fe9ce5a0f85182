package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPhoneDriftExitStatusEndToEnd runs the built binary as a scheduler
// would, against `evdesk sim` and the second account it prints: the process
// exits 0 without drift, 1 with it, 2 when the baseline is broken.
func TestPhoneDriftExitStatusEndToEnd(t *testing.T) {
	t.Parallel()
	vars, _ := startSim(t)
	const otherHost = "EVDESK_TOKEN_OTHER_HOST" // the second account's token, as `evdesk sim` prints it
	if vars[otherHost] == "" {
		t.Fatalf("sim printed no %s: %v", otherHost, vars)
	}
	env := isolatedEnv(t)
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(binPath, args...)
		cmd.Env = env
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), out.String(), errOut.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, out.String(), errOut.String()
	}
	if code, out, stderr := run("config", "set-profile", "other", "--base-url", vars["EVDESK_BASE_URL"],
		"--token-env", otherHost); code != 0 {
		t.Fatalf("set-profile: %d %s %s", code, out, stderr)
	}
	// Adding "other" leaves plain commands on the default account: they
	// list what --profile default lists, not the other host's events.
	listed := map[string]string{}
	for _, profile := range []string{"", "default", "other"} {
		args := []string{"events", "list", "-o", "json"}
		if profile != "" {
			args = append([]string{"--profile", profile}, args...)
		}
		code, out, stderr := run(args...)
		if code != 0 || len(out) < 3 {
			t.Fatalf("%v: exit %d %s %s", args, code, out, stderr)
		}
		listed[profile] = out
	}
	if listed[""] != listed["default"] || listed[""] == listed["other"] {
		t.Fatalf("after set-profile other, plain events list is not the default account's:\n%.300s", listed[""])
	}
	policy := filepath.Join(dir, "policy.toml")
	if err := os.WriteFile(policy, []byte("[expect]\n\"voicemail.enable\" = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.toml")
	if err := os.WriteFile(broken, []byte("[expect]\n\"voicemail.enabel\" = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--profile", "default", "phone", "check", "--baseline", policy}, 0, ""},
		{[]string{"--profile", "other", "phone", "check", "--baseline", policy}, 1, ""},
		{[]string{"--profile", "other", "phone", "check", "--baseline", broken}, 2, `broken.toml:2: "voicemail.enabel"`},
		// The accounts differ in deprecated fields too: the comparison warns.
		{[]string{"--profile", "default", "phone", "compare", "--with", "other"}, 1, "auto_call_recording.recording_start_prompt is deprecated"},
		{[]string{"--profile", "default", "phone", "compare", "--with", "nobody"}, 2, `profile "nobody" not found`},
	} {
		code, out, stderr := run(c.args...)
		if code != c.code || (c.stderr == "") != (stderr == "") || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: exit %d, stderr %q, want %d and %q\n%s", c.args, code, stderr, c.code, c.stderr, out)
		}
	}
}
