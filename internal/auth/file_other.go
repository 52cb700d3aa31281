//go:build !unix

package auth

import "os"

// lockFile does not lock where flock is not available: run one
// `principals add` at a time there.
func lockFile(*os.File) (func(), error) { return func() {}, nil }

// foreignOwner does not check owners where they are not POSIX ones.
func foreignOwner(os.FileInfo) (int, bool) { return 0, false }
