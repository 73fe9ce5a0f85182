package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/phone/baseline"
	"github.com/evdesk/evdesk/internal/phone/policy"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
)

// newPhoneCmd is `evdesk phone settings`: the account's phone policy as a
// table or JSON, saved as a snapshot, or compared with one; `phone check`,
// the policy against a baseline; and `phone compare`, two accounts'
// policies side by side.
func newPhoneCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "phone", Short: "Read the account's phone policy (for scripts and drift checks)"}
	cmd.AddCommand(newPhoneSettingsCmd(f, nil), newPhoneCheckCmd(f, nil), newPhoneCompareCmd(f, nil))
	return cmd
}

// phoneOptions are the phone commands' options.
type phoneOptions struct {
	deps
	Export *exporter
	// check
	Baseline string
	// compare: the two profiles (the root's and --with) and how to open
	// a session on another profile.
	Left, With  string
	openProfile func(ctx context.Context, profile string) (*session, error)
	// settings
	Types      string
	Save, Diff string
	Force      bool
	Profile    string
}

// brokenOnError makes any failure of a drift command exit with exitBroken,
// flag and argument errors included, so 1 always means drift (a sign-in
// needed or an interruption keep their own statuses).
func brokenOnError(cmd *cobra.Command) *cobra.Command {
	broken := func(err error) error {
		var ec exitCoder
		if err == nil || signInNeeded(err) || (errors.As(err, &ec) && ec.ExitCode() != exitUsage) {
			return err
		}
		return &exitError{code: exitBroken, err: err}
	}
	run, args := cmd.RunE, cmd.Args
	if args == nil {
		args = cobra.ArbitraryArgs
	}
	cmd.RunE = func(c *cobra.Command, a []string) error { return broken(run(c, a)) }
	cmd.Args = func(c *cobra.Command, a []string) error { return broken(args(c, a)) }
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return broken(err) })
	return cmd
}

func newPhoneCheckCmd(f *Factory, runF runFunc[phoneOptions]) *cobra.Command {
	o := &phoneOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "check --baseline FILE",
		Short: "Check the phone policy against a baseline file; exit 1 when it drifts",
		Long: "Check the account's phone settings against the expectations of a baseline file and\n" +
			"print each with the account's value and PASS or FAIL, then a summary.\n\n" +
			"A baseline is TOML: under [expect], a quoted settings path (as `phone settings --diff`\n" +
			"prints it) and the value it must have, one of several, or a numeric range:\n\n" +
			"  [expect]\n" +
			"  \"voicemail.enable\" = true\n" +
			"  \"call_park.call_not_picked_up_action\" = { one_of = [9, 100] }\n" +
			"  \"call_park.expiration_period\" = { min = 5, max = 30 }\n\n" +
			"Exit status: 0 when every expectation holds, 1 when any fails, 2 when the baseline\n" +
			"is broken (the error names its line) or the settings could not be read.",
		Example: "  evdesk phone check --baseline policy.toml\n" +
			"  evdesk phone check --profile acme --baseline acme.toml -o json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.Baseline == "" {
				return flagErrorf("--baseline FILE is required: the expectations to check")
			}
			return run(cmd, o, runF, phoneCheckRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Baseline, "baseline", "", "the baseline `FILE` (TOML) to check against")
	_ = cmd.MarkFlagFilename("baseline", "toml")
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return brokenOnError(cmd)
}

func phoneCheckRun(ctx context.Context, o *phoneOptions) error {
	b, err := baseline.Load(o.Baseline) // before connecting: a broken file needs no network
	if err != nil {
		return err
	}
	return o.inSession(ctx, func(s *session) error {
		settings, err := s.client.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{Types: b.SettingTypes()})
		if err != nil {
			return err
		}
		results, err := b.Check(settings)
		if err != nil {
			return err
		}
		warnings := b.Warnings()
		warn(o.IO.ErrOut, warnings)
		failed, err := writePhoneCheck(o, b.File, s, results, warnings)
		if err != nil {
			return err
		}
		if failed > 0 {
			return &exitError{code: exitDrift}
		}
		return nil
	})
}

