package config

import "fmt"

// FieldKeys is the profile's [keys] table: action names to keys, to
// rebind the console's keys (ui.GlobalKeys.Rebind checks them).
const FieldKeys = "keys"

// applyKeys reads a profile entry's [keys] table: each action takes one key
// name or a list of them. Anything else is refused with the file and line.
func applyKeys(p *Profile, e *ProfileEntry, origin func(action string) string) error {
	if e == nil || len(e.Keys) == 0 {
		return nil
	}
	p.Keys = map[string][]string{}
	for action, v := range e.Keys {
		var names []string
		switch v := v.(type) {
		case string:
			names = []string{v}
		case []any:
			for _, n := range v {
				s, ok := n.(string)
				if !ok {
					return fmt.Errorf("%s: [keys] %s: keys are strings, such as \"C\" or [\"C\", \"ctrl+x\"]", origin(action), action)
				}
				names = append(names, s)
			}
		default:
			return fmt.Errorf("%s: [keys] %s: a key is a string, such as \"C\" or [\"C\", \"ctrl+x\"]", origin(action), action)
		}
		p.Keys[action] = names
		p.setOrigin(FieldKeys+"."+action, origin(action))
	}
	return nil
}

// KeyOrigin is where the profile rebinds action (file:line), for messages.
func (p Profile) KeyOrigin(action string) string { return p.Origin(FieldKeys + "." + action) }
