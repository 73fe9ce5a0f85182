package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui/internal/golden"
	"github.com/evdesk/evdesk/ui/uitest"
)

// typing is keys with the milliseconds before each: text typed at a
// steady pace, then its terminator.
type typing []struct {
	after time.Duration
	key   tea.KeyPressMsg
}

func typed(text string, every time.Duration, end string) typing {
	var t typing
	for _, r := range text {
		t = append(t, struct {
			after time.Duration
			key   tea.KeyPressMsg
		}{every, tea.KeyPressMsg{Code: r, Text: string(r)}})
	}
	if end != "" {
		t = append(t, struct {
			after time.Duration
			key   tea.KeyPressMsg
		}{every, uitest.Key(end)})
	}
	return t
}

// then is t followed, after a pause, by more.
func (t typing) then(pause time.Duration, more typing) typing {
	more = append(typing{}, more...)
	more[0].after = pause
	return append(t, more...)
}

func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }

// verdicts runs the gate over keys as the App does (the hold timer fires
// when HoldFor passes with no key) and says, per key in the order acted
// on, P for a person's key and S for a scanner's.
func verdicts(t *testing.T, keys typing) string {
	t.Helper()
	var g scanGate
	var order, got strings.Builder
	take := func(out gateOut) {
		for _, k := range out.person {
			order.WriteString(k.String())
			got.WriteByte('P')
		}
		for _, k := range out.scanned {
			order.WriteString(k.String())
			got.WriteByte('S')
		}
	}
	var sent strings.Builder
	for i, k := range keys {
		if i > 0 && k.after >= HoldFor && g.holding() {
			take(g.pause()) // the hold timer fired before the key came
		}
		if i > 0 && k.after >= HoldFor+LateEnd {
			g.lateOver() // and the wait for a code's late end, after it
		}
		sent.WriteString(k.key.String())
		take(g.key(k.key))
	}
	take(g.pause())
	if order.String() != sent.String() {
		t.Fatalf("keys acted on out of order: %q, sent %q", order.String(), sent.String())
	}
	return got.String()
}

