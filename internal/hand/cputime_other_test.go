//go:build !unix

package hand

import "time"

// cpuTime is unavailable here; the CPU-time metrics read zero.
func cpuTime() time.Duration { return 0 }
