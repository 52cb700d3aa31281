package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The pools scenario (issue 25 item 5): one wide-area pool linked to
// thousands of tables by one pattern ("table-*"), fed at a fixed rate
// (open loop: a round is sent on schedule whatever the answers' pace) by
// every table, each round signed by its own table principal, one round in
// HitEvery with a Straight Flush (10% of the pool as it stands, R3). At
// the end every round must have been answered 2xx, the pool's meters must
// equal the sums the driver computes from the rounds it sent, to the
// minor unit and its 1/10000 fractions (R1), and reconcile must say ok.

// The pool's settings: MBS Megalink Stud (mbs-megalink-ssp-v6 4.2: Royal
// 100%, Straight Flush 10% of the pool; Four of a Kind, Full House and
// Flush fixed, paid by the house), no ceiling, so every contribution goes
// to the displayed meter.
const (
	poolsPoolID      = "wide"
	poolsRuleset     = "mbs-megalink-ssp-v6"
	poolsUnit        = 500     // SGD 5, the progressive wager (R22)
	poolsContribBP   = 1733    // 17.33% to the displayed meter
	poolsReserveBP   = 517     // 5.17% to the reserve
	poolsReset       = 1000000 // SGD 10,000
	poolsTablePrefix = "table-"
	poolsWarmupID    = "warm-up"
)

// PoolsOptions are the pools scenario's settings.
type PoolsOptions struct {
	Rate       int
	Duration   time.Duration
	Seed       uint64
	Tables     int // table ids table-00000 ... (Tables-1)
	HitEvery   int // one round in HitEvery has a Straight Flush
	Timeout    time.Duration
	MaxWorkers uint64 // vegeta's most requests in flight
	Warmup     int    // rounds sent to another pool first (DynamoDB Local's JIT), not measured
	// AfterAttack, when set, runs once every round has been answered (the
	// replays included) and before the checks, whose reads of the meters
	// and reconcile fold the shards (the WRU count reads the items here).
	AfterAttack func(*PoolsReport) error
}

// TableID is the id of table k.
func TableID(k int) string { return fmt.Sprintf("%s%05d", poolsTablePrefix, k) }

// tableOf is the table of round i: 7919 is prime to 10,000, so each run of
// Tables rounds visits every table once, in a scattered order.
func tableOf(i uint64, tables int) int { return int((i * 7919) % uint64(tables)) }

// isHit says whether round i carries the Straight Flush.
func isHit(i uint64, every int) bool { return every > 0 && i%uint64(every) == uint64(every-1) }

// The seats' hands: no progressive combination (ace high, queen high),
// and the Straight Flush; no card twice in a round.
const (
	poolsDealer   = "2d 3d 5h 8c 9s"
	poolsSeat1    = "3c 8d Th Qd 5c"
	poolsSeat3    = "2c 7d 9h Jd 4c"
	poolsSeat3Hit = "9c Tc Jc Qc Kc"
)

type poolsPosition struct {
	Seat   int                     `json:"seat"`
	Cards  string                  `json:"cards"`
	Wagers map[string]money.Amount `json:"wagers"`
}

// poolsRound is the body of POST /v1/pools/{id}/rounds.
type poolsRound struct {
	Ruleset         string          `json:"ruleset"`
	Table           string          `json:"table"`
	RoundID         string          `json:"roundId"`
	DealtAt         time.Time       `json:"dealtAt"`
	Dealer          string          `json:"dealer"`
	ProgressiveUnit money.Amount    `json:"progressiveUnit"`
	Positions       []poolsPosition `json:"positions"`
}

// PoolsRound is round i of a run started at base: its table, its body, and
// the progressive wagers it places. It is a pure function of its
// arguments, so a round sent again is the same round (a replay, which the
// service answers with its first answer).
func PoolsRound(seed uint64, base time.Time, rate int, i uint64, tables, hitEvery int) (table int, body []byte, wagers []money.Amount) {
	table = tableOf(i, tables)
	seat3 := poolsSeat3
	if isHit(i, hitEvery) {
		seat3 = poolsSeat3Hit
	}
	w := func() map[string]money.Amount {
		return map[string]money.Amount{"ante": 1000, "bet": 2000, "progressive": poolsUnit}
	}
	r := poolsRound{
		Ruleset: poolsRuleset, Table: TableID(table), RoundID: "r" + itoa(seed) + "-" + itoa(i),
		DealtAt: base.Add(time.Duration(i) * time.Second / time.Duration(rate)).UTC(),
		Dealer:  poolsDealer, ProgressiveUnit: poolsUnit,
		Positions: []poolsPosition{{Seat: 1, Cards: poolsSeat1, Wagers: w()}, {Seat: 3, Cards: seat3, Wagers: w()}},
	}
	body, _ = json.Marshal(r)
	for _, p := range r.Positions {
		wagers = append(wagers, p.Wagers["progressive"])
	}
	return table, body, wagers
}