// The decider, with key timings as they arrive: scanners type a key every
// 1-20 ms or deliver a whole code in one terminal read; people leave 60 ms
// and more between keys, about 20 ms only when they roll two keys; key
// repeat is one key every 20-40 ms.
func TestScanGateTellsScannersFromPeople(t *testing.T) {
	scan := "dana.cole@example.com"
	cases := []struct {
		name string
		keys typing
		want string
	}{
		{"a person presses y", typed("y", 0, ""), "P"},
		{"a person types a word", typed("hello", ms(110), "enter"), "PPPPPP"},
		{"a fast typist rolls two keys", typed("t", 0, "").then(ms(18), typed("h", 0, "")).then(ms(70), typed("e", 0, "")), "PPP"},
		{"three rolled keys", typed("the", ms(22), ""), "PPP"},
		{"a whole scan in one terminal read", typed(scan, 0, "enter"), strings.Repeat("S", len(scan)+1)},
		{"a USB scanner, keypad Enter", typed(scan, ms(4), "kpenter"), strings.Repeat("S", len(scan)+1)},
		{"a Bluetooth scanner, Tab", typed("4006381333931", ms(18), "tab"), strings.Repeat("S", 14)},
		{"a scanner ending with a line feed", typed("A1B2", ms(2), "ctrl+j"), "SSSSS"},
		{"a scanner ending with CR LF", typed("A1B2", ms(2), "enter").then(ms(1), typed("", 0, "ctrl+j")), "SSSSSS"},
		{"a scanner with no terminator", typed("4006381333931", ms(6), ""), strings.Repeat("S", 13)},
		{"a short code with Enter", typed("7", ms(3), "enter"), "SS"},
		{"four scans back to back", typed("a@x.org", 0, "enter").then(0, typed("b@y.org", 0, "enter")).
			then(0, typed("c@z.org", 0, "enter")).then(0, typed("d@w.org", 0, "enter")), strings.Repeat("S", 32)},
		{"two scans a moment apart", typed("a@x.org", ms(3), "enter").then(ms(400), typed("b@y.org", ms(3), "enter")), strings.Repeat("S", 16)},
		{"a person's key, then a scan", typed("y", 0, "").then(ms(500), typed(scan, ms(3), "enter")), "P" + strings.Repeat("S", len(scan)+1)},
		{"a person's key right after a scan", typed(scan, ms(3), "enter").then(ms(2), typed("c", 0, "")), strings.Repeat("S", len(scan)+1) + "P"},
		{"a scan, then a person's key", typed(scan, ms(3), "enter").then(ms(900), typed("n", 0, "")), strings.Repeat("S", len(scan)+1) + "P"},
		{"a scanner stalling mid-code", typed("dana.co", ms(3), "").then(ms(35), typed("le@example.com", ms(3), "enter")), strings.Repeat("S", len(scan)+1)},
		{"a scanner stalling past the hold", typed("dana.co", ms(3), "").then(ms(60), typed("le@x.com", ms(3), "enter")), strings.Repeat("S", 16)},
		// A busy machine reads a scanner's Enter apart from its code: the
		// Enter is still the scan's, never a person's choice.
		{"a scanner's Enter read late", typed("dana.cole@example.com", ms(3), "").then(ms(120), typed("", 0, "enter")), strings.Repeat("S", len(scan)+1)},
		{"a scanner's Tab read late, then a person's key", typed("4006381333931", ms(5), "").then(ms(200), typed("", 0, "tab")).then(ms(900), typed("n", 0, "")), strings.Repeat("S", 14) + "P"},
		{"a person's Enter long after a code with no end", typed("4006381333931", ms(6), "").then(ms(900), typed("", 0, "enter")), strings.Repeat("S", 13) + "P"},
		{"a person's key after a code with no end, then Enter", typed("4006381333931", ms(6), "").then(ms(100), typed("j", 0, "")).then(ms(100), typed("", 0, "enter")), strings.Repeat("S", 13) + "PP"},
		{"key repeat of j", typed("jjjjjjjj", ms(33), ""), "PPPPPPPP"},
		{"fast key repeat of j", typed("jjjjjjjj", ms(20), ""), "PPPPPPPP"},
		{"key repeat of Enter", typed("", 0, "enter").then(ms(20), typed("", 0, "enter")).then(ms(20), typed("", 0, "enter")), "PPP"},
		// Safe on purpose: y and Enter within 30 ms are taken for a scan,
		// so nothing is answered.
		{"y and Enter rolled together", typed("y", 0, "enter"), "SS"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := verdicts(t, c.keys); got != c.want {
				t.Fatalf("verdicts %s, want %s", got, c.want)
			}
		})
	}
}

// The note counts the codes lost, so they can be scanned again.
func TestScanGateCountsCodes(t *testing.T) {
	var g scanGate
	codes := 0
	for _, k := range typed("a@x.org", 0, "enter").then(0, typed("b@y.org", 0, "enter")).then(0, typed("", 0, "ctrl+j")).
		then(ms(500), typed("4006381333931", ms(5), "")) {
		if k.after >= HoldFor {
			codes += g.pause().codes
		}
		codes += g.key(k.key).codes
	}
	codes += g.pause().codes
	if codes != 3 {
		t.Fatalf("%d codes, want 3", codes)
	}
}

func TestPastedScans(t *testing.T) {
	for content, want := range map[string]bool{
		"dana.cole@example.com\n":           true,
		"dana.cole@example.com\r":           true,
		"dana.cole@example.com\r\n":         true,
		"dana.cole@example.com":             false, // an address pasted into a field
		"ana@example.org\nbo@example.org\n": false, // a list of lines, a person's
		"\n":                                false,
	} {
		if got := pastedScan(content); got != want {
			t.Errorf("pastedScan(%q) = %v, want %v", content, got, want)
		}
	}
}

