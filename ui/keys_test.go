package ui

import "testing"

// One key means one thing: no key belongs to two bindings of the
// vocabulary.
func TestVocabularyHasNoKeyTwice(t *testing.T) {
	owner := map[string]string{}
	for _, nb := range DefaultGlobalKeys().All() {
		for _, k := range nb.Binding.Keys() {
			if prev, ok := owner[k]; ok {
				t.Errorf("key %q is both %s and %s", k, prev, nb.Name)
			}
			owner[k] = nb.Name
		}
	}
	for _, want := range []string{"space", "A"} {
		if owner[want] == "" {
			t.Errorf("key %q is not in the vocabulary", want)
		}
	}
}
