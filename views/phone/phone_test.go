package phone

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/phone/baseline"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/viewtest"
)

var testNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

type rig struct {
	*uitest.Driver
	client *api.Client
	screen *Screen
}

// newRig opens the phone section alone on a fresh simulator.
func newRig(t *testing.T, token string, w, h int) *rig {
	t.Helper()
	client := viewtest.NewServer(t).Client(t, token)
	r := &rig{client: client}
	r.Driver = viewtest.OpenSection(t, "Phone", w, h, func(c *ui.Context) ui.Screen {
		r.screen = newScreen(c, views.Env{Client: client, Now: viewtest.Clock})
		return r.screen
	})
	return r
}

func TestGroupedListWithStateAndLocks(t *testing.T) {
	r := newRig(t, sim.DemoToken, 120, 36)
	r.Contains("1 All 45", "2 On 34", "3 Off 11", "4 Locked 11",
		"Calling and routing (17)", "Call forwarding", "ON", "locked: account", "row 1 of 45")
	r.Lacks("5 Changed")
	r.Golden("list_120x36")
	r.Press("G")
	r.Contains("Other (not in the spec) (2)", "Online fax", "Not one of the 43 settings")
	r.Golden("list_end")
}

func TestDetailPaneExplainsInWords(t *testing.T) {
	r := newRig(t, sim.DemoToken, 120, 36)
	r.Press("/")
	r.Type("park")
	r.Press("enter")
	r.Contains("filter: park (1 match)", "Parked calls expire after 10 minutes,", "Not locked: users can change it.")
	r.Golden("pane_call_park")
	r.Press("esc") // clears the search, stays on the screen
	r.Contains("row 12 of 45", "Call park")

	// The full sentences, in the detail screen's width.
	for q, want := range map[string]string{
		"park":           "Parked calls expire after 10 minutes, then ring back the parker.",
		"forwarding":     "Call forwarding: medium restriction, external numbers and external contacts not allowed.",
		"automatic call": "A beep tone plays every 15 seconds at 60% volume, heard by everyone on the call.",
		"live":           `its audio "Transcription notice (2025)" was removed`,
		"deletion":       "Call logs: 2 years",
		"etiquette":      `regular expression "([0-9][ -]?){13,16}", block the message`,
		"block ext":      "Blocked calls: forward to voicemail or videomail.",
		"media ports":    "min_port: 20000",
	} {
		r.Press("esc", "/")
		r.Type(q)
		r.Press("enter", "enter")
		r.Contains(want)
		r.Press("esc")
	}
	r.Press("esc", "/")
	r.Type("forwarding")
	r.Press("enter")
	r.Contains("LOCKED: ACCOUNT", "Locked by the account administrator")
}

func TestDetailScreenAndRawJSON(t *testing.T) {
	r := newRig(t, sim.DemoToken, 100, 34)
	r.Press("/")
	r.Type("call park")
	r.Press("enter", "enter")
	r.Contains("Phone settings > Call park", "Parked calls expire after 10 minutes", "Fields",
		"call_not_picked_up_action, expiration_period, sequence")
	r.Golden("detail_call_park")
	r.Press("J")
	r.Contains("Call park (raw)", `"expiration_period": 10`, `"locked_by": "invalid"`)
	r.Golden("raw_call_park")
	r.Press("esc")
	r.Contains("filter: call park (1 match)")
	// J straight from the list opens the raw view of an unknown setting.
	r.Press("esc", "G", "J")
	r.Contains("Online fax (raw)", `"include_fax_as_attachment": true`, "Not one of the spec's 43 settings")
}

func TestFilters(t *testing.T) {
	r := newRig(t, sim.DemoToken, 120, 36)
	r.Press("4")
	r.Contains("row 1 of 11", "Local survivability mode")
	r.Lacks("Outbound caller ID", "Elevate to meeting")
	r.Golden("filter_locked")
	r.Press("3")
	r.Contains("row 1 of 11", "External calls from rooms", "OFF")
	r.Lacks("Call park ")
	r.Press("2", "/")
	r.Type("voicemail")
	r.Contains("Voicemail (5)", "1 All 6 2 On 5 3 Off 1")
	r.Lacks("Shared voicemail emails")
	r.Press("enter", "1")
	r.Contains("Voicemail (6)", "filter: voicemail (6 matches)", "Shared voicemail emails")
	r.Press("/")
	r.Type("zzz")
	r.Contains(`no rows match "voicemailzzz"`)
}