// burst types text and end back to back, as a scanner does, then lets
// the hold run out.
func (h *harness) burst(text, end string) {
	h.t.Helper()
	for _, r := range text {
		h.app.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if end != "" {
		h.app.Update(uitest.Key(end))
	}
	h.app.Quiet()
}

const scanNote = "a scan arrived outside the desk: ignored"

// The reproduction, in the shell: scans typed over a list, into
// a screen's open question, into the quit question and into the palette
// act nowhere; the status bar says so once; a person's keys still act.
func TestAScanOutsideTheDeskActsNowhere(t *testing.T) {
	h := newHarness(t)
	events := h.roots["Events"]
	h.burst("dana.cole@example.com", "enter")
	if len(events.keys) != 0 {
		t.Fatalf("the scan reached the list: %v", events.keys)
	}
	if !strings.Contains(h.plain(), scanNote) {
		t.Fatalf("the status bar does not say the scan was ignored:\n%s", h.plain())
	}
	golden.Assert(t, "app_scan_ignored", h.view())
	h.burst("carl.ng@example.com", "enter")
	h.burst("yolanda.ito@example.com", "kpenter")
	h.burst("4006381333931", "") // a scanner set to end with nothing
	if len(events.keys) != 0 || strings.Count(h.plain(), "ignored") != 1 || !strings.Contains(h.plain(), "4 scans arrived") {
		t.Fatalf("keys %v; the note should show once:\n%s", events.keys, h.plain())
	}
	h.press("y")
	if strings.Join(events.keys, " ") != "y" || strings.Contains(h.plain(), "ignored") {
		t.Fatalf("a person's key did not act, or left the note: %v", events.keys)
	}

	// A question the shell asks (quit, with a form open) takes no scan.
	events.guard = "a form with changes is open"
	h.press("q")
	h.burst("carl.ng@example.com", "enter")
	h.burst("yolanda.ito@example.com", "enter")
	if h.app.question() == nil {
		t.Fatal("a scan answered the quit question")
	}
	h.press("esc")

	// The palette: nothing typed into it, nothing chosen.
	h.press(":")
	h.burst("dana.cole@example.com", "enter")
	if h.app.palette() == nil || h.app.palette().input.Value() != "" {
		t.Fatalf("the scan reached the palette: open %v", h.app.palette() != nil)
	}
	if !strings.Contains(uitest.Words(h.plain()), `not typed here: "dana.cole@example.com"`) {
		t.Fatalf("the palette does not say what it did not take:\n%s", h.plain())
	}
	h.press("esc")

	// A pasted scan (a line and its break) goes nowhere; a person's paste
	// of an address still does.
	h.send(tea.PasteMsg{Content: "dana.cole@example.com\n"})
	h.send(tea.PasteMsg{Content: "dana.cole@example.com"})
	if strings.Join(events.msgs, " ") != "tea.PasteMsg" {
		t.Fatalf("pastes reaching the screen: %v", events.msgs)
	}
	if len(events.keys) != 1 {
		t.Fatalf("keys reached the screen: %v", events.keys)
	}
}

// Where the focused screen takes scans, they reach it: straight, and from
// under the palette, a question or the help.
func TestScansReachTheDesk(t *testing.T) {
	h := newHarness(t)
	desk := h.roots["Events"]
	desk.scans = true
	h.burst("ana@example.org", "enter")
	if got := strings.Join(desk.keys, ""); got != "ana@example.orgenter" {
		t.Fatalf("the desk got %q", got)
	}
	desk.keys = nil
	h.app.openPalette() // ":" is typing at the desk; the palette opens by other ways
	h.burst("bo@example.org", "tab")
	if got := strings.Join(desk.keys, ""); got != "bo@example.orgtab" || h.app.palette() == nil || h.app.palette().input.Value() != "" {
		t.Fatalf("under the palette the desk got %q", got)
	}
	h.press("x") // a person types into the palette
	if h.app.palette().input.Value() != "x" || len(desk.keys) != len("bo@example.org")+1 {
		t.Fatalf("a person's key under the palette: palette %q, desk %v", h.app.palette().input.Value(), desk.keys)
	}
	h.press("esc")
	h.send(tea.PasteMsg{Content: "cy@example.org\n"})
	if last(desk.msgs) != "tea.PasteMsg" {
		t.Fatalf("a pasted scan did not reach the desk: %v", desk.msgs)
	}
	if strings.Contains(h.plain(), scanNote) {
		t.Fatal("scans at the desk are not ignored")
	}
}

// After the desk has left, a scan says which key goes back, and that key
// opens the desk again where it was; under other screens, it goes down to
// it.
func TestBackToTheDesk(t *testing.T) {
	h := newHarness(t)
	h.press("tab") // Check-in
	desk := &reopenScreen{fakeScreen: fakeScreen{title: "Desk", scans: true}}
	h.send(PushMsg{Screen: desk})
	h.send(PushMsg{Screen: &fakeScreen{title: "History"}})
	h.burst("ana@example.org", "enter")
	if !strings.Contains(h.plain(), scanNote+" (F6 back to the desk)") {
		t.Fatalf("the note does not name the way back:\n%s", h.plain())
	}
	h.press("shift+tab") // Events
	h.press("f6")
	if h.app.Top() != Screen(desk) || h.app.active != 1 {
		t.Fatalf("F6 went to %q", h.app.Top().Title())
	}
	h.send(PopMsg{}) // the desk leaves
	if !desk.closed {
		t.Fatal("the desk did not close")
	}
	h.press("shift+tab")
	h.press("f6")
	if top := h.app.Top(); h.app.active != 1 || top.Title() != "Desk again" {
		t.Fatalf("F6 opened %q in section %d", top.Title(), h.app.active)
	}
}

type reopenScreen struct{ fakeScreen }

func (r *reopenScreen) Reopen() Screen {
	return &reopenScreen{fakeScreen: fakeScreen{title: "Desk again", scans: true}}
}

// The note on ignored scans fits the status bar with the news and an
// error beside it at 80 columns: the keys on the right stay whole.
func TestScanNoteFitsBesideNewsAndErrors(t *testing.T) {
	h := newHarness(t)
	h.app.deskWay = &deskWay{reopen: func() Screen { return &fakeScreen{title: "Desk"} }}
	h.send(NewsMsg{Headline: "The v1 listing endpoint is deprecated", Title: "News", Text: "x"})
	h.send(ToastMsg{Level: ToastError, Text: "list events failed: timeout", Op: "list events"})
	h.burst("dana.cole@example.com", "enter")
	lines := strings.Split(strings.TrimRight(h.plain(), "\n"), "\n")
	bar := lines[len(lines)-1]
	if !strings.HasSuffix(strings.TrimRight(bar, " "), "? help") || !strings.Contains(bar, "N read") || !strings.Contains(bar, "scan ignored (F6 desk)") {
		t.Fatalf("status bar %q", bar)
	}
}

// typeTimed types keys into the App with their timings: the hold timer
// fires wherever a pause outlasts HoldFor, the wait for a code's late end
// after LateEnd more, and both at the end.
func (h *harness) typeTimed(keys typing) {
	h.t.Helper()
	for i, k := range keys {
		if i > 0 && k.after >= HoldFor && h.app.gate.holding() {
			h.app.holdOver()
		}
		if i > 0 && k.after >= HoldFor+LateEnd {
			h.app.Update(lateOverMsg{seq: h.app.holdSeq})
		}
		h.app.Update(k.key)
	}
	h.app.Quiet()
}

// typePaused sends keys, the hold timer firing (Quiet) at every pause of
// HoldFor or more and after the last key.
func (h *harness) typePaused(keys typing) {
	for i, k := range keys {
		if i > 0 && k.after >= HoldFor {
			h.app.Quiet()
		}
		h.app.Update(k.key)
	}
	h.app.Quiet()
}

// received is what a screen got, in order: keys as themselves, scans in
// brackets.
func received(f *fakeScreen) string {
	var b strings.Builder
	for _, k := range f.keys {
		b.WriteString(k)
	}
	var scans strings.Builder // a code may come in several ScanMsgs
	for _, m := range f.msgs {
		if s, ok := strings.CutPrefix(m, "scan "); ok {
			scans.WriteString(s)
		}
	}
	if scans.Len() > 0 {
		b.WriteString("[" + scans.String() + "]")
	}
	return b.String()
}

// With a form open over the desk (ScanSorter), the shell sorts the keys
// with their real timings: a person's go to the screen as keys, for the
// form; a scanner's as a ScanMsg, for the scan input, never the form.
func TestAFormOverTheDeskGetsAPersonsKeysAndTheDeskTheScans(t *testing.T) {
	scan := "dana.cole@example.com"
	cases := []struct {
		name string
		keys typing
		want string
	}{
		{"a person types a name", typed("Wally", ms(110), "enter"), "Wallyenter"},
		{"a fast typist", typed("Wa", ms(18), "").then(ms(70), typed("lly", ms(65), "")), "Wally"},
		{"a whole scan in one read", typed(scan, 0, "enter"), "[" + scan + "enter]"},
		{"a USB scanner, keypad Enter", typed(scan, ms(4), "kpenter"), "[" + scan + "enter]"},
		{"a scanner with Tab", typed("4006381333931", ms(15), "tab"), "[4006381333931tab]"},
		{"jjjk and x from a scanner", typed("jjjk", ms(2), "").then(ms(1), typed("x", 0, "enter")), "[jjjkxenter]"},
		{"a person's key, then a scan", typed("W", 0, "").then(ms(400), typed(scan, ms(3), "enter")), "W[" + scan + "enter]"},
		{"two scans back to back", typed("a@x.org", 0, "enter").then(0, typed("b@y.org", 0, "enter")), "[a@x.orgenterb@y.orgenter]"},
		// A busy machine reads the scanner's Enter apart from its code: it
		// ends the scan at the desk, it does not move the form on.
		{"a scan whose Enter is read late", typed(scan, ms(3), "").then(ms(150), typed("", 0, "enter")), "[" + scan + "enter]"},
		{"a person's Enter long after a code with no end", typed("4006381333931", ms(3), "").then(ms(800), typed("", 0, "enter")), "enter[4006381333931]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			desk := h.roots["Events"]
			desk.scans, desk.sorts = true, true
			h.typeTimed(c.keys)
			if got := received(desk); got != c.want {
				t.Fatalf("the desk got %s, want %s", got, c.want)
			}
			if strings.Contains(h.plain(), scanNote) {
				t.Fatal("a scan at the desk was called ignored")
			}
		})
	}
}

