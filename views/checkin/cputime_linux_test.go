//go:build linux

package checkin

import (
	"syscall"
	"unsafe"
)

// threadCPU is the CPU time of the calling thread, in nanoseconds (lock the
// goroutine to its thread around a measurement): what a step costs on the
// UI's goroutine, whatever else the busy machine runs meanwhile.
func threadCPU() int64 {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return ts.Nano()
}

// processCPU is the CPU time of the whole process, every goroutine and the
// collector included, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
