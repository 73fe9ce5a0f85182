package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/snapshot"
	"github.com/evdesk/evdesk/views/phone"
)

// addPhoneCommands adds `evdesk phone settings`: the account's phone policy
// as a table or JSON, saved as a snapshot, or compared with one.
func addPhoneCommands(root *cobra.Command, flags *rootFlags) {
	cmd := &cobra.Command{Use: "phone", Short: "Read the account's phone policy (for scripts and drift checks)"}
	cmd.AddCommand(newPhoneSettingsCmd(flags))
	root.AddCommand(cmd)
}

func newPhoneSettingsCmd(flags *rootFlags) *cobra.Command {
	out := newOutput("table", "json")
	var types, save, diff string
	cmd := &cobra.Command{
		Use:   "settings",
		Short: "Show the phone settings; save a snapshot or compare with one",
		Long: "Show the account's phone settings: each one's state, lock and extra fields.\n\n" +
			"--save FILE writes a snapshot (atomically); --diff FILE lists what was added,\n" +
			"removed or changed since that snapshot, by dotted path (call_park.expiration_period).\n" +
			"With both, the comparison is printed and then the snapshot is replaced.\n\n" +
			"Setting types for --types:\n" + wrapWords(api.PhoneSettingTypes, 78, "  "),
		Example: "  evdesk phone settings --types call_park,voicemail\n" +
			"  evdesk phone settings --save policy.json\n" +
			"  evdesk phone settings --diff policy.json -o json",
		Args: cobra.NoArgs,
		RunE: withSession(flags, func(cmd *cobra.Command, _ []string, s *session) error {
			opts := api.PhoneSettingsOptions{Types: api.ParsePhoneSettingTypes(types)}
			if err := opts.Validate(); err != nil {
				return fmt.Errorf("--types: %w", err)
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
			if before != nil {
				changes, err := before.Compare(settings)
				if err != nil {
					return fmt.Errorf("compare with %s: %w", diff, err)
				}
				if err := writePhoneDiff(w, out.value, diff, before, changes); err != nil {
					return err
				}
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
			return nil
		}),
	}
	f := cmd.Flags()
	f.VarP(out, "output", "o", "output format: table or json")
	f.StringVar(&types, "types", "", "comma-separated setting types (default: all the server returns)")
	f.StringVar(&save, "save", "", "write a snapshot of the settings to `FILE`")
	f.StringVar(&diff, "diff", "", "show what changed since the snapshot in `FILE`")
	return cmd
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
		details := strings.Join(phone.Describe(settings, k), " ")
		rows = append(rows, []string{k, phone.Group(k), state, lock, clipText(details, 90)})
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