// A pasted scan (a line and its break) over the desk's form is a scan
// too; a person's paste goes to the form.
func TestAPasteOverTheDesksForm(t *testing.T) {
	h := newHarness(t)
	desk := h.roots["Events"]
	desk.scans, desk.sorts = true, true
	h.send(tea.PasteMsg{Content: "ana@example.org\n"})
	h.send(tea.PasteMsg{Content: "Contoso Ltd"})
	if got := strings.Join(desk.msgs, "|"); !strings.Contains(got, "scan ana@example.org\n|tea.PasteMsg") {
		t.Fatalf("the desk got %q", got)
	}
}

// A burst too fast for a person into a screen's form or filter is not
// typed, and the screen is told what it held, so its form can say so by
// the field; the text since a person's key is carried whole, bounded.
func TestABurstNotTypedIsToldToTheForm(t *testing.T) {
	h := newHarness(t)
	events := h.roots["Events"]
	events.capturing = true
	h.typeTimed(typed("Europe/Lisbon", ms(8), ""))
	if got := last(events.msgs); got != "not typed Europe/Lisbon" || len(events.keys) != 0 {
		t.Fatalf("the form was told %q, keys %v", got, events.keys)
	}
	h.burst("ana@example.org", "enter")
	if got := last(events.msgs); got != "not typed Europe/Lisbonana@example.org" {
		t.Fatalf("the form was told %q", got)
	}
	h.press("x")
	h.burst(strings.Repeat("7", 300), "enter")
	if got := last(events.msgs); len([]rune(got)) != len("not typed ")+notTypedMax || !strings.HasSuffix(got, "…") {
		t.Fatalf("not bounded: %d runes", len([]rune(got)))
	}
}