func TestNotSetUpPage(t *testing.T) {
	r := newRig(t, sim.NoPhoneToken, 100, 30)
	r.Contains("PHONE NOT SET UP", "Phone service is not set up on this account",
		"Business or Enterprise plan", "phone licence", "press r to try again")
	r.Lacks("error:", "ERROR")
	r.Golden("not_set_up")
	r.Press("r")
	r.Contains("PHONE NOT SET UP")
	r.Press("/", "D", "J") // nothing to search, compare or show
	r.Contains("PHONE NOT SET UP")
}

func TestSnapshotCompareAndSave(t *testing.T) {
	dir := t.TempDir()
	r := newRig(t, sim.DemoToken, 120, 36)

	// An older policy: a shorter park expiry, international SMS on, and a
	// setting that has since gone.
	current, err := r.client.Phone.AccountSettings(t.Context(), api.PhoneSettingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]any
	b, _ := json.Marshal(current)
	_ = json.Unmarshal(b, &m)
	m["call_park"]["expiration_period"] = 5
	m["sms"]["international_sms"] = true
	m["team_sms_thread_summary"] = map[string]any{"enable": true}
	delete(m, "online_fax")
	old, _ := json.Marshal(m)
	oldSettings, _ := api.DecodePhoneSettings(old)
	snap, _ := snapshot.New(oldSettings, nil, "demo", testNow.Add(-48*time.Hour))
	path := filepath.Join(dir, "before.json")
	if err := snapshot.Save(path, snap); err != nil {
		t.Fatal(err)
	}

	r.Press("D")
	r.Contains("Compare with a snapshot", "phone-policy.json")
	r.Press("ctrl+u")
	r.Type(filepath.Join(dir, "missing.json"))
	r.Press("enter")
	r.Says("no such file")
	r.Press("ctrl+u")
	r.Type(path)
	r.Press("enter")
	r.Contains("4 changes in 4 settings since", "2026-11-21 10:00 UTC", "demo",
		"~ changed expiration_period: 5 -> 10", "- removed (whole setting): was", "+ added   (whole setting)")
	r.Golden("diff")
	r.Press("esc")
	r.Contains("5 Changed 3", "* 4 changes since", "* Changed since the snapshot")
	r.Lacks("Outbound caller ID")

	// Save the current policy, then compare with it: no changes.
	saved := filepath.Join(dir, "now.json")
	r.Press("w", "ctrl+u")
	r.Type(saved)
	r.Press("enter")
	r.Says("Saved 45 settings to " + saved)
	if _, err := snapshot.Load(saved); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(saved); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved file: %v", err)
	}
	r.Press("D", "ctrl+u")
	r.Type(saved)
	r.Press("enter")
	r.Says("No changes since " + saved)
}

func TestNarrowTerminalStacksTheDetail(t *testing.T) {
	r := newRig(t, sim.DemoToken, 80, 24)
	r.Contains("Outbound caller ID", "─────", "Keeps calling working at a site")
	r.Golden("list_80x24")
}

// demoBaseline is a baseline the demo account breaks twice: its parked calls
// expire after 10 minutes and international calling is locked.
const demoBaseline = `[expect]
"call_park.expiration_period" = { min = 5, max = 8 }
"voicemail.enable" = true
"international_calling.locked" = false
`

func writeBaseline(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBaselineMarksFailingSettings(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			r := newRig(t, sim.DemoToken, size[0], size[1])
			r.Lacks("6 Failing", "FAIL")
			r.Press("6")
			r.Contains("press B to load one")

			// A path that names no setting is refused in the form, by line.
			r.Press("B", "ctrl+u")
			r.Type(writeBaseline(t, "[expect]\n\"call_park.expiration_perod\" = 5\n"))
			r.Press("enter")
			r.Contains("policy.toml:2:", `mean "call_park.expiration_period"?`)

			r.Press("ctrl+u")
			r.Type(writeBaseline(t, demoBaseline))
			r.Press("enter")
			r.Contains("FAIL: 2 of 3 expectations of policy.toml fail")
			r.Contains("6 Failing 2", "FAIL 2 of 3 policy.toml", "row 1 of 2",
				"FAIL International calling", "FAIL locked: is true, expected false")
			r.Press("down")
			r.Contains("FAIL Call park", "FAIL expiration_period: is 10, expected 5 to 8")
			r.Lacks("Voicemail ")
			r.Golden(fmt.Sprintf("baseline_%dx%d", size[0], size[1]))

			// Every setting stays in 1, the failing ones marked.
			r.Press("1", "/")
			r.Type("voicemail")
			r.Press("enter", "down")
			r.Contains("Voicemail", "PASS enable: is true, expected true")
			r.Press("esc", "/")
			r.Type("international")
			r.Press("enter")
			r.Contains("FAIL International calling", "FAIL locked: is true, expected false")
			r.Press("enter") // the detail screen says it too
			r.Contains("Baseline policy.toml", "FAIL locked: is true, expected false")
		})
	}
}

