package phone

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/baseline"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
	"github.com/evdesk/evdesk/ui"
)

// Audits: a baseline the policy must meet, and another account's policy
// beside this one.

type (
	baselineMsg struct {
		path  string
		base  *baseline.Baseline
		err   error
		asked bool // with B, not from the profile
	}
	otherMsg struct {
		name     string
		client   *api.Client
		settings *api.PhoneSettings
		err      error
	}
)

// audit is what the screen knows from a baseline and from another account.
type audit struct {
	base     *baseline.Baseline
	basePath string
	results  []baseline.Result
	failing  map[string]int // setting key -> failed expectations

	other       *api.PhoneSettings
	otherName   string
	otherClient *api.Client
	diffs       []snapshot.Change // this account (before) against the other (after)
	differs     map[string]int    // setting key -> differences
}

// failed counts the failed expectations.
func (a *audit) failed() int {
	n := 0
	for _, r := range a.results {
		if !r.Pass {
			n++
		}
	}
	return n
}

// loadBaseline reads a baseline file in the background; asked says the
// user asked for it (B) rather than the profile naming it.
func (s *Screen) loadBaseline(path string, asked bool) tea.Cmd {
	return s.baseReading.Run(func(context.Context) tea.Msg {
		b, err := baseline.Load(path)
		return baselineMsg{path: path, base: b, err: err, asked: asked}
	})
}

// openBaselineForm asks for a baseline file; the form refuses one that does
// not read or does not fit these settings, naming the line.
func (s *Screen) openBaselineForm() tea.Cmd {
	path := new(string)
	*path = s.audit.basePath
	if *path == "" {
		*path = "phone-baseline.toml"
	}
	settings := s.settings
	f := ui.NewForm(s.Ctx.Theme, "Check against a baseline",
		func() tea.Cmd { return s.loadBaseline(expand(*path), true) },
		huh.NewGroup(huh.NewInput().Title("File").
			Description("TOML: under [expect], settings paths and what they must be (see `evdesk phone check --help`).").
			Value(path).Validate(func(v string) error {
			b, err := baseline.Load(expand(v))
			if err == nil {
				_, err = b.Check(settings)
			}
			return err
		})))
	return s.Dialog.ShowForm(f)
}

// onBaseline checks the settings against a baseline that was read. One
// asked for with B brings the failing filter up; the profile's own one
// only marks the list.
func (s *Screen) onBaseline(m baselineMsg) tea.Cmd {
	asked := m.asked
	if m.err != nil {
		return ui.Fail("Reading the baseline", m.err)
	}
	s.audit.base, s.audit.basePath = m.base, m.path
	if s.settings == nil {
		return nil // checked when the settings arrive
	}
	if err := s.check(); err != nil {
		s.refresh()
		return ui.Fail("Checking the baseline", err)
	}
	failed := s.audit.failed()
	if asked && failed > 0 {
		s.filter = filterFailing
	}
	s.refresh()
	if !asked {
		return nil
	}
	verdict := fmt.Sprintf("FAIL: %d of %s of %s fail", failed, ui.Count(len(s.audit.results), "expectation"), filepath.Base(m.path))
	level := ui.ToastInfo
	if failed == 0 {
		verdict, level = fmt.Sprintf("PASS: %s of %s hold", ui.Count(len(s.audit.results), "expectation"), filepath.Base(m.path)), ui.ToastSuccess
	}
	if w := m.base.Warnings(); len(w) > 0 { // the details name each field and its replacement
		verdict += fmt.Sprintf("; %s on deprecated fields (see each one's details)", ui.Count(len(w), "expectation"))
		level = ui.ToastInfo
	}
	return ui.Toast(level, verdict)
}

// deprecatedNote is " (deprecated: use X and Y)" for a path the provider
// deprecated, with the replacements written within the setting key; ""
// otherwise.
func deprecatedNote(path, key string) string {
	if use := replacementOf(path, key); use != "" {
		return " (DEPRECATED: " + use + ")"
	}
	return ""
}