// writePhoneCheck prints the results and returns how many failed.
func writePhoneCheck(o *phoneOptions, file string, s *session, results []baseline.Result, warnings []string) (int, error) {
	failed := 0
	for _, r := range results {
		if !r.Pass {
			failed++
		}
	}
	w, clip := o.IO.Out, o.IO.clipper()
	if o.Export.Is(formatJSON) {
		return failed, o.Export.WriteText(w, struct {
			Baseline string            `json:"baseline"`
			Profile  string            `json:"profile"`
			Account  string            `json:"account,omitempty"`
			Results  []baseline.Result `json:"results"`
			Passed   int               `json:"passed"`
			Failed   int               `json:"failed"`
			Warnings []string          `json:"warnings,omitempty"`
		}{file, s.profile, s.account, results, len(results) - failed, failed, warnings}, nil)
	}
	rows := make([][]string, len(results))
	for i, r := range results {
		verdict := "PASS"
		if !r.Pass {
			verdict = "FAIL"
		}
		actual := "(absent)"
		if r.Actual != nil {
			actual = clip(string(r.Actual), 60)
		}
		path := r.Path
		if _, ok := api.PhoneDeprecation(r.Path); ok {
			path += " (deprecated)"
		}
		rows[i] = []string{verdict, path, clip(r.Expectation.String(), 40), actual}
	}
	if err := writeTable(w, rowsOf([]string{"RESULT", "PATH", "EXPECTED", "ACTUAL"}, rows)); err != nil {
		return failed, err
	}
	var err error
	if failed == 0 {
		_, err = fmt.Fprintf(w, "PASS: %s of %s hold for profile %s.\n", plural(len(results), "expectation"), file, s.profile)
	} else {
		_, err = fmt.Fprintf(w, "FAIL: %d of %s of %s fail for profile %s (%d pass).\n",
			failed, plural(len(results), "expectation"), file, s.profile, len(results)-failed)
	}
	return failed, err
}