// PoolsCredentials are the bearer tokens of a run: an admin (creates the
// pools), a controller (reconciles) and one table principal per table,
// bound to that table only, as each table host holds its own.
type PoolsCredentials struct {
	Admin, Controller string
	Tables            []string // by table index
}

// NewPoolsPrincipals makes the principals file's entries and the tokens of
// a run with n tables.
func NewPoolsPrincipals(n int) ([]auth.Entry, PoolsCredentials) {
	var c PoolsCredentials
	var entries []auth.Entry
	add := func(id string, role principal.Role, tables []string) string {
		tok := auth.NewToken()
		entries = append(entries, auth.Entry{ID: id, Roles: []principal.Role{role}, Tables: tables, TokenSHA256: auth.HashToken(tok)})
		return tok
	}
	c.Admin = add("load-admin", principal.Admin, nil)
	c.Controller = add("load-controller", principal.Controller, nil)
	c.Tables = make([]string, n)
	for k := range n {
		c.Tables[k] = add("load-"+TableID(k), principal.Table, []string{TableID(k)})
	}
	return entries, c
}

// PoolsReport sums up a pools run.
type PoolsReport struct {
	Report                      // the attack: every round's first answer
	Tables      int             // table ids the rounds came from
	HitEvery    int             // one Straight Flush per HitEvery rounds
	Hits        int             // rounds sent with a Straight Flush
	Sent        int             // rounds the attack sent
	Scheduled   int             // rounds the schedule offered (rate x duration); Scheduled - Sent were never sent
	Late        []time.Duration // each round's answer time from its schedule, sorted
	Replayed    int             // rounds without a 2xx answer, sent again after the attack
	Unanswered  int             // rounds still without a 2xx answer after the replays
	Money       []string        // the checks of the meters, each "ok: ..." or "OFF: ..."
	CentsOff    bool
	Reconcile   string // "ok (N entries)" or why not
	ReconcileOK bool
	Version     int64 // the pool's version at the end: commits of the pool item
	WRU         string
	CPU         string // the CPU time serve and the driver used
}

// Errorless is true when every round scheduled was sent and answered 2xx
// at first.
func (r *PoolsReport) Errorless() bool {
	return r.Requests > 0 && r.Failed() == 0 && r.Sent == r.Scheduled
}