// replacementOf is "use X and Y" for a deprecated path, its replacements
// written within the setting key; "" for a path not deprecated.
func replacementOf(path, key string) string {
	d, ok := api.PhoneDeprecation(path)
	if !ok {
		return ""
	}
	instead := make([]string, len(d.Instead))
	for i, p := range d.Instead {
		instead[i] = fieldOf(p, key)
	}
	return "use " + strings.Join(instead, " and ")
}

// check compares the settings with the baseline; a baseline that does not
// fit them is dropped, so no stale verdict stays on screen.
func (s *Screen) check() error {
	a := &s.audit
	results, err := a.base.Check(s.settings)
	if err != nil {
		a.base, a.results, a.failing = nil, nil, nil
		if s.filter == filterFailing {
			s.filter = filterAll
		}
		return err
	}
	a.results, a.failing = results, map[string]int{}
	for _, r := range results {
		if !r.Pass {
			a.failing[settingOf(r.Path)]++
		}
	}
	return nil
}

// settingOf is the setting a dotted path starts with.
func settingOf(path string) string { return snapshot.Change{Path: path}.Setting() }

// openCompareForm asks for the profile whose account to show beside this
// one.
func (s *Screen) openCompareForm() tea.Cmd {
	name := new(string)
	*name = s.audit.otherName
	if *name == "" {
		*name = s.env.OtherProfile
	}
	this := s.Ctx.Profile
	f := ui.NewForm(s.Ctx.Theme, "Compare with another profile",
		func() tea.Cmd { return s.loadOther(strings.TrimSpace(*name), nil) },
		huh.NewGroup(huh.NewInput().Title("Profile").
			Description("A profile of the config file with its own credentials (a login or token_env).").
			Value(name).Validate(func(v string) error {
			switch v = strings.TrimSpace(v); {
			case v == "":
				return errors.New("enter a profile name")
			case v == this:
				return fmt.Errorf("%s is the profile on screen: name another", v)
			}
			return nil
		})))
	return s.Dialog.ShowForm(f)
}

// loadOther opens profile name (unless client, its client, is given) and
// reads its account's settings in the background.
func (s *Screen) loadOther(name string, client *api.Client) tea.Cmd {
	open := s.env.OpenProfile
	return s.otherLoader.Run(func(ctx context.Context) tea.Msg {
		if client == nil {
			var err error
			if client, err = open(name); err != nil {
				return otherMsg{name: name, err: err}
			}
		}
		st, err := client.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{})
		return otherMsg{name: name, client: client, settings: st, err: err}
	})
}

// onOther shows the other account beside this one, the differences
// marked; a first comparison brings the "different" filter up.
func (s *Screen) onOther(m otherMsg) tea.Cmd {
	if m.err != nil {
		return ui.Fail("Reading profile "+m.name+"'s phone settings", m.err)
	}
	a := &s.audit
	first := a.otherName != m.name
	a.other, a.otherName, a.otherClient = m.settings, m.name, m.client
	if s.settings == nil {
		return nil // compared when this account's settings arrive
	}
	if err := s.diff(); err != nil {
		s.refresh()
		return ui.Fail("Comparing with profile "+m.name, err)
	}
	if first && len(a.differs) > 0 {
		s.filter = filterDifferent
	}
	s.refresh()
	if !first {
		return nil
	}
	if len(a.diffs) == 0 {
		return ui.Toast(ui.ToastSuccess, "The phone settings of "+s.thisName()+" and "+m.name+" are the same")
	}
	return ui.Toast(ui.ToastInfo, fmt.Sprintf("%s in %s differ from %s", ui.Count(len(a.diffs), "value"),
		ui.Count(len(a.differs), "setting"), m.name))
}

