package checkin

import (
	"sync"
	"testing"
)

// hooksByDir are the tests' hooks by journal folder: each test's desks
// have a folder of their own.
var hooksByDir sync.Map

func init() {
	hooksFor = func(dir string) *testHooks {
		if h, ok := hooksByDir.Load(dir); ok {
			return h.(*testHooks)
		}
		return nil
	}
}

// useHooks gives the desks of journal folder dir the hooks h for the rest
// of the test.
func useHooks(t testing.TB, dir string, h *testHooks) {
	hooksByDir.Store(dir, h)
	t.Cleanup(func() { hooksByDir.CompareAndDelete(dir, h) })
}
