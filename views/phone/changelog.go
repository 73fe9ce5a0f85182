package phone

import (
	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/changelog"
	"github.com/evdesk/evdesk/ui"
)

// ChangelogLookup finds the change log entry that deprecates a field,
// given as "setting.field" (changelog.ForField on the console's copy of
// the feed); nil when the console has no change log.
type ChangelogLookup func(field string) (changelog.Entry, bool)

// fieldEntry is a field of a setting and the change log entry about it.
type fieldEntry struct {
	field string
	entry changelog.Entry
}

// deprecationsOf are the setting's deprecated fields (those the provider's
// description marks: api.Deprecations), each with the change log entry
// about it. The entry names the replacements too, which are not deprecated.
func deprecationsOf(lookup ChangelogLookup, st *api.PhoneSettings, key string) []fieldEntry {
	if lookup == nil || st == nil {
		return nil
	}
	var out []fieldEntry
	for _, f := range st.DeprecatedFields(key) {
		if e, ok := lookup(key + "." + f); ok {
			out = append(out, fieldEntry{field: f, entry: e})
		}
	}
	return out
}

// changelogLines link each deprecated field to its entry: the date and
// title, and the entry's address.
func changelogLines(th *ui.Theme, env []fieldEntry, width int) []string {
	if len(env) == 0 {
		return nil
	}
	out := []string{"", th.Header.Render("Change log")}
	for _, d := range env {
		out = append(out, wrap(th.Warning, "- DEPRECATED "+d.field+": "+d.entry.DateText()+" "+d.entry.Title, width)...)
		if d.entry.Link != "" {
			out = append(out, wrap(th.Muted, "  "+d.entry.Link, width)...)
		}
	}
	return out
}

// changelogLink is the address of the first deprecated field's entry, or "".
func changelogLink(env []fieldEntry) string {
	for _, d := range env {
		if d.entry.Link != "" {
			return d.entry.Link
		}
	}
	return ""
}
