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

// foreignOwner returns the owner of fi when it is neither the user running
// this process nor root: that user can rewrite the file, whatever its mode.
func foreignOwner(fi os.FileInfo) (uid int, foreign bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	uid = int(st.Uid)
	return uid, uid != 0 && uid != os.Getuid()
}
