package phone

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
	"github.com/evdesk/evdesk/ui"
)

// statusPage is what shows before any settings arrived: loading, the 403
// explanation, or the error with a way forward.
func (s *Screen) statusPage() string {
	th := s.Ctx.Theme
	var title, badge string
	var body []string
	var apiErr *api.Error
	switch {
	case s.err == nil:
		return ui.Fit(th.Muted.Render("  loading phone settings..."), s.Width(), s.Height())
	case api.IsPhoneNotSetUp(s.err):
		badge, title = " PHONE NOT SET UP ", "Phone service is not set up on this account"
		body = []string{
			"The account's phone settings cannot be read: the server answered 403, phone service has not been set up.",
			"",
			"To use phone features, the account needs:",
			"- a Business or Enterprise plan, and",
			"- a phone licence, with phone service set up by an account owner or admin.",
			"",
			"Once that is done, press r to try again. The other sections of the console keep working.",
		}
	case errors.As(s.err, &apiErr) && apiErr.Status == 403:
		badge, title = " NO ACCESS ", "This sign-in may not read phone settings"
		body = []string{
			"The server answered 403: " + apiErr.Meaning() + ".",
			"",
			"Reading phone settings needs the " + api.PhoneScope + " scope (or " + api.PhoneGranularScope + "). " +
				"Sign in again with it (evdesk login), or ask an admin to add it to the app.",
			"",
			"Press r to try again.",
		}
	default:
		badge, title = " ERROR ", "Phone settings could not be loaded"
		body = []string{s.err.Error(), "", "Press r to try again."}
	}
	inner := min(76, max(20, s.Width()-8))
	lines := []string{th.ErrorBadge.Render(badge) + " " + th.Title.Render(title), ""}
	for _, b := range body {
		lines = append(lines, wrap(lipgloss.NewStyle(), b, inner)...)
	}
	box := th.Border.Padding(1, 2).Render(strings.Join(lines, "\n"))
	return ui.Fit(lipgloss.Place(s.Width(), s.Height(), lipgloss.Center, lipgloss.Center, box), s.Width(), s.Height())
}

// openPathForm asks for the snapshot file to compare with or save to.
func (s *Screen) openPathForm(op string) tea.Cmd {
	path := new(string)
	*path = s.snapPath
	if *path == "" {
		*path = "phone-policy.json"
	}
	title, desc := "Compare with a snapshot", "A file saved with w here or with `evdesk phone settings --save`."
	validate := func(v string) error {
		_, err := snapshot.Load(expand(v))
		return err
	}
	if op == "save" {
		title, desc = "Save a snapshot", "The settings as loaded now; an existing file is replaced only if you say so."
		validate = func(v string) error {
			v = expand(v)
			if strings.TrimSpace(v) == "" {
				return errors.New("enter a file name")
			}
			if fi, err := os.Stat(filepath.Dir(v)); err != nil || !fi.IsDir() {
				return fmt.Errorf("folder %s does not exist", filepath.Dir(v))
			}
			return nil
		}
	}
	f := ui.NewForm(s.Ctx.Theme, title,
		func() tea.Cmd {
			p := expand(*path)
			if op != "save" {
				return s.onPath(op, p)
			}
			return s.Dialog.Replace(s.Ctx.Theme, p, func() tea.Cmd { return s.onPath(op, p) })
		},
		huh.NewGroup(huh.NewInput().Title("File").Description(desc).Value(path).Validate(validate)))
	return s.Dialog.ShowForm(f)
}

// expand trims the path and expands a leading ~/.
func expand(p string) string {
	p = strings.TrimSpace(p)
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// onPath saves a snapshot to path (op "save") or reads one to compare
// with (op "diff").
func (s *Screen) onPath(op, path string) tea.Cmd {
	if op == "save" {
		settings, now, source := s.settings, s.env.Now(), s.Ctx.Profile
		return s.writing.Detached(func() tea.Msg {
			snap, err := snapshot.New(settings, nil, source, now)
			if err == nil {
				err = snapshot.Save(path, snap)
			}
			return savedMsg{path: path, n: settings.Len(), err: err}
		})
	}
	return s.reading.Run(func(context.Context) tea.Msg {
		snap, err := snapshot.Load(path)
		return snapshotMsg{path: path, snap: snap, err: err}
	})
}

func (s *Screen) onSnapshot(m snapshotMsg) tea.Cmd {
	if m.err != nil {
		return ui.Fail("Reading the snapshot", m.err)
	}
	s.snap, s.snapPath = m.snap, m.path
	if err := s.compare(); err != nil {
		return ui.Fail("Compare", err)
	}
	if len(s.changes) == 0 {
		s.refresh()
		return ui.Toast(ui.ToastSuccess, "No changes since "+m.path)
	}
	s.filter = filterChanged
	s.refresh()
	return ui.Push(newDiffScreen(s.Ctx, m.path, s.snap, s.changes))
}

// compare diffs the loaded snapshot against the settings on screen.
func (s *Screen) compare() error {
	changes, err := s.snap.Compare(s.settings)
	if err != nil {
		s.changes, s.changed = nil, nil
		return err
	}
	s.changes = changes
	s.changed = map[string]int{}
	for _, c := range changes {
		s.changed[c.Setting()]++
	}
	return nil
}
