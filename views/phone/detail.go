package phone

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/policy"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
)

// DetailScreen shows one setting in full: in words, or as the raw JSON the
// server sent.
type DetailScreen struct {
	ui.ScreenBase
	settings *api.PhoneSettings
	key      string
	raw      bool
	notes    notes
	vp       viewport.Model
}

func newDetail(ctx *ui.Context, st *api.PhoneSettings, k string, raw bool, n notes) *DetailScreen {
	s := &DetailScreen{settings: st, key: k, raw: raw, notes: n, vp: ui.NewViewport(ctx.Keys)}
	s.ScreenBase = scrolling(ctx, s.actions, &s.vp)
	return s
}

// scrolling is the base of a page that scrolls in vp.
func scrolling(ctx *ui.Context, actions func() ui.Actions, vp *viewport.Model) ui.ScreenBase {
	scroll := scrollKeys(ctx.Keys)
	return ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: actions, Help: scroll[:2], Nav: scroll, Body: ui.Feed(vp)})
}

// actions: the detail screen only switches between words and JSON.
func (s *DetailScreen) actions() ui.Actions {
	as := ui.Actions{{Key: s.Ctx.Keys.Raw, Help: "words / raw JSON", Run: s.toggleRaw}}
	if link := changelogLink(s.notes.deprecated); link != "" {
		as = append(as, ui.Action{Key: s.Ctx.Keys.Browse, Help: "open the change log entry",
			Run: func() tea.Cmd { return ui.Browse(s.Ctx, link) }})
	}
	return as
}

func (s *DetailScreen) toggleRaw() tea.Cmd {
	s.raw = !s.raw
	s.refresh()
	s.vp.GotoTop()
	return nil
}

func (s *DetailScreen) Title() string {
	if s.raw {
		return policy.Title(s.key) + " (raw)"
	}
	return policy.Title(s.key)
}

func (s *DetailScreen) Init() tea.Cmd { return nil }

func (s *DetailScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) { return s, s.ScreenBase.Update(msg) }

func (s *DetailScreen) SetSize(w, h int) {
	s.ScreenBase.SetSize(w, h)
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(1, h))
	s.refresh()
}

// refresh rebuilds the viewport's text; called on toggles and resizes,
// never from View.
func (s *DetailScreen) refresh() {
	th := s.Ctx.Theme
	w := max(20, s.Width()-2)
	var lines []string
	if s.raw {
		raw, _ := s.settings.Raw(s.key)
		lines = append(lines, th.Title.Render(policy.Title(s.key))+th.Muted.Render("  as received ("+s.key+")"), "")
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, raw, "", "  "); err != nil {
			pretty.Reset()
			pretty.Write(raw)
		}
		for _, l := range strings.Split(pretty.String(), "\n") {
			lines = append(lines, l+rawDeprecation(th, l, s.key))
		}
		lines = append(lines, "", th.Muted.Render(kindNote(s.key)), th.Muted.Render("J shows it in words"))
	} else {
		lines = explain(th, s.settings, s.key, s.notes, w)
		if fields := s.settings.Fields(s.key); len(fields) > 0 {
			for i, f := range fields {
				if _, ok := api.PhoneDeprecation(s.key + "." + f); ok {
					fields[i] = f + " (DEPRECATED)"
				}
			}
			lines = append(lines, "", th.Header.Render("Fields"),
				th.Muted.Render(wrapJoin(fields, w)))
		}
		lines = append(lines, "", th.Muted.Render(kindNote(s.key)), th.Muted.Render("J shows the raw JSON"))
	}
	lines = strings.Split(strings.Join(lines, "\n"), "\n")
	for i, l := range lines {
		lines[i] = " " + l
	}
	s.vp.SetContent(strings.Join(lines, "\n"))
}

// rawDeprecation marks a line of a setting's raw JSON that holds a field
// the provider deprecated (a key at the setting's top level, as
// json.Indent writes it): "  <- DEPRECATED: use ...".
func rawDeprecation(th *ui.Theme, line, key string) string {
	name, ok := strings.CutPrefix(line, `  "`)
	if !ok || strings.HasPrefix(name, " ") {
		return ""
	}
	name, _, ok = strings.Cut(name, `":`)
	if !ok {
		return ""
	}
	use := replacementOf(key+"."+name, key)
	if use == "" {
		return ""
	}
	return th.Warning.Render("  <- DEPRECATED: " + use)
}

