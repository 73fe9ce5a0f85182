package snapshot

import (
	"fmt"
	"slices"

	"github.com/evdesk/evdesk/api"
)

// Deprecated says, once per field, which of the changes' paths name a field
// the provider deprecated, and what replaces it: a diff that shows one
// warns, since the field will vanish (and then read as removed).
func Deprecated(changes []Change) []string {
	var out, seen []string
	for _, c := range changes {
		d, ok := api.PhoneDeprecation(c.Path)
		if !ok || slices.Contains(seen, d.Field) {
			continue
		}
		seen = append(seen, d.Field)
		out = append(out, fmt.Sprintf("%s is %s", d.Field, d.Note()))
	}
	return out
}
