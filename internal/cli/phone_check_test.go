package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// startPhoneSim serves the simulator over HTTP and points EVDESK_BASE_URL
// and EVDESK_TOKEN (the demo account) at it, with XDG dirs of the test's own.
func startPhoneSim(t *testing.T) (dir, url string) {
	t.Helper()
	dir = isolateXDG(t)
	srv, err := sim.Start("127.0.0.1:0", sim.Options{NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	t.Setenv("EVDESK_BASE_URL", srv.URL())
	t.Setenv("EVDESK_TOKEN", sim.DemoToken)
	return dir, srv.URL()
}

// squash collapses runs of spaces, so table rows compare without their
// column widths.
func squash(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// exitStatus is the status main would exit with after err, and what it
// would print.
func exitStatus(err error) (int, string) {
	if err == nil {
		return 0, ""
	}
	var b bytes.Buffer
	code := exitCode(context.Background(), err)
	reportError(&b, code, err, "")
	return code, b.String()
}

// setProfile runs `evdesk config set-profile` through the root command.
func setProfile(t *testing.T, args ...string) {
	t.Helper()
	if _, _, err := execute(t, append([]string{"config", "set-profile"}, args...)...); err != nil {
		t.Fatalf("set-profile %v: %v", args, err)
	}
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const demoPolicy = `[expect]
"voicemail.enable" = true
"international_calling.locked" = true
"call_park.expiration_period" = { min = 10, max = 30 }
"call_park.call_not_picked_up_action" = { one_of = [9, 100] }
`

func TestPhoneCheckCommandPassesAndFails(t *testing.T) {
	dir, url := startPhoneSim(t)
	policy := writeFile(t, dir, "policy.toml", demoPolicy)

	out, _, err := execute(t, "phone", "check", "--baseline", policy)
	if code, msg := exitStatus(err); code != 0 {
		t.Fatalf("demo account: exit %d %s\n%s", code, msg, out)
	}
	for _, want := range []string{"RESULT PATH EXPECTED ACTUAL", "PASS voicemail.enable true true",
		"PASS call_park.call_not_picked_up_action one of 9, 100 100",
		"PASS: 4 expectations of " + policy + " hold for profile default."} {
		if !strings.Contains(squash(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// The other host's account, chosen with --profile: a profile of its own
	// whose token comes from the variable `evdesk sim` prints.
	setProfile(t, "other", "--base-url", url, "--token-env", simOtherHostTokenEnv)
	t.Setenv(simOtherHostTokenEnv, sim.OtherHostToken)
	out, stderr, err := execute(t, "phone", "--profile", "other", "check", "--baseline", policy)
	code, msg := exitStatus(err)
	if code != 1 || msg != "" || stderr != "" {
		t.Fatalf("other account: exit %d %q %q\n%s", code, msg, stderr, out)
	}
	for _, want := range []string{"FAIL voicemail.enable true false", "FAIL international_calling.locked true false",
		"FAIL call_park.expiration_period 10 to 30 5", "FAIL call_park.call_not_picked_up_action one of 9, 100 50",
		"FAIL: 4 of 4 expectations of " + policy + " fail for profile other (0 pass)."} {
		if !strings.Contains(squash(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, _, err = execute(t, "phone", "--profile", "other", "check", "--baseline", policy, "-o", "json")
	if code, _ := exitStatus(err); code != 1 {
		t.Fatalf("json: exit %d", code)
	}
	var got struct {
		Baseline string `json:"baseline"`
		Profile  string `json:"profile"`
		Results  []map[string]json.RawMessage
		Passed   *int `json:"passed"`
		Failed   *int `json:"failed"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Baseline != policy || got.Profile != "other" ||
		got.Passed == nil || *got.Passed != 0 || got.Failed == nil || *got.Failed != 4 || len(got.Results) != 4 {
		t.Fatalf("json %v:\n%s", err, out)
	}
	first := got.Results[0]
	keys := make([]string, 0, len(first))
	for k := range first {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if strings.Join(keys, ",") != "actual,expect,line,pass,path" || string(first["path"]) != `"voicemail.enable"` ||
		string(first["expect"]) != "true" || string(first["actual"]) != "false" || string(first["pass"]) != "false" {
		t.Errorf("first result %s", out)
	}
	var expect bytes.Buffer
	if err := json.Compact(&expect, got.Results[2]["expect"]); err != nil || expect.String() != `{"min":10,"max":30}` {
		t.Errorf("range expectation %s", got.Results[2]["expect"])
	}
}

func TestPhoneCheckCommandBrokenBaselineOrCall(t *testing.T) {
	dir, _ := startPhoneSim(t)
	for name, c := range map[string]struct {
		body string
		args []string
		want string
	}{
		"unknown path": {"[expect]\n\n\"voicemail.enabel\" = true\n", nil,
			`policy.toml:3: "voicemail.enabel" names no phone setting or field (did you mean "voicemail.enable"?)`},
		"wrong type": {"[expect]\n\"voicemail.enable\" = \"on\"\n", nil,
			`policy.toml:2: "voicemail.enable" is a boolean; the expectation "on" is a string`},
		"stray table": {"[expect]\n\"voicemail.enable\" = true\n[expected]\n", nil,
			`policy.toml:3: unknown key "expected": a baseline holds one table, [expect]`},
		"no phone service": {demoPolicy, nil, "phone service has not been set up"},
		"no --baseline":    {"", []string{"check"}, "--baseline FILE is required"},
		"missing file":     {"", []string{"check", "--baseline", filepath.Join(dir, "nope.toml")}, "no such file"},
		"bad format":       {demoPolicy, []string{"-o", "yaml"}, `"yaml" is not an output format`},
		"argument":         {demoPolicy, []string{"extra"}, "unknown command"},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "no phone service" {
				t.Setenv("EVDESK_TOKEN", sim.NoPhoneToken)
			}
			args := c.args
			if c.body != "" {
				args = append([]string{"check", "--baseline", writeFile(t, dir, "policy.toml", c.body)}, c.args...)
			}
			out, _, err := execute(t, append([]string{"phone"}, args...)...)
			code, msg := exitStatus(err)
			if code != 2 || !strings.Contains(msg, c.want) {
				t.Fatalf("exit %d, message %q, want 2 and %q\n%s", code, msg, c.want, out)
			}
			if out != "" {
				t.Errorf("a broken check printed results:\n%s", out)
			}
		})
	}
}

func TestPhoneCheckReadsTheBaselineBeforeConnecting(t *testing.T) {
	dir := isolateXDG(t) // nothing to connect to
	policy := writeFile(t, dir, "policy.toml", "[expect]\n\"voicemail.enable\" = \n")
	_, _, err := execute(t, "phone", "check", "--baseline", policy)
	if code, msg := exitStatus(err); code != 2 || !strings.Contains(msg, "policy.toml:2: expected value") {
		t.Fatalf("exit %d %q", code, msg)
	}
}

func TestPhoneCompareCommand(t *testing.T) {
	_, url := startPhoneSim(t)
	setProfile(t, "demo", "--base-url", url, "--default") // on EVDESK_TOKEN
	setProfile(t, "other", "--base-url", url, "--token-env", simOtherHostTokenEnv)
	t.Setenv(simOtherHostTokenEnv, sim.OtherHostToken)

	out, stderr, err := execute(t, "phone", "compare", "--with", "other")
	code, msg := exitStatus(err)
	if code != 1 || msg != "" {
		t.Fatalf("exit %d %q %q\n%s", code, msg, stderr, out)
	}
	// The accounts differ in deprecated fields: the table marks them and
	// each warns once, naming its replacement.
	if !strings.Contains(out, "auto_call_recording.recording_start_prompt (deprecated)") ||
		strings.Count(stderr, "evdesk: warning: ") != 3 ||
		!strings.Contains(stderr, "auto_call_recording.recording_start_prompt is deprecated by the provider, to be removed: use auto_call_recording.inbound_audio_notification.recording_start_prompt and auto_call_recording.outbound_audio_notification.recording_start_prompt instead") {
		t.Fatalf("deprecated fields unmarked:\n%s\n%s", out, stderr)
	}
	for _, want := range []string{"between demo and other:", "PATH", "DEMO", "OTHER",
		"voicemail.enable ", "international_calling.enable ", "international_calling.locked ",
		"call_park.expiration_period ", "call_park.call_not_picked_up_action ", "e2e_encryption.enable ",
		"auto_call_recording.enable ", "call_park.forward_to ", "call_screening "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, _, err = execute(t, "phone", "compare", "--with", "other", "--types", "call_park,voicemail,sms", "-o", "json")
	if code, _ := exitStatus(err); code != 1 {
		t.Fatalf("json: exit %d\n%s", code, out)
	}
	var got struct {
		Left, Right string
		Differences []struct {
			Path        string
			Left, Right json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Left != "demo" || got.Right != "other" {
		t.Fatalf("json %v\n%s", err, out)
	}
	diffs := map[string]string{}
	for _, d := range got.Differences {
		diffs[d.Path] = string(d.Left) + " | " + string(d.Right)
	}
	for path, want := range map[string]string{
		"voicemail.enable":                    "true | false",
		"call_park.expiration_period":         "10 | 5",
		"call_park.call_not_picked_up_action": "100 | 50",
		"call_park.locked":                    "false | true",
	} {
		if diffs[path] != want {
			t.Errorf("%s: %q, want %q (all: %v)", path, diffs[path], want, diffs)
		}
	}
	if d := diffs["call_park.forward_to"]; !strings.HasPrefix(d, " | {") {
		t.Errorf("forward_to, only on the right: %q", d)
	}
	for path := range diffs {
		if !strings.HasPrefix(path, "call_park.") && !strings.HasPrefix(path, "voicemail.") {
			t.Errorf("%s compared though --types left it out", path)
		}
	}

	// The same account through another token: no differences, exit 0.
	setProfile(t, "twin", "--base-url", url, "--token-env", "TWIN_TOKEN")
	t.Setenv("TWIN_TOKEN", sim.ReadOnlyToken)
	out, _, err = execute(t, "phone", "compare", "--with", "twin")
	if code, msg := exitStatus(err); code != 0 || out != "The phone settings of demo and twin are the same.\n" {
		t.Fatalf("twins: exit %d %q\n%s", code, msg, out)
	}
}

func TestPhoneCompareRefusesWhatCannotDiffer(t *testing.T) {
	_, url := startPhoneSim(t)
	setProfile(t, "demo", "--base-url", url, "--default")
	setProfile(t, "plain", "--base-url", url)
	setProfile(t, "copy", "--base-url", url, "--token-env", "COPY_TOKEN")
	t.Setenv("COPY_TOKEN", os.Getenv(config.EnvToken))
	setProfile(t, "unset", "--base-url", url, "--token-env", "UNSET_TOKEN")
	for name, c := range map[string]struct {
		args []string
		want string
		code int // 2 unless told
	}{
		"no --with":    {[]string{"compare"}, "--with PROFILE is required", 0},
		"itself":       {[]string{"--profile", "plain", "compare", "--with", "plain"}, `--with names profile "plain", the one being compared`, 0},
		"same token":   {[]string{"compare", "--with", "copy"}, `profiles "demo" and "copy" would use the same token`, 0},
		"no own token": {[]string{"compare", "--with", "plain"}, `profile "plain" has no credentials of its own`, 0},
		"unknown":      {[]string{"compare", "--with", "nope"}, `profile "nope" not found`, 0},
		"unset token":  {[]string{"compare", "--with", "unset"}, "takes its token from UNSET_TOKEN, which is not set", exitSignIn},
		"demo":         {[]string{"--demo", "compare", "--with", "plain"}, "--demo serves one account", 0},
		"bad types":    {[]string{"compare", "--with", "unset", "--types", "voicemial"}, "did you mean", 0},
		"unknown flag": {[]string{"compare", "--whith", "plain"}, "unknown flag", 0},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := execute(t, append([]string{"phone"}, c.args...)...)
			code, msg := exitStatus(err)
			want := c.code
			if want == 0 {
				want = exitBroken
			}
			if code != want || !strings.Contains(msg, c.want) {
				t.Fatalf("exit %d %q, want %d and %q", code, msg, want, c.want)
			}
		})
	}
}

func TestReportErrorChoosesStatusAndStaysQuietOnDrift(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		out  string
	}{
		{errors.New("boom"), 1, "evdesk: boom\n"},
		{&exitError{code: 1}, 1, ""},
		{&exitError{code: 2, err: errors.New("broken")}, 2, "evdesk: broken\n"},
	} {
		var b bytes.Buffer
		code := exitCode(context.Background(), c.err)
		reportError(&b, code, c.err, "")
		if code != c.code || b.String() != c.out {
			t.Errorf("%v: %d %q", c.err, code, b.String())
		}
	}
}

// A baseline that checks a deprecated field still checks it, and warns
// with its line and the replacement, on stderr and in the JSON; the
// settings table marks the setting that carries deprecated fields.
func TestPhoneDeprecatedFieldsAreMarked(t *testing.T) {
	dir, _ := startPhoneSim(t)
	policy := writeFile(t, dir, "policy.toml", "[expect]\n\"auto_call_recording.recording_start_prompt\" = true\n")
	out, stderr, err := execute(t, "phone", "check", "--baseline", policy)
	if code, _ := exitStatus(err); code > 1 {
		t.Fatalf("exit %d: %v\n%s", code, err, out)
	}
	if !strings.Contains(stderr, "policy.toml:2: auto_call_recording.recording_start_prompt is deprecated by the provider") ||
		!strings.Contains(stderr, "inbound_audio_notification.recording_start_prompt") ||
		!strings.Contains(out, "auto_call_recording.recording_start_prompt (deprecated)") {
		t.Fatalf("no warning:\n%s\n%s", out, stderr)
	}
	out, _, _ = execute(t, "phone", "check", "--baseline", policy, "-o", "json")
	if !strings.Contains(out, `"warnings": [`) {
		t.Fatalf("json lacks the warning:\n%s", out)
	}
	out, _, err = execute(t, "phone", "settings", "--types", "auto_call_recording,voicemail")
	if err != nil || !strings.Contains(out, "[deprecated fields: recording_explicit_consent, recording_start_prompt, recording_start_prompt_audio_id]") {
		t.Fatalf("settings table: %v\n%s", err, out)
	}
}