// At a scan input that has every key at once (the bare desk), the watch
// follows each run with real key timings and, when a run turns out to be a
// scanner's, tells the screen what of its input the run typed: what a
// person typed before is set aside, never sent glued to the scan. What a
// person types, rolled keys into Enter included, is sent as typed.
func TestScanWatchSetsAsideAPersonsText(t *testing.T) {
	scan := "liam.yamamoto@example.org"
	cases := []struct {
		name      string
		keys      typing
		sent      string // each Enter's input, one per line
		setAside  string
		remaining string
	}{
		{"typed, then a scan", typed("ab", ms(140), "").then(ms(600), typed(scan, ms(3), "enter")), scan, "ab", ""},
		{"typed, then a scan in one read", typed("hu", ms(90), "").then(ms(400), typed(scan, 0, "enter")), scan, "hu", ""},
		{"digits in a wait, then a scan", typed("2", 0, "").then(ms(2000), typed(scan, ms(12), "tab")), scan, "2", ""},
		{"a person's address", typed("ann@x.org", ms(110), "enter"), "ann@x.org", "", ""},
		{"rolled into Enter", typed("ann@x.o", ms(110), "").then(ms(120), typed("rg", ms(20), "enter")), "ann@x.org", "", ""},
		{"three rolled keys", typed("hello", ms(100), "").then(ms(90), typed("the", ms(22), "")), "", "", "hellothe"},
		{"key repeat", typed("ab", ms(100), "").then(ms(200), typed("xxxxxx", ms(30), "")), "", "", "abxxxxxx"},
		{"two scans back to back", typed("ab", ms(100), "").then(ms(300), typed("a@x.org", 0, "enter")).then(0, typed("b@y.org", 0, "enter")), "a@x.org\nb@y.org", "ab", ""},
		{"a scan with no terminator", typed("ab", ms(100), "").then(ms(300), typed("4006381333931", ms(5), "")), "", "ab", "4006381333931"},
		{"a burst handed over as one key", typed("ab", ms(100), "").then(ms(300), typing{{0, tea.KeyPressMsg{Text: scan}}}).
			then(0, typed("", 0, "enter")), scan, "ab", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var w scanWatch
			var input string
			var sent, aside []string
			for i, k := range c.keys {
				if i > 0 && k.after >= HoldFor {
					w = scanWatch{} // the hold timer fired before the key came
				}
				if typedSoFar, began := w.key(k.key); began {
					if before, ok := strings.CutSuffix(input, typedSoFar); ok && before != "" {
						aside = append(aside, before)
					}
					input = typedSoFar
				}
				if EndsScan(k.key) {
					sent = append(sent, input)
					input = ""
					continue
				}
				input += k.key.Text
			}
			if got := strings.Join(sent, "\n"); got != c.sent {
				t.Errorf("sent %q, want %q", got, c.sent)
			}
			if got := strings.Join(aside, "|"); got != c.setAside {
				t.Errorf("set aside %q, want %q", got, c.setAside)
			}
			if input != c.remaining {
				t.Errorf("input left %q, want %q", input, c.remaining)
			}
		})
	}
}