// PoolsAttack creates the pool, warms up, attacks, replays the rounds that
// got no 2xx answer, and checks the money. The server at t must know the
// credentials c.
func PoolsAttack(ctx context.Context, t Target, c PoolsCredentials, o PoolsOptions) (*PoolsReport, error) {
	client := t.Client(o.Timeout, 256)
	base := t.Base.String()
	if err := createPool(ctx, client, base, c.Admin, poolsPoolID); err != nil {
		return nil, err
	}
	if o.Warmup > 0 {
		if err := createPool(ctx, client, base, c.Admin, poolsWarmupID); err != nil {
			return nil, err
		}
		if err := warmUp(ctx, client, base, c, o); err != nil {
			return nil, err
		}
	}
	start := time.Now().UTC().Truncate(time.Second)
	n := int(float64(o.Rate) * o.Duration.Seconds())
	rep := &PoolsReport{Report: Report{Scenario: "pools", Target: base, Seed: o.Seed, Rate: o.Rate, Duration: o.Duration},
		Tables: o.Tables, HitEvery: o.HitEvery}
	answers := make([][]byte, n) // the 2xx answer of each round
	path := "/v1/pools/" + poolsPoolID + "/rounds"
	var next atomic.Uint64
	targeter := func(tgt *vegeta.Target) error {
		i := next.Add(1) - 1
		if i >= uint64(n) {
			return vegeta.ErrNoTargets
		}
		table, body, _ := PoolsRound(o.Seed, start, o.Rate, i, o.Tables, o.HitEvery)
		tgt.Method = http.MethodPost
		tgt.URL = base + path + seqFragment + strconv.FormatUint(i, 10)
		tgt.Body = body
		tgt.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"},
			"Authorization": {"Bearer " + c.Tables[table]}}
		return nil
	}
	atk := vegeta.NewAttacker(vegeta.Client(client), vegeta.Workers(16), vegeta.MaxWorkers(o.MaxWorkers))
	began := time.Now()
	results := atk.Attack(targeter, vegeta.Rate{Freq: o.Rate, Per: time.Second}, o.Duration, "tablesettle-pools")
	var first, last time.Time
	period := time.Second / time.Duration(o.Rate)
	for res := range results {
		if ctx.Err() != nil {
			atk.Stop()
			continue
		}
		if first.IsZero() || res.Timestamp.Before(first) {
			first = res.Timestamp
		}
		if end := res.End(); end.After(last) {
			last = end
		}
		out := Outcome{Latency: res.Latency, Label: "no hit"}
		i, ok := seqOf(res.URL)
		switch {
		case !ok || i >= uint64(n):
			out.Kind = "internal: result without a sequence number"
		case res.Code == 0:
			out.Kind = TransportKind(res.Error)
		case res.Code < 200 || res.Code > 299:
			out.Kind = StatusKind(int(res.Code))
		default:
			answers[i] = res.Body
		}
		if ok && isHit(i, o.HitEvery) {
			out.Label = "straight flush"
		}
		if ok {
			// Open loop: the time from the round's schedule to its
			// answer, so a round vegeta could not send on time (every
			// worker busy) counts its wait.
			rep.Late = append(rep.Late, res.End().Sub(began.Add(time.Duration(i)*period)))
		}
		rep.Add(out)
	}
	if ctx.Err() != nil {
		return nil, errors.New("interrupted")
	}
	rep.Elapsed = last.Sub(first)
	rep.Close()
	slices.Sort(rep.Late)
	rep.Sent = int(min(next.Load(), uint64(n)))
	rep.Scheduled = n
	if o.AfterAttack != nil {
		if err := o.AfterAttack(rep); err != nil {
			return nil, err
		}
	}

	// Every round sent without a 2xx answer is sent again until it has
	// one: a round that landed is answered with its first answer, one
	// that did not lands now; either way the pool holds it exactly once
	// and the sums below count it.
	for i := range rep.Sent {
		if answers[i] != nil {
			continue
		}
		rep.Replayed++
		table, body, _ := PoolsRound(o.Seed, start, o.Rate, uint64(i), o.Tables, o.HitEvery)
		for try := 0; try < 5 && answers[i] == nil; try++ {
			answers[i], _ = postJSON(ctx, client, base+path, c.Tables[table], body)
			if answers[i] == nil {
				time.Sleep(time.Duration(try+1) * 200 * time.Millisecond)
			}
		}
		if answers[i] == nil {
			rep.Unanswered++
		}
	}
	if rep.Unanswered > 0 {
		rep.Money = append(rep.Money, fmt.Sprintf("OFF: %d rounds never answered 2xx: the pool's sums cannot be checked", rep.Unanswered))
		rep.CentsOff = true
		return rep, nil
	}
	if err := checkMoney(ctx, client, base, c, o, start, answers[:rep.Sent], rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// checkMoney compares the pool's meters with the sums of the rounds sent
// and the prizes their answers paid, and reconciles the pool.
func checkMoney(ctx context.Context, client *http.Client, base string, c PoolsCredentials, o PoolsOptions, start time.Time, answers [][]byte, rep *PoolsReport) error {
	// The driver's own sums, from the rounds it sent (R1: exact, in
	// 1/10000 of the minor unit).
	var wagers int64
	var wagerAmount money.Amount
	rateSum, rateSumR := new(big.Int), new(big.Int)
	var paid money.Amount // Straight Flushes, as their answers paid them
	var paidCount int64
	for i, ans := range answers {
		_, _, ws := PoolsRound(o.Seed, start, o.Rate, uint64(i), o.Tables, o.HitEvery)
		for _, w := range ws {
			wagers++
			wagerAmount += w
			rateSum.Add(rateSum, big.NewInt(int64(w)*poolsContribBP))
			rateSumR.Add(rateSumR, big.NewInt(int64(w)*poolsReserveBP))
		}
		var res jackpot.RoundResult
		if err := json.Unmarshal(ans, &res); err != nil {
			return fmt.Errorf("round %d: answer: %v", i, err)
		}
		hit := isHit(uint64(i), o.HitEvery)
		if hit {
			rep.Hits++
		}
		switch {
		case hit && (len(res.Payouts) != 1 || res.Payouts[0].Category != "straight_flush" || res.Payouts[0].Status != "paid" || res.Payouts[0].Amount <= 0):
			rep.Money = append(rep.Money, fmt.Sprintf("OFF: round %d (a Straight Flush) answered payouts %+v", i, res.Payouts))
			rep.CentsOff = true
		case !hit && len(res.Payouts) != 0:
			rep.Money = append(rep.Money, fmt.Sprintf("OFF: round %d (no hit) answered payouts %+v", i, res.Payouts))
			rep.CentsOff = true
		}
		for _, p := range res.Payouts {
			paid += p.Amount
			paidCount++
		}
	}
	var pool struct {
		Meters  jackpot.Meters `json:"meters"`
		Version int64          `json:"version"`
	}
	if err := getJSON(ctx, client, base+"/v1/pools/"+poolsPoolID, c.Admin, &pool); err != nil {
		return err
	}
	rep.Version = pool.Version
	m := pool.Meters
	check := func(what string, got, want any) {
		if fmt.Sprint(got) == fmt.Sprint(want) {
			rep.Money = append(rep.Money, fmt.Sprintf("ok: %s %v", what, got))
			return
		}
		rep.Money = append(rep.Money, fmt.Sprintf("OFF: %s %v, want %v", what, got, want))
		rep.CentsOff = true
	}
	tenK := big.NewInt(10000)
	credited := func(whole money.Amount, carry int64) *big.Int {
		v := new(big.Int).Mul(big.NewInt(int64(whole)), tenK)
		return v.Add(v, big.NewInt(carry))
	}
	check("wagers", m.Wagers, wagers)
	check("wager amount", m.WagerAmount, wagerAmount)
	check("contributed x 10000 + carried (sum of wager x 1733 bp)", credited(m.Contributed, m.CarryDisplayed), rateSum)
	check("reserve contributed x 10000 + carried (sum of wager x 517 bp)", credited(m.ContributedReserve, m.CarryReserve), rateSumR)
	check("reserve meter (no reset drew on it)", m.Reserve, m.ContributedReserve)
	check("overflow meter (no ceiling)", m.Overflow, money.Amount(0))
	sf := m.Hits["straight_flush"]
	check("straight flushes paid", sf.Count, paidCount)
	check("straight flushes' amount (the answers' sum)", sf.Paid, paid)
	check("displayed = reset + contributed - paid", m.Displayed, money.Amount(poolsReset)+m.Contributed-paid)
	check("house funded (the opening seed only)", m.HouseFunded, money.Amount(poolsReset))

	var rec jackpot.Reconciliation
	if err := getJSON(ctx, client, base+"/v1/pools/"+poolsPoolID+"/reconcile", c.Controller, &rec); err != nil {
		return err
	}
	rep.ReconcileOK = rec.OK && len(rec.Differences) == 0 && len(rec.Problems) == 0 && rec.RateSum == rateSum.String() && rec.RateSumReserve == rateSumR.String()
	if rep.ReconcileOK {
		rep.Reconcile = fmt.Sprintf("ok (%d ledger entries rebuild every meter; its sum of wager x rate %s equals the driver's)", rec.Entries, rec.RateSum)
	} else {
		rep.Reconcile = fmt.Sprintf("NOT OK: ok %v, differences %+v, problems %v, rate sums %s/%s (driver %s/%s)", rec.OK, rec.Differences, rec.Problems, rec.RateSum, rec.RateSumReserve, rateSum, rateSumR)
	}
	return nil
}

// createPool creates pool id linked to every table of the run.
func createPool(ctx context.Context, client *http.Client, base, admin, id string) error {
	body := fmt.Sprintf(`{"id":%q,"displayName":"Wide-area load pool","tables":[%q],"currency":"SGD","rulesets":[%q],"unit":%d,"contributionBp":%d,"reserveBp":%d,"reset":%d}`,
		id, poolsTablePrefix+jackpot.TablePattern, poolsRuleset, poolsUnit, poolsContribBP, poolsReserveBP, poolsReset)
	if _, err := postJSON(ctx, client, base+"/v1/pools", admin, []byte(body)); err != nil {
		return fmt.Errorf("create pool %s: %w", id, err)
	}
	return nil
}

// warmUp sends o.Warmup rounds to the warm-up pool, 8 at a time: DynamoDB
// Local runs on the JVM and is several times slower until its code is
// compiled, which is not the service's cost.
func warmUp(ctx context.Context, client *http.Client, base string, c PoolsCredentials, o PoolsOptions) error {
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	var next atomic.Int64
	path := base + "/v1/pools/" + poolsWarmupID + "/rounds"
	start := time.Now().UTC()
	for range 8 {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(o.Warmup) {
					return
				}
				table, body, _ := PoolsRound(o.Seed+1<<32, start, o.Rate, uint64(i), o.Tables, 50)
				if _, err := postJSON(ctx, client, path, c.Tables[table], body); err != nil {
					errc <- fmt.Errorf("warm-up round %d: %w", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	return <-errc
}

// postJSON posts body with token and returns the 2xx answer's body.
func postJSON(ctx context.Context, client *http.Client, url, token string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return do(client, req, token)
}

func getJSON(ctx context.Context, client *http.Client, url, token string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	b, err := do(client, req, token)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func do(client *http.Client, req *http.Request, token string) ([]byte, error) {
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, b)
	}
	return b, nil
}

// percentile is the nearest-rank p-th percentile of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	r := Report{Latencies: sorted}
	return r.Percentile(p)
}

// WriteTo prints the pools report.
func (r *PoolsReport) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "scenario    pools (open loop, one pool linked to %d tables by %q, one Straight Flush per %d rounds)\n", r.Tables, poolsTablePrefix+jackpot.TablePattern, r.HitEvery)
	fmt.Fprintf(&b, "target      %s\n", r.Target)
	fmt.Fprintf(&b, "attack      %d rounds/s for %s: %d rounds sent of %d scheduled (%d Straight Flushes), first sent to last answered %s\n", r.Rate, r.Duration, r.Sent, r.Scheduled, r.Hits, r.Elapsed.Round(time.Millisecond))
	if r.Scheduled > r.Sent {
		fmt.Fprintf(&b, "not sent    %d rounds: every worker was busy until the attack's time was up (the service fell behind the schedule)\n", r.Scheduled-r.Sent)
	}
	fmt.Fprintf(&b, "answered    %d of %d 2xx at first (%.1f/s)\n", r.OK, r.Requests, r.Throughput())
	fmt.Fprintf(&b, "latency     p50 %s  p90 %s  p99 %s  max %s (vegeta: from the request's start)\n",
		fmtDur(r.Percentile(50)), fmtDur(r.Percentile(90)), fmtDur(r.Percentile(99)), fmtDur(r.Percentile(100)))
	fmt.Fprintf(&b, "scheduled   p50 %s  p90 %s  p99 %s  max %s (from the round's place in the schedule to its answer)\n",
		fmtDur(percentile(r.Late, 50)), fmtDur(percentile(r.Late, 90)), fmtDur(percentile(r.Late, 99)), fmtDur(percentile(r.Late, 100)))
	if len(r.Errors) == 0 {
		fmt.Fprintf(&b, "errors      none\n")
	} else {
		fmt.Fprintf(&b, "errors      %d (any answer but 2xx)\n", r.Failed())
		for _, k := range sortedKeys(r.Errors) {
			fmt.Fprintf(&b, "  %-40s %d\n", k, r.Errors[k])
		}
	}
	if r.Replayed > 0 {
		fmt.Fprintf(&b, "replayed    %d rounds without a 2xx answer sent again after the attack; %d still unanswered\n", r.Replayed, r.Unanswered)
	}
	fmt.Fprintf(&b, "money       %s\n", map[bool]string{false: "zero cents off", true: "CENTS OFF"}[r.CentsOff])
	for _, m := range r.Money {
		fmt.Fprintf(&b, "  %s\n", m)
	}
	fmt.Fprintf(&b, "reconcile   %s\n", r.Reconcile)
	if r.WRU != "" {
		b.WriteString(r.WRU)
	}
	if r.CPU != "" {
		b.WriteString(r.CPU)
	}
	p99 := percentile(r.Late, 99)
	fmt.Fprintf(&b, "must hold   p99 < 100 ms: %s (p99 from schedule %s, from the request's start %s); zero errors: %s; zero cents off: %s\n",
		metOrNot(p99 < 100*time.Millisecond && r.Percentile(99) < 100*time.Millisecond), fmtDur(p99), fmtDur(r.Percentile(99)),
		metOrNot(r.Errorless()), metOrNot(!r.CentsOff && r.ReconcileOK))
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

func metOrNot(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}
