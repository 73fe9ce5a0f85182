package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// judgeScreen takes scans and, while its prompt is open, judges keys (as
// the kiosk's PIN prompt does); a scanned key closes the prompt.
type judgeScreen struct {
	fakeScreen
	judging bool
	scanned []string
}

func (j *judgeScreen) JudgesKeys() bool { return j.judging }

func (j *judgeScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	if k, ok := msg.(ScannedKeyMsg); ok {
		j.judging = false
		j.scanned = append(j.scanned, k.Key.String())
		return j, nil
	}
	_, cmd := j.fakeScreen.Update(msg)
	return j, cmd
}

// Over a screen that judges keys a person's keys arrive as keys, one by
// one, and a scanner's burst as scanned keys, the whole code and its end,
// first keys included; once the screen stops judging, keys go straight to
// it again.
func TestAScreenThatJudgesKeysGetsScansMarked(t *testing.T) {
	h := newHarness(t)
	j := &judgeScreen{fakeScreen: fakeScreen{title: "Desk", scans: true, capturing: true}, judging: true}
	h.app.push(j)
	h.press("2", "4")
	if got := strings.Join(j.keys, ""); got != "24" || len(j.scanned) != 0 {
		t.Fatalf("a person's keys: %q, scanned %v", got, j.scanned)
	}
	h.burst("1234ana@example.org", "enter")
	// The keys the gate held to judge come marked; the screen stops
	// judging at the first, and the rest come straight, in order.
	if got := strings.Join(j.scanned, "") + strings.Join(j.keys[2:], ""); len(j.scanned) == 0 || got != "1234ana@example.orgenter" {
		t.Fatalf("the burst: scanned %v, keys %v", j.scanned, j.keys)
	}
	j.scanned, j.keys = nil, j.keys[:2]
	h.burst("bo@example.org", "enter") // no longer judging: straight in, as at the desk
	if got := strings.Join(j.keys, ""); got != "24bo@example.orgenter" || len(j.scanned) != 0 {
		t.Fatalf("after the prompt: keys %q, scanned %v", got, j.scanned)
	}
}
