//go:build unix

package hand

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user + system). On a
// shared machine it counts the time the benchmark ran, not the time it
// waited for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