// diff lists what differs between this account and the other; when they
// cannot be compared the other account is dropped, so no stale marks stay.
func (s *Screen) diff() error {
	a := &s.audit
	diffs, err := diffSettings(s.settings, a.other)
	if err != nil {
		a.other, a.otherName, a.otherClient, a.diffs, a.differs = nil, "", nil, nil, nil
		if s.filter == filterDifferent {
			s.filter = filterAll
		}
		return err
	}
	a.diffs, a.differs = diffs, map[string]int{}
	for _, c := range a.diffs {
		a.differs[c.Setting()]++
	}
	return nil
}

// diffSettings lists, by path, what differs from this to other.
func diffSettings(this, other *api.PhoneSettings) ([]snapshot.Change, error) {
	a, err := json.Marshal(this)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(other)
	if err != nil {
		return nil, err
	}
	return snapshot.Diff(a, b)
}

// thisName names this account's side: its profile.
func (s *Screen) thisName() string {
	if s.Ctx.Profile == "" {
		return "this profile"
	}
	return s.Ctx.Profile
}

// notesOf gathers what the screen knows about one setting besides its
// value.
func (s *Screen) notesOf(key string) notes {
	n := notes{this: s.thisName(), baseFile: filepath.Base(s.audit.basePath),
		deprecated: deprecationsOf(s.env.Changelog, s.settings, key)}
	if o := s.audit.other; o != nil {
		n.other, n.otherState = s.audit.otherName, itemOf(o, key).stateAndLock()
	}
	for _, c := range s.changes {
		if c.Setting() == key {
			n.changes = append(n.changes, c)
		}
	}
	for _, r := range s.audit.results {
		if settingOf(r.Path) == key {
			n.results = append(n.results, r)
		}
	}
	for _, c := range s.audit.diffs {
		if c.Setting() == key {
			n.diffs = append(n.diffs, c)
		}
	}
	return n
}

// notes are what the screen knows about one setting besides its value:
// its changes since the snapshot, the baseline's verdicts on it, and how it
// differs from the other account.
type notes struct {
	changes     []snapshot.Change
	results     []baseline.Result
	baseFile    string
	diffs       []snapshot.Change
	this, other string       // the profiles compared ("" other: none)
	otherState  string       // the setting's state in the other account
	deprecated  []fieldEntry // fields the change log deprecates (changelog.go)
}

// lines puts the notes in words, wrapped to width.
func (n notes) lines(th *ui.Theme, key string, width int) []string {
	var out []string
	if len(n.results) > 0 {
		out = append(out, "", th.Header.Render("Baseline "+n.baseFile))
		for _, r := range n.results {
			verdict, style := "PASS", th.Success
			if !r.Pass {
				verdict, style = "FAIL", th.Error
			}
			out = append(out, wrap(style, fmt.Sprintf("- %s %s: is %s, expected %s%s", verdict, fieldOf(r.Path, key),
				orAbsent(r.Actual), r.Expectation, deprecatedNote(r.Path, key)), width)...)
		}
	}
	if len(n.diffs) > 0 {
		out = append(out, "", th.Header.Render("DIFF from "+n.other))
		for _, c := range n.diffs {
			out = append(out, wrap(th.Warning, fmt.Sprintf("- %s: %s in %s, %s in %s%s", fieldOf(c.Path, key),
				orAbsent(c.Before), n.this, orAbsent(c.After), n.other, deprecatedNote(c.Path, key)), width)...)
		}
	}
	if len(n.changes) > 0 {
		out = append(out, "", th.Header.Render("* Changed since the snapshot"))
		for _, ch := range n.changes {
			out = append(out, wrap(th.Warning, "- "+ch.String()+deprecatedNote(ch.Path, key), width)...)
		}
	}
	return append(out, changelogLines(th, n.deprecated, width)...)
}

// fieldOf is a path within its setting ("expiration_period" of
// "call_park.expiration_period").
func fieldOf(path, key string) string {
	if rel := strings.TrimPrefix(strings.TrimPrefix(path, key), "."); rel != "" {
		return rel
	}
	return "(whole setting)"
}

func orAbsent(v json.RawMessage) string {
	if v == nil {
		return "absent"
	}
	return string(v)
}
