// Package cli holds evdesk's commands: the root command that opens the
// console, and the subcommands for scripts. A Factory hands every command
// its streams and opens the session (API clients, logging, deadline) on
// demand; tests run the root command with in-memory streams.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Run runs the command line args and returns the exit status (see
// `evdesk help exit-codes`), after printing the error (sanitised) if there
// is one.
func Run(ctx context.Context, f *Factory, args []string) int {
	err := f.Execute(ctx, args)
	code := exitCode(ctx, err)
	if err != nil {
		reportError(f.IOStreams.ErrOut, code, err, f.profileInUse())
	}
	_ = f.IOStreams.Flush()
	return code
}

// Execute runs the command line args on a fresh command tree and returns
// the command's error, a --timeout explained.
func (f *Factory) Execute(ctx context.Context, args []string) error {
	root := NewRootCmd(f)
	root.SetArgs(args)
	f.runCtx = ctx
	err := root.ExecuteContext(ctx)
	err = explainTimeout(f.runCtx, err)
	if f.cancelRun != nil {
		f.cancelRun()
	}
	return err
}

// reportError prints a command's error, unless it is a bare exit status
// (the command's output already said why). profile, when not empty, names
// the profile in use (there is more than one to choose from).
func reportError(w io.Writer, code int, err error, profile string) {
	msg := err.Error()
	if code == exitInterrupted && strings.Contains(msg, context.Canceled.Error()) {
		msg = strings.ReplaceAll(msg, context.Canceled.Error(), "interrupted")
	}
	if msg != "" {
		lead := "evdesk:"
		if profile != "" {
			lead = fmt.Sprintf("evdesk (profile %s):", profile)
		}
		fmt.Fprintln(w, lead, sanitize.Text(msg))
	}
}

// writes marks a command that changes the account: a read-only session
// refuses it before anything is opened.
const writes = "evdesk/writes"

// writing marks cmd as a command that changes the account.
func writing(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[writes] = "yes"
	return cmd
}

// refuseWrites fails a write command in a read-only session (exit 1),
// naming why the session is read-only.
func (f *Factory) refuseWrites(cmd *cobra.Command) error {
	if cmd.Annotations[writes] == "" {
		return nil
	}
	p := config.Profile{Name: "demo", ReadOnly: config.ParseBool(f.Getenv(config.EnvReadOnly))}
	if !f.flags.demo {
		var err error
		if p, err = f.Profile(f.flags.profile); err != nil {
			return nil // the command's own run reports a broken profile
		}
	}
	if why := f.readOnlyReason(f.flags, p); why != "" {
		return &exitError{code: exitFailed, err: fmt.Errorf("`%s` changes the account, and this session is read-only (%s)", cmd.CommandPath(), why)}
	}
	return nil
}

// interactive marks a command that runs the console: no --timeout.
const interactive = "evdesk/interactive"

// profileInUse names the profile a failed command used, when the config
// file offers more than one (so an error never leaves the account in
// doubt); "" with one profile, in --demo, or when the file is unreadable.
func (f *Factory) profileInUse() string {
	if f.flags.demo {
		return ""
	}
	file, err := config.ReadFile(config.Path())
	if err != nil {
		return ""
	}
	inUse := file.InUse(f.flags.profile, os.LookupEnv)
	if len(file.Known(inUse)) < 2 {
		return ""
	}
	return sanitize.Line(inUse)
}

// boundRun bounds a script command's run by --timeout (the console and the
// desk have no bound): the persistent pre-run of every command.
func (f *Factory) boundRun(cmd *cobra.Command, _ []string) error {
	if f.flags.theme != "" {
		if err := config.CheckTheme(f.flags.theme); err != nil {
			return flagErrorf("--theme: %v", err)
		}
	}
	if err := f.refuseWrites(cmd); err != nil {
		return err
	}
	if cmd.Annotations[interactive] != "" {
		return nil
	}
	ctx, cancel := withTimeout(cmd.Context(), f.flags.timeout)
	f.runCtx, f.cancelRun = ctx, cancel
	cmd.SetContext(ctx)
	return nil
}

