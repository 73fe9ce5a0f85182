package cli

import (
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

// addPhoneCommands adds `evdesk phone settings`: the account's phone policy
// as a table or JSON, saved as a snapshot, or compared with one; `phone
// check`, the policy against a baseline; and `phone compare`, two accounts'
// policies side by side.
func addPhoneCommands(root *cobra.Command, f *Factory) {
	cmd := &cobra.Command{Use: "phone", Short: "Read the account's phone policy (for scripts and drift checks)"}
	cmd.AddCommand(newPhoneSettingsCmd(f), newPhoneCheckCmd(f), newPhoneCompareCmd(f))
	root.AddCommand(cmd)
}

// Exit statuses of phone check and compare, for schedulers.
const (
	exitDrift  = 1 // an expectation failed, or the accounts differ
	exitBroken = 2 // the baseline, the flags or a call failed: no verdict
)

// brokenOnError makes any failure of a drift command exit with exitBroken,
// flag and argument errors included, so 1 always means drift.
func brokenOnError(cmd *cobra.Command) *cobra.Command {
	broken := func(err error) error {
		var ec exitCoder
		if err == nil || errors.As(err, &ec) {
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

func newPhoneCheckCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	var file string
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
			if file == "" {
				return errors.New("--baseline FILE is required: the expectations to check")
			}
			b, err := baseline.Load(file) // before connecting: a broken file needs no network
			if err != nil {
				return err
			}
			return f.withSession(func(cmd *cobra.Command, _ []string, s *session) error {
				settings, err := s.client.Phone.AccountSettings(cmd.Context(), api.PhoneSettingsOptions{Types: b.SettingTypes()})
				if err != nil {
					return err
				}
				results, err := b.Check(settings)
				if err != nil {
					return err
				}
				failed, err := writePhoneCheck(cmd.OutOrStdout(), out.value, b.File, s, results)
				if err != nil {
					return err
				}
				if failed > 0 {
					return &exitError{code: exitDrift}
				}
				return nil
			})(cmd, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&file, "baseline", "", "the baseline `FILE` (TOML) to check against")
	fl.VarP(out, "output", "o", "output format: table or json")
	return brokenOnError(cmd)
}

// writePhoneCheck prints the results and returns how many failed.
func writePhoneCheck(w io.Writer, format, file string, s *session, results []baseline.Result) (int, error) {
	failed := 0
	for _, r := range results {
		if !r.Pass {
			failed++
		}
	}
	if format == "json" {
		return failed, writeJSON(w, struct {
			Baseline string            `json:"baseline"`
			Profile  string            `json:"profile"`
			Account  string            `json:"account,omitempty"`
			Results  []baseline.Result `json:"results"`
			Passed   int               `json:"passed"`
			Failed   int               `json:"failed"`
		}{file, s.profile, s.account, results, len(results) - failed, failed})
	}
	rows := make([][]string, len(results))
	for i, r := range results {
		verdict := "PASS"
		if !r.Pass {
			verdict = "FAIL"
		}
		actual := "(absent)"
		if r.Actual != nil {
			actual = clipText(string(r.Actual), 60)
		}
		rows[i] = []string{verdict, r.Path, clipText(r.Expectation.String(), 40), actual}
	}
	table := newOutput("table")
	if err := table.writeRows(w, []string{"RESULT", "PATH", "EXPECTED", "ACTUAL"}, rows); err != nil {
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

func newPhoneCompareCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	var with, types string
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
			left, right, err := compareProfiles(f.flags, with)
			if err != nil {
				return err
			}
			opts := api.PhoneSettingsOptions{Types: api.ParsePhoneSettingTypes(types)}
			if err := opts.Validate(); err != nil {
				return fmt.Errorf("--types: %w", err)
			}
			var docs [2][]byte
			for i, name := range []string{left, right} {
				if docs[i], err = f.readPhoneSettings(cmd, rootFlags{profile: name, timeout: f.flags.timeout, other: i == 1}, opts); err != nil {
					return fmt.Errorf("profile %s: %w", name, err)
				}
			}
			changes, err := snapshot.Diff(docs[0], docs[1])
			if err != nil {
				return err
			}
			if err := writePhoneCompare(cmd.OutOrStdout(), out.value, left, right, changes); err != nil {
				return err
			}
			if len(changes) > 0 {
				return &exitError{code: exitDrift}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&with, "with", "", "the `PROFILE` whose account to compare with")
	fl.StringVar(&types, "types", "", "comma-separated setting types (default: all the servers return)")
	fl.VarP(out, "output", "o", "output format: table or json")
	return brokenOnError(cmd)
}

// compareProfiles resolves the two sides' profile names and refuses a
// comparison that could only find them equal: the same profile, or two
// profiles that would use the same token on the same server.
func compareProfiles(flags rootFlags, with string) (string, string, error) {
	if with == "" {
		return "", "", errors.New("--with PROFILE is required: the profile whose account to compare with")
	}
	if flags.demo {
		return "", "", fmt.Errorf("--demo serves one account: compare two profiles (`evdesk sim` prints a second account's token as %s)", simOtherHostTokenEnv)
	}
	left, err := config.LoadProfile(flags.profile)
	if err != nil {
		return "", "", err
	}
	right, err := config.LoadOwnProfile(with)
	if err != nil {
		return "", "", fmt.Errorf("--with: %w", err)
	}
	if left.Name == right.Name {
		return "", "", fmt.Errorf("--with names profile %q, the one being compared: name another", with)
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
func (f *Factory) readPhoneSettings(cmd *cobra.Command, flags rootFlags, opts api.PhoneSettingsOptions) ([]byte, error) {
	var doc []byte
	err := f.runSession(cmd, nil, flags, func(cmd *cobra.Command, _ []string, s *session) error {
		settings, err := s.client.Phone.AccountSettings(cmd.Context(), opts)
		if err != nil {
			return err
		}
		doc, err = json.Marshal(settings)
		return err
	})
	return doc, err
}

func writePhoneCompare(w io.Writer, format, left, right string, changes []snapshot.Change) error {
	if format == "json" {
		type difference struct {
			Path  string          `json:"path"`
			Left  json.RawMessage `json:"left,omitempty"`
			Right json.RawMessage `json:"right,omitempty"`
		}
		diffs := make([]difference, len(changes))
		for i, c := range changes {
			diffs[i] = difference{c.Path, c.Before, c.After}
		}
		return writeJSON(w, struct {
			Left        string       `json:"left"`
			Right       string       `json:"right"`
			Differences []difference `json:"differences"`
		}{left, right, diffs})
	}
	if len(changes) == 0 {
		_, err := fmt.Fprintf(w, "The phone settings of %s and %s are the same.\n", left, right)
		return err
	}
	fmt.Fprintf(w, "%s between %s and %s:\n", plural(len(changes), "difference"), left, right)
	rows := make([][]string, len(changes))
	for i, c := range changes {
		rows[i] = []string{c.Path, orNone(c.Before), orNone(c.After)}
	}
	table := newOutput("table")
	return table.writeRows(w, []string{"PATH", strings.ToUpper(left), strings.ToUpper(right)}, rows)
}

func newPhoneSettingsCmd(f *Factory) *cobra.Command {
	out := newOutput("table", "json")
	var types, save, diff string
	var force bool
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
		RunE: f.withSession(func(cmd *cobra.Command, _ []string, s *session) error {
			err := phoneSettings(cmd, s, out, types, save, diff, force)
			if err != nil && diff != "" && !errors.As(err, new(*exitError)) {
				return &exitError{code: exitBroken, err: err} // no verdict
			}
			return err
		}),
	}
	fl := cmd.Flags()
	fl.VarP(out, "output", "o", "output format: table or json")
	fl.StringVar(&types, "types", "", "comma-separated setting types (default: all the server returns)")
	fl.StringVar(&save, "save", "", "write a snapshot of the settings to `FILE`")
	fl.StringVar(&diff, "diff", "", "show what changed since the snapshot in `FILE`; exit 1 if anything did")
	fl.BoolVar(&force, "force", false, "let --save replace an existing file")
	return cmd
}

// phoneSettings is phone settings' body: print or compare, then save.
func phoneSettings(cmd *cobra.Command, s *session, out *outputFormat, types, save, diff string, force bool) error {
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
	settings, err := s.client.Phone.AccountSettings(cmd.Context(), opts)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	drift := false
	if before != nil {
		changes, err := before.Compare(settings)
		if err != nil {
			return fmt.Errorf("compare with %s: %w", diff, err)
		}
		if err := writePhoneDiff(w, out.value, diff, before, changes); err != nil {
			return err
		}
		drift = len(changes) > 0
	} else if err := writePhoneSettings(w, out, settings); err != nil {
		return err
	}
	if save != "" {
		snap, err := snapshot.New(settings, opts.Types, s.profile, time.Now())
		if err != nil {
			return err
		}
		if err := snapshot.Save(save, snap); err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "saved %d settings to %s\n", settings.Len(), save)
	}
	if drift {
		return &exitError{code: exitDrift}
	}
	return nil
}

func writePhoneSettings(w io.Writer, out *outputFormat, settings *api.PhoneSettings) error {
	if out.value == "json" {
		return writeJSON(w, settings)
	}
	var rows [][]string
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
		rows = append(rows, []string{k, policy.Group(k), state, lock, clipText(details, 90)})
	}
	return out.writeRows(w, []string{"SETTING", "THEME", "STATE", "LOCKED", "DETAILS"}, rows)
}

func writePhoneDiff(w io.Writer, format, path string, before *snapshot.Snapshot, changes []snapshot.Change) error {
	if format == "json" {
		if changes == nil {
			changes = []snapshot.Change{}
		}
		return writeJSON(w, struct {
			Snapshot string            `json:"snapshot"`
			SavedAt  *time.Time        `json:"saved_at,omitempty"`
			Changes  []snapshot.Change `json:"changes"`
		}{path, savedAt(before), changes})
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
		rows[i] = []string{string(c.Kind), c.Path, orNone(c.Before), orNone(c.After)}
	}
	table := newOutput("table")
	return table.writeRows(w, []string{"CHANGE", "PATH", "BEFORE", "AFTER"}, rows)
}

func savedAt(s *snapshot.Snapshot) *time.Time {
	if s.SavedAt.IsZero() {
		return nil
	}
	t := s.SavedAt.UTC()
	return &t
}

func orNone(raw []byte) string {
	if len(raw) == 0 {
		return "-"
	}
	return clipText(string(raw), 60)
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
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
