//go:build !linux

package testdir

// memoryRoot: only Linux is known to offer a memory file system to all.
func memoryRoot() (string, bool) { return "", false }
