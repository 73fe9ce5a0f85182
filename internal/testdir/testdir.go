// Package testdir gives tests a temporary folder in memory where the machine
// has one. Tests that journal thousands of scans call fsync thousands of
// times; on a disk that is most of their time, while what they test is the
// wire and the desks. On tmpfs fsync is still called, and costs nothing.
package testdir

import (
	"os"
	"testing"
)

// minFree is the room a memory file system must have left to be used: a
// small one (a container's 64 MB /dev/shm) could fill up under the tests
// and fail them for the wrong reason.
const minFree = 1 << 30

// Fast returns a new temporary folder, removed when the test ends: in
// memory when the machine has a large enough one, else t.TempDir().
func Fast(t testing.TB) string {
	t.Helper()
	root, ok := memoryRoot()
	if !ok {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp(root, "evdesk-test-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}