// The profile's own baseline is checked from the start; it marks the list
// without switching filters.
func TestProfileBaselineIsCheckedOnOpen(t *testing.T) {
	path := writeBaseline(t, demoBaseline)
	client := viewtest.NewServer(t).Client(t, sim.DemoToken)
	r := viewtest.OpenSection(t, "Phone", 120, 36, func(c *ui.Context) ui.Screen {
		return New(c, views.Env{Client: client, Phone: views.Phone{Baseline: path}})
	})
	r.Contains("1 All 45", "6 Failing 2", "FAIL 2 of 3 policy.toml", "row 1 of 45")
	r.Press("6")
	r.Contains("row 1 of 2", "FAIL Call park")

	// A baseline that cannot be read says so, and the list still works.
	r = viewtest.OpenSection(t, "Phone", 120, 36, func(c *ui.Context) ui.Screen {
		return New(c, views.Env{Client: client, Phone: views.Phone{Baseline: filepath.Join(t.TempDir(), "gone.toml")}})
	})
	r.Contains("Reading the baseline", "gone.toml", "1 All 45")
	r.Lacks("6 Failing")

	// So does one that does not fit the settings.
	broken := writeBaseline(t, "[expect]\n\"call_park.expiration_perod\" = 5\n")
	r = viewtest.OpenSection(t, "Phone", 120, 36, func(c *ui.Context) ui.Screen {
		return New(c, views.Env{Client: client, Phone: views.Phone{Baseline: broken}})
	})
	r.Contains("Checking the baseline", "policy.toml:2", "1 All 45")
	r.Lacks("6 Failing", "FAIL")
}

// twoAccounts opens the phone screen on the demo account, with "other"
// opening the simulator's second account.
func twoAccounts(t *testing.T, w, h int) *uitest.Driver {
	t.Helper()
	srv := viewtest.NewServer(t)
	client, other := srv.Client(t, sim.DemoToken), srv.Client(t, sim.OtherHostToken)
	open := func(name string) (*api.Client, error) {
		if name != "other" {
			return nil, fmt.Errorf("profile %q not found", name)
		}
		return other, nil
	}
	return viewtest.OpenSection(t, "Phone", w, h, func(c *ui.Context) ui.Screen {
		return New(c, views.Env{Client: client, Phone: views.Phone{OpenProfile: open, OtherProfile: "other"}})
	})
}

func TestCompareWithAnotherProfileSideBySide(t *testing.T) {
	r := twoAccounts(t, 120, 36)
	r.Press("C")
	r.Contains("Compare with another profile", "other")
	r.Press("ctrl+u")
	r.Type("test")
	r.Press("enter")
	r.Contains("test is the profile on screen")
	r.Press("ctrl+u")
	r.Type("nobody")
	r.Press("enter")
	r.Contains(`profile "nobody" not found`)
	r.Lacks("7 Different")

	r.Press("C", "ctrl+u")
	r.Type("other")
	r.Press("enter")
	r.Contains("values in 7 settings differ from other", "7 Different 7", "DIFF 7 from other",
		"test       other", "ON locked  OFF", "OFF        -")
	// The marks column is as wide as its widest mark (DIFF DEPR).
	containsLoose(t, r, "DIFF Voicemail", "DIFF Call screening", "DIFF DEPR Automatic call recording")
	r.Press("/")
	r.Type("park")
	r.Press("enter")
	r.Contains("DIFF from other", "expiration_period: 10 in test, 5 in other")
	r.Press("esc", "home")
	r.Golden("compare_120x36")

	// r reads both accounts again; the comparison stays.
	r.Press("r")
	r.Contains("7 Different 7")
	containsLoose(t, r, "DIFF Voicemail")
}

// containsLoose is Contains with runs of spaces counted as one.
func containsLoose(t *testing.T, r *uitest.Driver, want ...string) {
	t.Helper()
	v := strings.Join(strings.Fields(r.View()), " ")
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Fatalf("view lacks %q:\n%s", w, r.View())
		}
	}
}