func newPhoneCompareCmd(f *Factory, runF runFunc[phoneOptions]) *cobra.Command {
	o := &phoneOptions{deps: f.deps()}
	o.openProfile = func(ctx context.Context, profile string) (*session, error) {
		return f.OpenSession(ctx, rootFlags{profile: profile, other: profile == o.With}, forCLI)
	}
	cmd := &cobra.Command{
		Use:   "compare --with PROFILE",
		Short: "List the phone settings that differ between two profiles' accounts; exit 1 when any do",
		Long: "Compare the phone settings of the current profile's account (--profile) with those of\n" +
			"another profile's account (--with), and list every difference by settings path with\n" +
			"the value on each side (\"-\" where a side lacks it).\n\n" +
			"Each profile needs its own credentials: a login (`evdesk login --profile NAME`) or a\n" +
			"token variable of its own (`evdesk config set-profile NAME --token-env VAR`), since\n" +
			"EVDESK_TOKEN would stand for both sides.\n\n" +
			"Exit status: 0 when the settings are the same, 1 when they differ, 2 when a side\n" +
			"could not be read.",
		Example: "  evdesk phone compare --profile acme --with contoso\n" +
			"  evdesk phone compare --with contoso --types call_park,voicemail -o json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			left, right, err := compareProfiles(f, f.flags, o.With)
			if err != nil {
				return err
			}
			o.Left, o.With = left, right
			if err := (&api.PhoneSettingsOptions{Types: api.ParsePhoneSettingTypes(o.Types)}).Validate(); err != nil {
				return flagErrorf("--types: %v", err)
			}
			return run(cmd, o, runF, phoneCompareRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.With, "with", "", "the `PROFILE` whose account to compare with")
	fl.StringVar(&o.Types, "types", "", "comma-separated setting types (default: all the servers return)")
	_ = cmd.RegisterFlagCompletionFunc("with", f.completeProfiles)
	o.Export = addExporter(cmd, formatTable, formatJSON)
	return brokenOnError(cmd)
}

func phoneCompareRun(ctx context.Context, o *phoneOptions) error {
	opts := api.PhoneSettingsOptions{Types: api.ParsePhoneSettingTypes(o.Types)}
	var docs [2][]byte
	for i, name := range []string{o.Left, o.With} {
		var err error
		if docs[i], err = readPhoneSettings(ctx, o, name, opts); err != nil {
			return fmt.Errorf("profile %s: %w", name, err)
		}
	}
	changes, err := snapshot.Diff(docs[0], docs[1])
	if err != nil {
		return err
	}
	if err := writePhoneCompare(o, o.Left, o.With, changes); err != nil {
		return err
	}
	if len(changes) > 0 {
		return &exitError{code: exitDrift}
	}
	return nil
}

// compareProfiles resolves the two sides' profile names and refuses a
// comparison that could only find them equal: the same profile, or two
// profiles that would use the same token on the same server.
func compareProfiles(f *Factory, flags rootFlags, with string) (string, string, error) {
	if with == "" {
		return "", "", flagErrorf("--with PROFILE is required: the profile whose account to compare with")
	}
	if flags.demo {
		return "", "", flagErrorf("--demo serves one account: compare two profiles (`evdesk sim` prints a second account's token as %s)", simOtherHostTokenEnv)
	}
	left, err := f.Profile(flags.profile)
	if err != nil {
		return "", "", err
	}
	right, err := f.OwnProfile(with)
	if err != nil {
		return "", "", fmt.Errorf("--with: %w", err)
	}
	if left.Name == right.Name {
		return "", "", flagErrorf("--with names profile %q, the one being compared: name another", with)
	}
	if err := sameAccountTwice(left, right); err != nil {
		return "", "", err
	}
	return left.Name, right.Name, nil
}

// sameAccountTwice refuses two profiles that would use the same token on
// the same server: a comparison of them could only find them equal.
func sameAccountTwice(left, right config.Profile) error {
	if left.Token != "" && left.Token == right.Token && left.BaseURL == right.BaseURL {
		return fmt.Errorf("profiles %q and %q would use the same token on the same server, so show one account twice: give %q a token of its own (`evdesk login --profile %s`, or `evdesk config set-profile %s --token-env VAR`)",
			left.Name, right.Name, right.Name, right.Name, right.Name)
	}
	return nil
}

// readPhoneSettings reads one profile's settings as JSON.
func readPhoneSettings(ctx context.Context, o *phoneOptions, profile string, opts api.PhoneSettingsOptions) ([]byte, error) {
	s, err := o.openProfile(ctx, profile)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	s.warn(o.IO.ErrOut)
	settings, err := s.client.Phone.AccountSettings(ctx, opts)
	if err != nil {
		return nil, err
	}
	return json.Marshal(settings)
}

func writePhoneCompare(o *phoneOptions, left, right string, changes []snapshot.Change) error {
	w, clip := o.IO.Out, o.IO.clipper()
	warn(o.IO.ErrOut, snapshot.Deprecated(changes))
	if o.Export.Is(formatJSON) {
		type difference struct {
			Path  string          `json:"path"`
			Left  json.RawMessage `json:"left,omitempty"`
			Right json.RawMessage `json:"right,omitempty"`
		}
		diffs := make([]difference, len(changes))
		for i, c := range changes {
			diffs[i] = difference{c.Path, c.Before, c.After}
		}
		return o.Export.WriteText(w, struct {
			Left        string       `json:"left"`
			Right       string       `json:"right"`
			Differences []difference `json:"differences"`
		}{left, right, diffs}, nil)
	}
	if len(changes) == 0 {
		_, err := fmt.Fprintf(w, "The phone settings of %s and %s are the same.\n", left, right)
		return err
	}
	fmt.Fprintf(w, "%s between %s and %s:\n", plural(len(changes), "difference"), left, right)
	rows := make([][]string, len(changes))
	for i, c := range changes {
		rows[i] = []string{deprecatedPath(c.Path), orNone(c.Before, clip), orNone(c.After, clip)}
	}
	return writeTable(w, rowsOf([]string{"PATH", strings.ToUpper(left), strings.ToUpper(right)}, rows))
}

func newPhoneSettingsCmd(f *Factory, runF runFunc[phoneOptions]) *cobra.Command {
	o := &phoneOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "settings",
		Short: "Show the phone settings; save a snapshot or compare with one",
		Long: "Show the account's phone settings: each one's state, lock and extra fields.\n\n" +
			"--save FILE writes a snapshot (atomically); --diff FILE lists what was added,\n" +
			"removed or changed since that snapshot, by dotted path (call_park.expiration_period).\n" +
			"With both, the comparison is printed and then the snapshot is replaced.\n" +
			"--save does not replace another existing file unless --force is given.\n\n" +
			"Exit status with --diff: 0 when nothing changed, 1 when something did (for\n" +
			"schedulers), 2 when the comparison could not be made.\n\n" +
			"Setting types for --types:\n" + wrapWords(api.PhoneSettingTypes, 78, "  "),
		Example: "  evdesk phone settings --types call_park,voicemail\n" +
			"  evdesk phone settings --save policy.json\n" +
			"  evdesk phone settings --diff policy.json -o json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			err := run(cmd, o, runF, phoneSettingsRun)
			if err != nil && o.Diff != "" && !errors.As(err, new(*exitError)) && !signInNeeded(err) {
				return &exitError{code: exitBroken, err: err} // no verdict
			}
			return err
		},
	}
	fl := cmd.Flags()
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	fl.StringVar(&o.Types, "types", "", "comma-separated setting types (default: all the server returns)")
	fl.StringVar(&o.Save, "save", "", "write a snapshot of the settings to `FILE`")
	fl.StringVar(&o.Diff, "diff", "", "show what changed since the snapshot in `FILE`; exit 1 if anything did")
	fl.BoolVar(&o.Force, "force", false, "let --save replace an existing file")
	return cmd
}

