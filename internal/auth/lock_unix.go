//go:build unix

package auth

import (
	"os"
	"syscall"
)

// lockFile holds an exclusive lock on f until unlock (flock: released by
// the kernel if the process dies, so a crash leaves no stale lock).
func lockFile(f *os.File) (unlock func(), err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
}