// passerScreen is a view over the desk that passes it its scans, as the
// desk's history does.
type passerScreen struct{ fakeScreen }

func (p *passerScreen) PassesScans() bool { return true }
func (p *passerScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	_, cmd := p.fakeScreen.Update(msg)
	return p, cmd
}

// At the desk the shell tells the screen when a scan begins, before its
// deciding key, with what of the scan its input already holds (the bare
// desk: keys act at once) or nothing (a form open: the gate held the
// keys); over a view that passes scans (the history), the desk comes back
// for the scan. Real key timings; the hold timer fires on each pause.
func TestTheDeskIsToldWhenAScanBegins(t *testing.T) {
	scan := "liam.yamamoto@example.org"
	person := typed("ab", ms(140), "").then(ms(600), typed(scan, ms(3), "enter"))

	h := newHarness(t, WithSection("Check-in"))
	desk := h.roots["Check-in"]
	desk.scans = true
	h.typePaused(person)
	if got, want := strings.Join(desk.msgs, "|"), "starts lia"; !strings.Contains(got, want) {
		t.Fatalf("the bare desk was told %q, want %q", got, want)
	}
	if got := strings.Join(desk.keys, ""); got != "ab"+scan+"enter" {
		t.Fatalf("the bare desk's keys %q", got)
	}

	desk.keys, desk.msgs, desk.sorts = nil, nil, true
	h.typePaused(person)
	if desk.msgs[0] != "starts " || received(desk) != "ab["+scan+"enter]" {
		t.Fatalf("with a form open the desk was told %q, then got %q", desk.msgs[0], received(desk))
	}

	desk.keys, desk.msgs, desk.sorts = nil, nil, false
	over := &passerScreen{fakeScreen{title: "History"}}
	h.send(PushMsg{Screen: over})
	h.typePaused(typed("zz", ms(150), "").then(ms(500), typed(scan, ms(3), "enter")))
	if h.app.Top() != Screen(desk) {
		t.Fatalf("a scan over the history did not bring the desk back: top %q, history keys %q, desk %q\n%s", h.app.Top().Title(), over.keys, received(desk), h.plain())
	}
	if got := strings.Join(over.keys, ""); got != "zz" {
		t.Fatalf("the history's keys %q", got)
	}
	if got := strings.Join(desk.keys, ""); got != scan+"enter" || !slices.Contains(desk.msgs, "starts ") {
		t.Fatalf("the desk got keys %q, messages %q", got, desk.msgs)
	}
	if strings.Contains(h.plain(), scanNote) {
		t.Fatal("the scan was ignored")
	}
}

