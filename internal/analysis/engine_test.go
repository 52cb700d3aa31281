package analysis

import "sync"

// sharedStudEngine builds the stud engine once for the tests that only read
// it (it is never written after construction).
var sharedStudEngine = sync.OnceValue(func() *studEngine { return newStudEngine(newFiveTables()) })