// rootFlags are the persistent flags every command shares.
type rootFlags struct {
	debug    bool   // log each request and answer (--debug, EVDESK_DEBUG=api)
	readOnly bool   // --read-only
	theme    string // --theme
	demo     bool
	profile  string
	timeout  time.Duration
	noMouse  bool
	// other opens profile beside the one in use (the other side of a
	// comparison): as its file defines it, without the environment's
	// overrides, which belong to the profile in use.
	other bool
}

// DefaultTimeout bounds a command's whole run: long enough for a 100,000-row
// export at the provider's rate, short enough that a stalled server cannot
// hold a script for ever.
const DefaultTimeout = 5 * time.Minute

// NewRootCmd builds the evdesk command tree on f: the root opens the
// console, the subcommands serve scripts.
func NewRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "evdesk",
		Short: "A terminal console for events, check-in desks and phone policy",
		Long: "evdesk is a terminal console for an event-management platform's API.\n\n" +
			"Run `evdesk --demo` to try it against the embedded simulator, or set\n" +
			"EVDESK_BASE_URL and EVDESK_TOKEN (`evdesk sim` prints both for a local simulator).",
		SilenceUsage:      true,
		SilenceErrors:     true,
		Args:              cobra.NoArgs,
		Annotations:       map[string]string{interactive: "yes"},
		PersistentPreRunE: f.boundRun,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.OpenSession(cmd.Context(), f.flags, forConsole)
			if err != nil {
				return err
			}
			defer s.Close()
			return f.runConsole(cmd.Context(), s)
		},
	}
	root.Version = f.version() // --version
	root.SetVersionTemplate(f.versionLine())
	root.SetIn(f.IOStreams.In)
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
	pf := root.PersistentFlags()
	pf.BoolVar(&f.flags.demo, "demo", false, "use the embedded simulator with demo data (no account needed)")
	pf.StringVar(&f.flags.profile, "profile", "", "profile to use (default: $EVDESK_PROFILE, then the config file's default_profile)")
	pf.BoolVar(&f.flags.debug, "debug", false, "log each request and answer (redacted) to the log and, for script commands, to standard error; also "+config.EnvDebug+"=api")
	pf.BoolVar(&f.flags.readOnly, "read-only", false, "change nothing: the console's writes are unavailable, write commands refuse (also read_only = true, "+config.EnvReadOnly+"=1)")
	pf.StringVar(&f.flags.theme, "theme", "", "the console's theme: "+strings.Join(config.Themes, ", ")+" (default: the profile's theme, "+config.EnvTheme+", else auto)")
	_ = root.RegisterFlagCompletionFunc("theme", cobra.FixedCompletions(config.Themes, cobra.ShellCompDirectiveNoFileComp))
	pf.BoolVar(&f.flags.noMouse, "no-mouse", false, "leave the mouse to the terminal (select text as usual); also mouse = false in the profile")
	pf.DurationVar(&f.flags.timeout, "timeout", DefaultTimeout,
		"give up on a command that has not finished after this long (0: no limit; the console has none)")
	// One line a command: what each engineer adds merges as its own line.
	root.AddCommand(newSimCmd(f, nil))
	root.AddCommand(newEventsCmd(f))
	root.AddCommand(newVersionCmd(f, nil))
	root.AddCommand(newLoginCmd(f, nil))
	root.AddCommand(newLogoutCmd(f))
	root.AddCommand(newAuthCmd(f))
	root.AddCommand(newConfigCmd(f))
	root.AddCommand(newCoeditorsCmd(f))
	root.AddCommand(newEmailsCmd(f))
	root.AddCommand(newDeskCmd(f, nil))
	root.AddCommand(writing(newCheckinCmd(f, nil)))
	root.AddCommand(newVenueCmd(f))
	root.AddCommand(newPhoneCmd(f))
	root.AddCommand(newLinksCmd(f))
	root.AddCommand(writing(newRegisterCmd(f, nil)))
	root.AddCommand(newTicketTypesCmd(f, nil))
	root.AddCommand(newExhibitorsCmd(f))
	root.AddCommand(newTranscribeCmd(f, nil))
	root.AddCommand(newInfoCmd(f, nil))
	root.AddCommand(newBadgeCmd(f))
	root.AddCommand(newRosterCmd(f))
	root.AddCommand(newWebhooksCmd(f))
	root.AddCommand(newChangelogCmd(f, nil))
	root.AddCommand(helpTopics()...)
	f.completeWithData(root)
	// cobra adds help and completion as it runs: added now, they are
	// walked as the other commands are (an unknown word is a usage error).
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			refuseUnknownHelpTopics(c)
		}
	}
	explainMistakes(root)
	return root
}

