package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
)

// Scope is where a key of the vocabulary acts, and so what it must not
// clash with: a universal key acts on every screen, a list key on every
// list, a screen key on the screens that offer its action. A key is
// unique within its scope and the scopes above it.
type Scope int

const (
	Universal Scope = iota
	List
	ScreenScope
)

func (s Scope) String() string {
	return [...]string{"everywhere", "in every list", "on the screens"}[s]
}

// universal and list name the vocabulary's fields of those scopes; the
// rest are screen keys.
var (
	universal = []string{"Quit", "Interrupt", "Back", "Help", "HelpAnywhere", "NextTab", "PrevTab", "Errors", "Palette", "ToDesk", "News"}
	listScope = []string{"Up", "Down", "PageUp", "PageDown", "Home", "End", "Filter", "Sort", "Reverse"}
	// chordOnly keys act where letters are typed (a form, the desk's scan
	// field), so only keys nobody types may stand for them.
	chordOnly = []string{"Interrupt", "HelpAnywhere", "ToDesk", "YesChord", "Find", "Bell", "Retry", "Board", "Kiosk"}
	// actionNames are the names a profile rebinds by, where a field's own
	// name (snake case) would not say enough.
	actionNames = map[string]string{
		"Quit": "quit", "Interrupt": "quit_anywhere", "HelpAnywhere": "help_anywhere",
		"Cancel": "cancel_event", "Publish": "publish_event", "Duplicate": "duplicate_event",
		"CheckIn": "check_in_desk", "Browse": "open_in_browser", "Views": "switch_view",
		"YesChord": "yes_while_typing", "ToDesk": "back_to_desk",
	}
)

// ScopeOf is the scope of a vocabulary field.
func ScopeOf(field string) Scope {
	switch {
	case slices.Contains(universal, field):
		return Universal
	case slices.Contains(listScope, field):
		return List
	}
	return ScreenScope
}

// ActionName is the name a profile's [keys] table rebinds a field by:
// cancel_event for Cancel, page_down for PageDown.
func ActionName(field string) string {
	if n, ok := actionNames[field]; ok {
		return n
	}
	var b strings.Builder
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// KeyError is a binding a profile asked for that cannot be: it names
// where it was asked (file and line) and, for a clash, the action that
// has the key.
type KeyError struct {
	Origin, Action, Reason string
}

func (e *KeyError) Error() string {
	where := e.Origin
	if where != "" {
		where += ": "
	}
	return where + "[keys] " + e.Action + ": " + e.Reason
}

// Rebind gives actions the keys a profile's [keys] table names (action
// name to key names), checked: an unknown action, a key nobody could
// press, a letter for an action that acts where letters are typed, and a
// key another action has in the same scope or one above are refused, with
// origin(action) (the file and line) and the other action's name. On an
// error nothing changes.
func (k *GlobalKeys) Rebind(keys map[string][]string, origin func(action string) string) error {
	if len(keys) == 0 {
		return nil
	}
	byName := map[string]string{} // action name: field
	for _, nb := range k.All() {
		byName[ActionName(nb.Name)] = nb.Name
	}
	next := *k
	v := fieldsOf(&next)
	actions := make([]string, 0, len(keys))
	for a := range keys {
		actions = append(actions, a)
	}
	slices.Sort(actions) // the first error is the same every run
	for _, action := range actions {
		fail := func(reason string) error {
			o := ""
			if origin != nil {
				o = origin(action)
			}
			return &KeyError{Origin: o, Action: action, Reason: reason}
		}
		field, ok := byName[action]
		if !ok {
			return fail("no such action (the README's key tables name them)")
		}
		names := keys[action]
		if len(names) == 0 {
			return fail("no key given")
		}
		for _, n := range names {
			if !validKeyName(n) {
				return fail(fmt.Sprintf("%q is not a key (a character, a name such as enter, pgdown or f5, or ctrl+ with a letter)", n))
			}
			if slices.Contains(chordOnly, field) && typable(n) {
				return fail(fmt.Sprintf("%q is typed where this key acts (a form, the desk's scan field): use a function key or a ctrl+ chord", n))
			}
		}
		b := v[field]
		b.SetKeys(names...)
		b.SetHelp(helpKeyText(names), b.Help().Desc)
		v[field] = b
	}
	for field, b := range v {
		setField(&next, field, b)
	}
	if err := next.clash(keys, origin); err != nil {
		return err
	}
	*k = next
	return nil
}

// clash finds a key two actions have within a scope and those above it;
// the error names the rebound action (asked) and the other. The screen
// keys are one scope (a letter means one action on every screen that has
// it), so with the list keys under them and the universal keys over all,
// every key of the vocabulary is one action's.
func (k *GlobalKeys) clash(asked map[string][]string, origin func(string) string) error {
	all := k.All()
	for i, a := range all {
		for _, b := range all[i+1:] {
			for _, key := range a.Binding.Keys() {
				if !slices.Contains(b.Binding.Keys(), key) {
					continue
				}
				mine, other := a, b
				if _, ok := asked[ActionName(b.Name)]; ok {
					mine, other = b, a
				}
				o := ""
				if origin != nil {
					o = origin(ActionName(mine.Name))
				}
				return &KeyError{Origin: o, Action: ActionName(mine.Name),
					Reason: fmt.Sprintf("%q is already %s's key (%s, %s)", key, ActionName(other.Name),
						other.Binding.Help().Desc, ScopeOf(other.Name))}
			}
		}
	}
	return nil
}

func fieldsOf(k *GlobalKeys) map[string]key.Binding {
	out := map[string]key.Binding{}
	for _, nb := range k.All() {
		out[nb.Name] = nb.Binding
	}
	return out
}

// helpKeyText writes key names as the help shows them: F5 for f5,
// pgdn for pgdown, joined by slashes.
func helpKeyText(names []string) string {
	shown := make([]string, len(names))
	for i, n := range names {
		switch {
		case n == "pgdown":
			n = "pgdn"
		case len(n) >= 2 && n[0] == 'f' && strings.Trim(n[1:], "0123456789") == "":
			n = "F" + n[1:]
		}
		shown[i] = n
	}
	return strings.Join(shown, "/")
}

// namedKeys are the key names besides characters and ctrl+ chords.
var namedKeys = []string{"enter", "esc", "tab", "shift+tab", "space", "backspace", "delete", "up", "down",
	"left", "right", "pgup", "pgdown", "home", "end", "insert"}

func validKeyName(n string) bool {
	switch {
	case len([]rune(n)) == 1:
		r := []rune(n)[0]
		return unicode.IsPrint(r) && !unicode.IsSpace(r)
	case slices.Contains(namedKeys, n):
		return true
	case strings.HasPrefix(n, "ctrl+") && len(n) == len("ctrl+")+1:
		c := n[len(n)-1]
		return c >= 'a' && c <= 'z'
	case strings.HasPrefix(n, "f"):
		i := 0
		_, err := fmt.Sscanf(n, "f%d", &i)
		return err == nil && fmt.Sprintf("f%d", i) == n && i >= 1 && i <= 20
	}
	return false
}

// typable reports whether a key is something typed into a field.
func typable(n string) bool {
	return len([]rune(n)) == 1 || slices.Contains([]string{"enter", "tab", "space", "backspace", "delete"}, n)
}
