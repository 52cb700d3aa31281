package jackpot

import (
	"fmt"
	"time"
)

// Printed jackpot slips (issue 35 item 6). A slip is printed when a
// principal asks the service to print it (POST .../slip/prints, the
// console's Print button): the service records the print, then the page
// prints. The first print of a hit's slip is the original and takes the
// pool's next slip serial, allocated in the same commit as its record, so
// serials run 1, 2, 3 ... per pool without a gap; every later print of it
// is a reprint, "REPRINT n" (n = 1 for the second print), with the same
// serial. Each print is a ledger entry that moves no money
// (KindSlipPrinted), naming who printed it.

// KindSlipPrinted is a jackpot slip printed (or reprinted): no money moves.
const KindSlipPrinted Kind = "slip_printed"

// SlipPrint is one print of a hit's slip.
type SlipPrint struct {
	Print  int    `json:"print" doc:"1 for the original, 2 for the first reprint, ..."`
	Mark   string `json:"mark,omitempty" doc:"REPRINT n on the n-th reprint (print n+1); absent on the original."`
	Serial int64  `json:"serial" doc:"The slip's serial: the pool's slips numbered 1, 2, 3 ... without a gap, in the order their originals were printed."`
	// Seq is the ledger entry that records the print.
	Seq int64     `json:"seq"`
	At  time.Time `json:"at"`
	By  Actor     `json:"by" doc:"Who printed it."`
}

// SlipKey is the record key of print n (1-based) of hit's slip: the store
// writes it once, so a print number is given once.
func SlipKey(hit int64, n int) string { return fmt.Sprintf("slip/%d/%d", hit, n) }

// Mark is the mark a print carries: "" on the original, "REPRINT n" on
// the n-th reprint.
func Mark(print int) string {
	if print <= 1 {
		return ""
	}
	return fmt.Sprintf("REPRINT %d", print-1)
}

// PrintSlip records print n+1 of hit's slip by by at now, n being the
// prints already recorded (serial the original's when n > 0): the
// original takes p's next slip serial.
func PrintSlip(p Pool, hit int64, n int, serial int64, by Actor, now time.Time) (Pool, []Entry, SlipPrint) {
	q := p.clone()
	if n == 0 {
		q.SlipSerial++
		serial = q.SlipSerial
	}
	c := &change{pool: &q, now: now}
	e := c.post(Entry{Kind: KindSlipPrinted, HitSeq: hit, Serial: serial, Print: n + 1, Actor: &by, Note: Mark(n + 1)})
	c.finish()
	return q, c.entries, SlipPrint{Print: n + 1, Mark: Mark(n + 1), Serial: serial, Seq: e.Seq, At: now, By: by}
}