// refuseUnknownHelpTopics makes `evdesk help WORD` a usage error (2) when
// WORD names no command or topic: cobra prints the root's help and exits 0.
func refuseUnknownHelpTopics(help *cobra.Command) {
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		cmd, rest, err := c.Root().Find(args)
		if cmd == nil || err != nil || len(rest) > 0 {
			return &usageError{msg: fmt.Sprintf("help: no command or help topic %q: `%s --help` lists them", strings.Join(args, " "), c.Root().Name())}
		}
		show(c, args)
		return nil
	}
}

// explainMistakes makes a command line with the wrong arguments or an
// unknown flag answer with the command's usage and an example, not only
// "accepts 1 arg(s), received 0".
func explainMistakes(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasSubCommands() && !c.Runnable() {
			groupRefusesUnknownCommands(c)
		}
		if check := c.Args; check != nil {
			c.Args = func(cmd *cobra.Command, args []string) error {
				if err := check(cmd, args); err != nil {
					return withUsage(cmd, err, missingArgs(cmd, args))
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return withUsage(cmd, err, "") })
}

// groupRefusesUnknownCommands makes a group of commands (events, phone,
// auth) refuse a word that is none of its commands, as a usage error (2):
// cobra would print the group's help and exit 0, and a script's typo
// would pass for success. Alone, the group prints its help.
func groupRefusesUnknownCommands(group *cobra.Command) {
	group.Use += " COMMAND"
	group.DisableFlagsInUseLine = true
	if group.SuggestionsMinimumDistance <= 0 {
		group.SuggestionsMinimumDistance = 2 // cobra sets it on the root only
	}
	group.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
			msg += "; did you mean " + orList(near) + "?"
		}
		return errors.New(msg)
	}
	group.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
}

// missingArgs names the arguments the usage line asks for that args lacks
// ("EVENT_ID", "EVENT_ID and EMAIL_TYPE"), or "" when none is missing.
func missingArgs(cmd *cobra.Command, args []string) string {
	var names []string
	for _, w := range strings.Fields(cmd.Use)[1:] {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[") {
			break // flags and optional arguments follow
		}
		if w == strings.ToUpper(w) && strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "" {
			names = append(names, w)
		}
	}
	if len(args) >= len(names) {
		return ""
	}
	return strings.Join(names[len(args):], " and ")
}

// withUsage is err (or, when arguments are missing, which) followed by how
// to use cmd; err stays underneath for its exit status.
func withUsage(cmd *cobra.Command, err error, missing string) error {
	what := err.Error()
	if missing != "" {
		what = "missing " + missing
	}
	// "evdesk:" already leads the line: the command is named without it.
	use := cmd.UseLine()
	msg := fmt.Sprintf("%s: %s\n\nUsage:\n  %s", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), what, use)
	if !cmd.HasParent() {
		msg = fmt.Sprintf("%s\n\nUsage:\n  %s", what, use)
	}
	if cmd.Example != "" {
		msg += "\n\nExample:\n" + cmd.Example
	}
	if cmd.HasAvailableSubCommands() {
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		if cmd.HasParent() {
			msg += "\n\nCommands: " + strings.Join(names, ", ")
		}
		msg += "\n\nRun `" + cmd.CommandPath() + " --help` for its commands."
	}
	return &usageError{msg: msg, err: err}
}