func TestCompareAtNarrowSizesShowsTheOtherValueInThePane(t *testing.T) {
	r := twoAccounts(t, 80, 24)
	r.Press("C", "enter")
	r.Contains("7 Different 7", "In other: ON", "enable: false in test, true in other")
	containsLoose(t, r, "DIFF International calling")
	r.Lacks("ON locked  OFF")
	r.Golden("compare_80x24")
}

func TestMouseSelectsAndOpensASetting(t *testing.T) {
	r := newRig(t, sim.DemoToken, 120, 36)
	// Terminal line 6: tabs, breadcrumb, filter line, column header, the
	// first theme's title, its first setting, then the second.
	click := tea.MouseClickMsg{X: 10, Y: 6, Button: tea.MouseLeft}
	r.Send(click)
	r.Contains("row 2 of 45", "external_calling_on_vendor_room_common_area")
	r.Send(click)
	r.Contains("Phone settings > External calls from rooms", "Room systems and common area phones can call")
}

// The deprecated recording fields are marked in every view: DEPR in the
// list, a warning in the details naming the replacement, (DEPRECATED) in
// the field list and an arrow in the raw JSON.
func TestDeprecatedFieldsAreMarkedEverywhere(t *testing.T) {
	r := newRig(t, sim.DemoToken, 120, 40)
	r.Press("/")
	r.Type("automatic call")
	r.Press("enter")
	containsLoose(t, r.Driver, "DEPR Automatic call recording", "DEPRECATED fields:")
	r.Press("enter")
	containsLoose(t, r.Driver, "recording_start_prompt (DEPRECATED)", "recording_start_prompt_audio_id (DEPRECATED)",
		"recording_explicit_consent (DEPRECATED)",
		"DEPRECATED fields: recording_explicit_consent, recording_start_prompt, recording_start_prompt_audio_id. The provider will remove them: use the same fields of inbound_audio_notification and outbound_audio_notification; a baseline on them will then fail as absent.")
	r.Press("J")
	containsLoose(t, r.Driver, `"recording_start_prompt": true, <- DEPRECATED: use inbound_audio_notification.recording_start_prompt`)
	if n := strings.Count(r.View(), "<- DEPRECATED"); n != 3 { // not the notifications' own fields
		t.Fatalf("%d lines marked:\n%s", n, r.View())
	}
}

// The help names the number keys that show a filter now: 1-4 at first,
// then those a snapshot, a baseline or another profile add (QA: the help
// said 1-9 where four filters showed).
func TestQuickFilterKeysSayTheirRealRange(t *testing.T) {
	k := ui.DefaultGlobalKeys()
	var s Screen
	for _, c := range []struct {
		snap, base, other bool
		want              string
	}{
		{want: "1-4"},
		{snap: true, want: "1-5"},
		{base: true, want: "1-4,6"},
		{other: true, want: "1-4,7"},
		{snap: true, base: true, other: true, want: "1-7"},
		{base: true, other: true, want: "1-4,6-7"},
	} {
		s.snap, s.audit.base, s.audit.other = nil, nil, nil
		if c.snap {
			s.snap = &snapshot.Snapshot{}
		}
		if c.base {
			s.audit.base = &baseline.Baseline{}
		}
		if c.other {
			s.audit.other = &api.PhoneSettings{}
		}
		b := s.filterKeys(k.Views)
		if got := b.Help().Key; got != c.want || len(b.Keys()) != int(nFilters) {
			t.Errorf("%+v: help %q with %d keys, want %q and every filter's key", c, got, len(b.Keys()), c.want)
		}
	}
}

// A failed load's error leaves the status bar when the settings load again
// (the server came back), not only after ErrorTTL.
func TestReloadAfterAFailureClearsTheStatusBar(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	srv := viewtest.NewServerWith(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if down.Load() && strings.Contains(r.URL.Path, "/phone/") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"code":404,"message":"Not found."}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	client := srv.Client(t, sim.DemoToken)
	r := viewtest.OpenSection(t, "Phone", 120, 36, func(c *ui.Context) ui.Screen {
		return newScreen(c, views.Env{Client: client, Now: viewtest.Clock})
	})
	r.Contains("error: Loading phone settings")
	down.Store(false)
	r.Press("r")
	r.Contains("1 All 45")
	r.Lacks("error: Loading phone settings")
}
