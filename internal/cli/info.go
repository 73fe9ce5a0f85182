package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	xterm "github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/words"
)

// infoReport is what `evdesk info` prints: what a user debugging an
// account (or the person helping them) needs to know first.
type infoReport struct {
	Version  buildVersion `json:"version"`
	Paths    infoPaths    `json:"paths"`
	Profile  infoProfile  `json:"profile"`
	Keyring  string       `json:"keyring"`
	Terminal infoTerminal `json:"terminal"`
}

type infoPaths struct {
	Config   string `json:"config"`
	State    string `json:"state"`
	Cache    string `json:"cache"`
	Journals string `json:"journals"`
	Log      string `json:"log"`
}

type infoProfile struct {
	Name     string `json:"name"`
	ChosenBy string `json:"chosen_by"`
	Source   string `json:"source"`
	BaseURL  string `json:"base_url,omitempty"`
	Error    string `json:"error,omitempty"`
}

type infoTerminal struct {
	ColorProfile string `json:"color_profile"`
	Background   string `json:"background"`
	NoColor      bool   `json:"no_color"`
}

// infoOptions are `evdesk info`'s.
type infoOptions struct {
	deps
	Export   *exporter
	report   func() infoReport
	Terminal func() infoTerminal
}

func newInfoCmd(f *Factory, runF runFunc[infoOptions]) *cobra.Command {
	o := &infoOptions{deps: f.deps(), Terminal: detectTerminal}
	o.report = func() infoReport { return f.infoReport(o.Terminal()) }
	cmd := &cobra.Command{
		Use:   "info",
		Short: "Print the version, paths, profile, keyring and terminal evdesk sees (for bug reports)",
		Long: "Print what evdesk sees on this computer: its version and commit, the paths of the config\n" +
			"file, the state, cache, check-in journals and log, the profile in use and where it comes\n" +
			"from, the keyring it keeps credentials in, and the terminal's colour profile and\n" +
			"background. It prints no secret and makes no request.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, o, runF, func(_ context.Context, o *infoOptions) error {
				r := o.report()
				return o.Export.WriteText(o.IO.Out, r, func(w io.Writer) error { return r.write(w) })
			})
		},
	}
	o.Export = addExporter(cmd, "text", formatJSON)
	return cmd
}

// infoReport gathers the report; terminal is what the terminal said.
func (f *Factory) infoReport(terminal infoTerminal) infoReport {
	r := infoReport{Version: readBuildVersion(version, f.BuildInfo), Terminal: terminal,
		Paths: infoPaths{Config: config.Path(), State: config.StateDir(), Cache: config.CacheDir(),
			Journals: config.JournalDir(), Log: config.LogPath()}}
	r.Profile = f.infoProfile()
	r.Keyring = keyringReport(f.AuthStore(auth.StoreOptions{}))
	return r
}

// infoProfile names the profile in use, what chose it and where its
// values come from.
func (f *Factory) infoProfile() infoProfile {
	if f.flags.demo {
		return infoProfile{Name: "demo", ChosenBy: "--demo", Source: "the embedded simulator"}
	}
	ip := infoProfile{ChosenBy: "the default"}
	file, ferr := config.ReadFile(config.Path())
	switch {
	case f.flags.profile != "":
		ip.ChosenBy = "--profile"
	case f.Getenv(config.EnvProfile) != "":
		ip.ChosenBy = config.EnvProfile
	case ferr == nil && file.DefaultProfile != "":
		ip.ChosenBy = "default_profile in " + config.Path()
	}
	p, err := f.Profile(f.flags.profile)
	if err != nil {
		ip.Name, ip.Error = words.OrDash(f.flags.profile), err.Error()
		return ip
	}
	ip.Name, ip.BaseURL, ip.Source = p.Name, redactURLUserinfo(p.BaseURL), p.File
	if ip.Source == "" {
		ip.Source = "the environment"
	}
	return ip
}

// keyringReport names the platform's keyring and whether it answers.
func keyringReport(st *auth.Store) string {
	name := map[string]string{"linux": "Secret Service (D-Bus)", "darwin": "macOS Keychain",
		"windows": "Windows Credential Manager"}[runtime.GOOS]
	if name == "" {
		name = runtime.GOOS + " keyring"
	}
	if err := st.Probe(); err != nil {
		return name + ": unavailable (" + err.Error() + "); `evdesk login --insecure-storage` keeps credentials in a 0600 file"
	}
	return name + ": available"
}

// detectTerminal asks the real terminal: its colour profile from the
// environment, its background by a query (only when both ends are one).
func detectTerminal() infoTerminal {
	t := infoTerminal{ColorProfile: colorprofile.Detect(os.Stdout, os.Environ()).String(), Background: "unknown (not a terminal)",
		NoColor: os.Getenv("NO_COLOR") != ""}
	if xterm.IsTerminal(os.Stdin.Fd()) && xterm.IsTerminal(os.Stdout.Fd()) {
		t.Background = "unknown (the terminal did not say)"
		if bg, err := lipgloss.BackgroundColor(os.Stdin, os.Stdout); err == nil && bg != nil {
			r, g, b, _ := bg.RGBA()
			shade := "light"
			if lipgloss.HasDarkBackground(os.Stdin, os.Stdout) {
				shade = "dark"
			}
			t.Background = fmt.Sprintf("%s (#%02x%02x%02x)", shade, r>>8, g>>8, b>>8)
		}
	}
	return t
}

func (r infoReport) write(w io.Writer) error {
	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "%-16s %s\n", k+":", v) }
	rev := r.Version.Revision
	if rev == "" {
		rev = "-"
	}
	row("version", r.Version.Version+" (commit "+rev+", "+r.Version.GoVersion+" "+r.Version.Platform+")")
	row("config file", r.Paths.Config)
	row("state", r.Paths.State)
	row("cache", r.Paths.Cache)
	row("journals", r.Paths.Journals)
	row("log", r.Paths.Log)
	prof := r.Profile.Name + " (chosen by " + r.Profile.ChosenBy
	if r.Profile.Source != "" {
		prof += "; values from " + r.Profile.Source
	}
	row("profile", prof+")")
	if r.Profile.BaseURL != "" {
		row("base url", r.Profile.BaseURL)
	}
	if r.Profile.Error != "" {
		row("profile error", r.Profile.Error)
	}
	row("keyring", r.Keyring)
	colour := r.Terminal.ColorProfile
	if r.Terminal.NoColor {
		colour += " (NO_COLOR set: no colours)"
	}
	row("colours", colour)
	row("background", r.Terminal.Background)
	_, err := io.WriteString(w, b.String())
	return err
}