func kindNote(k string) string {
	switch api.KindOfPhoneSetting(k) {
	case api.PhoneSettingUnshown:
		return "The spec does not show this setting's fields: they are kept as received."
	case api.PhoneSettingUnknown:
		return "Not one of the spec's 43 settings: kept as received."
	}
	return fmt.Sprintf("One of the spec's %d settings.", len(api.PhoneSettingTypes))
}

// wrapJoin joins words with ", " into lines of at most w cells.
func wrapJoin(words []string, w int) string {
	var b strings.Builder
	n := 0
	for i, word := range words {
		piece := word
		if i < len(words)-1 {
			piece += ","
		}
		if n > 0 && n+1+len(piece) > w {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(piece)
		n += len(piece)
	}
	return b.String()
}

func (s *DetailScreen) View() string { return s.vp.View() }

// scrollKeys are the keys a scrolling page moves with.
func scrollKeys(k *ui.GlobalKeys) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown}
}

// DiffScreen lists what changed since a snapshot, setting by setting.
type DiffScreen struct {
	ui.ScreenBase
	path    string
	snap    *snapshot.Snapshot
	changes []snapshot.Change
	vp      viewport.Model
}

func newDiffScreen(ctx *ui.Context, path string, snap *snapshot.Snapshot, changes []snapshot.Change) *DiffScreen {
	s := &DiffScreen{path: path, snap: snap, changes: changes, vp: ui.NewViewport(ctx.Keys)}
	s.ScreenBase = scrolling(ctx, nil, &s.vp)
	return s
}

func (s *DiffScreen) Title() string { return "Changes since snapshot" }

func (s *DiffScreen) Init() tea.Cmd { return nil }

func (s *DiffScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) { return s, s.ScreenBase.Update(msg) }

func (s *DiffScreen) SetSize(w, h int) {
	s.ScreenBase.SetSize(w, h)
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(1, h))
	s.vp.SetContent(renderChanges(s.Ctx.Theme, s.path, s.snap, s.changes, w))
}

func (s *DiffScreen) View() string { return s.vp.View() }

// renderChanges lists changes under their setting's title, with a word and
// a mark (+ added, - removed, ~ changed) for each.
func renderChanges(th *ui.Theme, path string, snap *snapshot.Snapshot, changes []snapshot.Change, width int) string {
	settings := map[string]bool{}
	for _, c := range changes {
		settings[c.Setting()] = true
	}
	head := fmt.Sprintf("%s in %s since %s", ui.Count(len(changes), "change"), ui.Count(len(settings), "setting"), snapLabel(path, snap))
	if snap.Source != "" {
		head += ", from " + snap.Source
	}
	out := wrap(th.Title, sanitize.Line(head), width-2)
	last := ""
	for _, c := range changes {
		if k := c.Setting(); k != last {
			out = append(out, "", th.Header.Render(sanitize.Line(policy.Title(k)))+th.Muted.Render("  "+sanitize.Line(k)))
			last = k
		}
		mark, style := "~ changed", th.Warning
		switch c.Kind {
		case snapshot.Added:
			mark, style = "+ added  ", th.Success
		case snapshot.Removed:
			mark, style = "- removed", th.Error
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(c.Path, c.Setting()), ".")
		if rel == "" {
			rel = "(whole setting)"
		}
		rel += deprecatedNote(c.Path, c.Setting())
		val := ""
		switch c.Kind {
		case snapshot.Added:
			val = string(c.After)
		case snapshot.Removed:
			val = "was " + string(c.Before)
		default:
			val = string(c.Before) + " -> " + string(c.After)
		}
		// The snapshot is a file from anywhere: its text is untrusted.
		for i, l := range wrap(th.Muted, sanitize.Line(rel+": "+val), max(20, width-14)) {
			prefix := "            "
			if i == 0 {
				prefix = "  " + style.Render(mark) + " "
			}
			out = append(out, prefix+l)
		}
	}
	for i := range out {
		out[i] = " " + out[i]
	}
	return strings.Join(out, "\n")
}
