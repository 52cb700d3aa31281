// Package analysis computes, exactly, what every wager of every ruleset
// returns: by full enumeration of the deals, with the same evaluator
// (internal/hand) and the same settlement rules the service settles rounds
// with. Every exact figure is an integer count of deals or a big.Rat built
// from such counts; floating point never enters an exact figure (a
// percentage string is only a formatting of an exact fraction).
//
// The heavy figure, the five-card stud optimal strategy (about 2e13
// player-dealer deals per paytable), is computed by grouping: player hands
// up to suit isomorphism, dealer hands by rank multiset with a flush
// correction by suit, never one deal at a time. See stud.go. THB's main
// game under optimal strategy (5.6e13 deals) is a backward induction over
// flops grouped by suit, each board's holdings ranked once; it takes about
// 40 CPU seconds, so `make analysis` computes it and the service serves the
// embedded figures. See thbmain.go.
package analysis
