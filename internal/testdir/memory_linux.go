package testdir

import "syscall"

// tmpfsMagic is the file system type of tmpfs (statfs(2)).
const tmpfsMagic = 0x01021994

// memoryRoot is /dev/shm when it is a tmpfs with room to spare.
func memoryRoot() (string, bool) {
	const root = "/dev/shm"
	var st syscall.Statfs_t
	if err := syscall.Statfs(root, &st); err != nil || st.Type != tmpfsMagic {
		return "", false
	}
	if uint64(st.Bavail)*uint64(st.Bsize) < minFree {
		return "", false
	}
	return root, true
}