// phoneSettingsRun is phone settings' body: print or compare, then save.
func phoneSettingsRun(ctx context.Context, o *phoneOptions) error {
	return o.inSession(ctx, func(s *session) error { return phoneSettings(ctx, o, s) })
}

func phoneSettings(ctx context.Context, o *phoneOptions, s *session) error {
	types, save, diff, force := o.Types, o.Save, o.Diff, o.Force
	opts := api.PhoneSettingsOptions{Types: api.ParsePhoneSettingTypes(types)}
	if err := opts.Validate(); err != nil {
		return fmt.Errorf("--types: %w", err)
	}
	if save != "" && save != diff && !force {
		if _, err := os.Stat(save); err == nil {
			return fmt.Errorf("--save: %s already exists: add --force to replace it", save)
		}
	}
	var before *snapshot.Snapshot
	if diff != "" {
		var err error
		if before, err = snapshot.Load(diff); err != nil {
			return fmt.Errorf("--diff: %w", err)
		}
		if types == "" { // compare like with like
			opts.Types = before.Types
		}
	}
	settings, err := s.client.Phone.AccountSettings(ctx, opts)
	if err != nil {
		return err
	}
	drift := false
	if before != nil {
		changes, err := before.Compare(settings)
		if err != nil {
			return fmt.Errorf("compare with %s: %w", diff, err)
		}
		if err := writePhoneDiff(o, diff, before, changes); err != nil {
			return err
		}
		drift = len(changes) > 0
	} else if err := writePhoneSettings(o, settings); err != nil {
		return err
	}
	if save != "" {
		snap, err := snapshot.New(settings, opts.Types, s.profile, o.Now())
		if err != nil {
			return err
		}
		if err := snapshot.Save(save, snap); err != nil {
			return err
		}
		fmt.Fprintf(o.IO.ErrOut, "saved %d settings to %s\n", settings.Len(), save)
	}
	if drift {
		return &exitError{code: exitDrift}
	}
	return nil
}