// A scanner set to add no terminator: once LateEnd passes with no key
// after its code, the screen that takes scans is told the code ended
// (ScanEndMsg), at the bare desk and with a form open over it; a person's
// typing, a code whose Enter comes late, and keys elsewhere never are.
func TestACodeWithNoTerminatorEndsAfterLateEnd(t *testing.T) {
	code := "4006381333931"
	cases := []struct {
		name      string
		sorts     bool // a form over the desk
		keys      typing
		wantEnded bool
	}{
		{"at the bare desk", false, typed(code, ms(4), ""), true},
		{"with a form over the desk", true, typed(code, ms(4), ""), true},
		{"a person types at the bare desk", false, typed("dana", ms(120), ""), false},
		{"a code whose Enter comes late", true, typed(code, ms(4), "").then(ms(120), typed("", 0, "enter")), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			desk := h.roots["Events"]
			desk.scans, desk.sorts = true, c.sorts
			for i, k := range c.keys {
				if i > 0 && k.after >= HoldFor && (h.app.gate.holding() || h.app.watch.scanning || len(h.app.watch.run) > 0) {
					h.app.holdOver()
				}
				h.app.Update(k.key)
			}
			h.app.holdOver()                              // the hold runs out after the last key
			h.app.Update(lateOverMsg{seq: h.app.holdSeq}) // and LateEnd after it
			ended := slices.Contains(desk.msgs, "ui.ScanEndMsg")
			if ended != c.wantEnded {
				t.Fatalf("ended %v, want %v (messages %v, keys %v)", ended, c.wantEnded, desk.msgs, desk.keys)
			}
		})
	}
	// Elsewhere a code with no end is ignored, and ends nothing.
	h := newHarness(t)
	h.typeTimed(typed(code, ms(4), ""))
	h.app.Update(lateOverMsg{seq: h.app.holdSeq})
	if slices.Contains(h.roots["Events"].msgs, "ui.ScanEndMsg") {
		t.Fatal("a screen that takes no scans was told a code ended")
	}
}

