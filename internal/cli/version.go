package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/internal/words"
)

// version, commit and date, when set at build time (a release:
// -ldflags "-X github.com/evdesk/evdesk/internal/cli.version=1.2.3 -X
// ...cli.commit=abc123 -X ...cli.date=2026-11-26T10:00:00Z"), override what
// the build information says (a release is built from a clean tree whose
// module version is unknown to Go).
var version, commit, date = "", "", ""

// buildVersion is what a binary knows of its making.
type buildVersion struct {
	Version   string // the module version (a tag or a pseudo-version), or "dev"
	Revision  string // the VCS commit, "" when not built from a checkout
	Time      string // the commit's time (RFC 3339)
	Modified  bool   // the checkout had uncommitted changes
	GoVersion string
	Platform  string // GOOS/GOARCH
}

// readBuildVersion reads the build information: `go install
// github.com/evdesk/evdesk@v1.2.3` records the module version, a build
// in a git checkout the revision as well (and, since Go 1.24, a
// pseudo-version such as v0.0.0-20260102030405-abcdef123456+dirty).
func readBuildVersion(override string, read func() (*debug.BuildInfo, bool)) buildVersion {
	v := readBuildInfo(override, read)
	if commit != "" {
		v.Revision = commit
	}
	if date != "" {
		v.Time = date
	}
	return v
}

func readBuildInfo(override string, read func() (*debug.BuildInfo, bool)) buildVersion {
	v := buildVersion{Version: "dev", GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := read()
	if ok {
		if m := info.Main.Version; m != "" && m != "(devel)" {
			v.Version = m
		}
		if info.GoVersion != "" {
			v.GoVersion = info.GoVersion
		}
		var goos, goarch string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			case "GOOS":
				goos = s.Value
			case "GOARCH":
				goarch = s.Value
			}
		}
		if goos != "" && goarch != "" {
			v.Platform = goos + "/" + goarch
		}
	}
	if override != "" {
		v.Version = override
	}
	return v
}

// write prints the version on the first line, for scripts, then what else
// is known, one "key: value" a line.
func (v buildVersion) write(w io.Writer) error {
	_, err := fmt.Fprintf(w, "evdesk %s\n", v.Version)
	if err == nil && v.Revision != "" {
		modified := "no"
		if v.Modified {
			modified = "yes (uncommitted changes)"
		}
		_, err = fmt.Fprintf(w, "revision: %s\ncommitted: %s\nmodified: %s\n", v.Revision, words.OrDash(v.Time), modified)
	}
	if err == nil && v.Revision == "" && v.Version == "dev" {
		_, err = fmt.Fprintln(w, "revision: "+noRevision)
	}
	if err == nil {
		_, err = fmt.Fprintf(w, "go: %s %s\n", v.GoVersion, v.Platform)
	}
	return err
}

// noRevision says why a build from source knows no commit: Go records
// the VCS revision only for `go build` or `go install` in a git clone's
// own working tree, never for `go run`, nor in a linked worktree (Go looks
// for a .git folder; golang/go#58218), nor with -buildvcs=false.
const noRevision = "not recorded (built with go run, in a linked git worktree, or with -buildvcs=false; " +
	"`go build` in a clone records it, and a release carries it)"

// version is the version the binary reports (and sends as its user agent).
func (f *Factory) version() string { return readBuildVersion(version, f.BuildInfo).Version }

// versionLine is what `evdesk --version` prints: the version and, when
// known, the commit it was built from.
func (f *Factory) versionLine() string {
	v := readBuildVersion(version, f.BuildInfo)
	line := "evdesk " + v.Version
	if v.Revision != "" {
		line += " (" + shortCommit(v.Revision)
		if v.Time != "" {
			line += ", " + v.Time
		}
		line += ")"
	} else if v.Version == "dev" {
		line += " (no revision recorded: see `evdesk version`)"
	}
	return line + "\n"
}

func shortCommit(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// versionOptions are version's: what the binary knows of its making.
type versionOptions struct {
	deps
	Build buildVersion
}

func newVersionCmd(f *Factory, runF runFunc[versionOptions]) *cobra.Command {
	o := &versionOptions{deps: f.deps()}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the evdesk version, the commit it was built from and the Go release",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Build = readBuildVersion(version, f.BuildInfo)
			return run(cmd, o, runF, func(_ context.Context, o *versionOptions) error { return o.Build.write(o.IO.Out) })
		},
	}
}