func writePhoneSettings(o *phoneOptions, settings *api.PhoneSettings) error {
	clip := o.IO.clipper()
	var cells [][]string
	for _, k := range settings.Keys() {
		state, lock := "?", "-"
		if c, ok := settings.Common(k); ok {
			state = "off"
			if c.On() {
				state = "on"
			}
			if c.IsLocked() {
				lock = "yes"
				if c.LockedBy != "" && c.LockedBy != api.LockedByInvalid {
					lock = c.LockedBy
				}
			}
		}
		details := strings.Join(policy.Describe(settings, k), " ")
		if dep := settings.DeprecatedFields(k); len(dep) > 0 { // first, so no clip hides it
			details = "[deprecated fields: " + strings.Join(dep, ", ") + "] " + details
		}
		cells = append(cells, []string{k, policy.Group(k), state, lock, clip(details, 90)})
	}
	return o.Export.Write(o.IO.Out, settings, func(bool) rows {
		return rowsOf([]string{"SETTING", "THEME", "STATE", "LOCKED", "DETAILS"}, cells)
	})
}

func writePhoneDiff(o *phoneOptions, path string, before *snapshot.Snapshot, changes []snapshot.Change) error {
	w, clip := o.IO.Out, o.IO.clipper()
	warnings := snapshot.Deprecated(changes)
	warn(o.IO.ErrOut, warnings)
	if o.Export.Is(formatJSON) {
		if changes == nil {
			changes = []snapshot.Change{}
		}
		return o.Export.WriteText(w, struct {
			Snapshot string            `json:"snapshot"`
			SavedAt  *time.Time        `json:"saved_at,omitempty"`
			Changes  []snapshot.Change `json:"changes"`
			Warnings []string          `json:"warnings,omitempty"`
		}{path, savedAt(before), changes, warnings}, nil)
	}
	if o.Export.Is(formatCSV) { // the changes alone, one a row
		r := rows{header: []string{"CHANGE", "PATH", "BEFORE", "AFTER"}}
		for _, c := range changes {
			r.cells = append(r.cells, []string{string(c.Kind), c.Path, string(c.Before), string(c.After)})
		}
		return writeCSV(w, r)
	}
	since := path
	if t := savedAt(before); t != nil {
		since += " (saved " + t.Format("2006-01-02 15:04 UTC") + ")"
	}
	if len(changes) == 0 {
		_, err := fmt.Fprintf(w, "No changes since %s.\n", since)
		return err
	}
	fmt.Fprintf(w, "%d changes since %s:\n", len(changes), since)
	rows := make([][]string, len(changes))
	for i, c := range changes {
		rows[i] = []string{string(c.Kind), deprecatedPath(c.Path), orNone(c.Before, clip), orNone(c.After, clip)}
	}
	return writeTable(w, rowsOf([]string{"CHANGE", "PATH", "BEFORE", "AFTER"}, rows))
}

// deprecatedPath marks a settings path the provider deprecated.
func deprecatedPath(path string) string {
	if _, ok := api.PhoneDeprecation(path); ok {
		return path + " (deprecated)"
	}
	return path
}

// warn prints warnings on standard error, one a line.
func warn(w io.Writer, warnings []string) {
	for _, text := range warnings {
		fmt.Fprintln(w, "evdesk: warning:", text)
	}
}

func savedAt(s *snapshot.Snapshot) *time.Time {
	if s.SavedAt.IsZero() {
		return nil
	}
	t := s.SavedAt.UTC()
	return &t
}

func orNone(raw []byte, clip func(string, int) string) string {
	if len(raw) == 0 {
		return "-"
	}
	return clip(string(raw), 60)
}

// wrapWords joins words with ", " in lines of at most width, each indented.
func wrapWords(words []string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for i, w := range words {
		piece := w
		if i < len(words)-1 {
			piece += ","
		}
		if len(line)+len(piece)+1 > width && line != indent {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = indent
		}
		line += piece + " "
	}
	b.WriteString(strings.TrimRight(line, " "))
	return b.String()
}