// A key no scanner types as text (a control character) inside a scanner's
// burst is part of the scan: it never acts, and the screen that takes scans
// is told the code is garbled, so no part of it is read as a badge. The
// same key in a person's quick typing acts once the run ends.
func TestAControlKeyInsideAScanGarblesIt(t *testing.T) {
	ctrl := func(r rune) typing {
		return typing{{ms(3), tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl}}}
	}
	midScan := typed("jin.jen", ms(3), "").then(ms(3), ctrl('b')).then(ms(3), typed("sen@example.com", ms(3), "enter"))
	early := typed("xyz", ms(3), "").then(ms(3), ctrl('a')).then(ms(3), typed("jin.jensen@example.com", ms(3), "enter"))
	for _, c := range []struct {
		name  string
		sorts bool // a form over the desk: the gate sorts the keys
		keys  typing
	}{
		{"inside a code at the bare desk", false, midScan},
		{"before the run is known for a scan, at the bare desk", false, early},
		{"inside a code with a form over the desk", true, midScan},
		{"before the run is known for a scan, with a form over the desk", true, early},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, WithSection("Check-in"))
			desk := h.roots["Check-in"]
			desk.scans, desk.sorts = true, c.sorts
			h.typePaused(c.keys)
			got := received(desk)
			if strings.Contains(got, "ctrl+") || !slices.Contains(desk.msgs, "ui.ScanGarbledMsg") {
				t.Fatalf("the desk got %q, messages %q", got, desk.msgs)
			}
		})
	}

	t.Run("a person's quick key acts when the run ends", func(t *testing.T) {
		h := newHarness(t, WithSection("Check-in"))
		desk := h.roots["Check-in"]
		desk.scans = true
		h.typePaused(typed("ab", ms(120), "").then(ms(10), ctrl('a')))
		if got := strings.Join(desk.keys, " "); got != "a b ctrl+a" || slices.Contains(desk.msgs, "ui.ScanGarbledMsg") {
			t.Fatalf("keys %q, messages %q", got, desk.msgs)
		}
	})

	t.Run("a key no scanner sends acts at once, even within a run", func(t *testing.T) {
		h := newHarness(t, WithSection("Check-in"))
		desk := h.roots["Check-in"]
		desk.scans = true
		for _, k := range append(typed("ab", ms(3), ""), typing{{ms(3), tea.KeyPressMsg{Code: tea.KeyEnd}}}...) {
			h.app.Update(k.key)
		}
		if got := strings.Join(desk.keys, " "); got != "a b end" {
			t.Fatalf("keys %q before the run ended", got)
		}
	})

	t.Run("outside the desk a scan's control key acts nowhere", func(t *testing.T) {
		h := newHarness(t)
		events := h.roots["Events"]
		h.typeTimed(midScan)
		if slices.ContainsFunc(events.keys, func(k string) bool { return strings.HasPrefix(k, "ctrl+") }) {
			t.Fatalf("the events screen got %q", events.keys)
		}
	})
}
