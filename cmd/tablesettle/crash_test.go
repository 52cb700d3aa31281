package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// crashCycles is how many times TestCrashUnderLoad kills serve: 10 under
// make test, TABLESETTLE_CRASH_CYCLES (e.g. 50) for a longer run.
func crashCycles(t *testing.T) int {
	if v := os.Getenv("TABLESETTLE_CRASH_CYCLES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("TABLESETTLE_CRASH_CYCLES=%q: want a number of cycles", v)
		}
		return n
	}
	return 10
}

// server is one serve process of the crash test.
type crashServer struct {
	cmd  *exec.Cmd
	base string
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startServe runs the binary's serve on data and waits until it answers.
func startServe(t *testing.T, bin, data string, log io.Writer) *crashServer {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "serve", "-addr", addr, "-data", data)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &crashServer{cmd: cmd, base: "http://" + addr}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.base + "/v1/rulesets")
		if err == nil {
			resp.Body.Close()
			return s
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("serve did not answer: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *crashServer) kill() {
	s.cmd.Process.Kill() // SIGKILL: no shutdown, no checkpoint
	s.cmd.Wait()
}

// post sends body with token; it returns the status, or 0 when no answer came.
func post(client *http.Client, url, token, body string) int {
	req, err := http.NewRequest("POST", url, bytes.NewBufferString(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// crashRound is round i of table T12: two progressive wagers, no hit.
func crashRound(i int) string {
	return fmt.Sprintf(`{"ruleset":"mbs-megalink-ssp-v6","table":"T12","progressiveUnit":500,"roundId":"R%d","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",`+
		`"positions":[{"seat":1,"cards":"Kc Qh 7d 4c 2h","wagers":{"ante":1000,"bet":2000,"progressive":500}},{"seat":3,"cards":"Js Th 6c 4s 3c","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`, i)
}

// TestCrashUnderLoad (issue 23, crash safety): serve is killed with
// SIGKILL at random instants while four tables' workers apply rounds
// concurrently, and restarted, again and again; rounds whose answer was
// lost are sent again after the restart, as a table retries. At the end
// every round is in the ledger exactly once (none lost, none applied
// twice), the pool's meters count each round's two wagers once, every
// pool reconciles and SQLite's integrity check passes.
func TestCrashUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the server: not in -short")
	}
	cycles := crashCycles(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "tablesettle")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	tokens, err := auth.Bootstrap(filepath.Join(data, "principals.json"))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	var logMu sync.Mutex
	logw := writerFunc(func(p []byte) (int, error) { logMu.Lock(); defer logMu.Unlock(); return log.Write(p) })
	defer func() {
		if t.Failed() {
			t.Logf("serve's output:\n%s", log.String())
		}
	}()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 23))
	client := &http.Client{Timeout: 10 * time.Second}

	srv := startServe(t, bin, data, logw)
	if code := post(client, srv.base+"/v1/pools", tokens[principal.Admin],
		`{"id":"crash","currency":"SGD","tables":["T12"],"rulesets":["mbs-megalink-ssp-v6"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000}`); code != http.StatusCreated {
		srv.kill()
		t.Fatalf("create pool: %d", code)
	}
	const workers = 4
	next := 0
	var unacked []int // rounds sent whose answer was lost: sent again
	resent := 0
	sent := map[int]bool{}
	for cycle := range cycles {
		if cycle > 0 {
			srv = startServe(t, bin, data, logw)
		}
		var mu sync.Mutex
		take := func() (int, bool) {
			mu.Lock()
			defer mu.Unlock()
			if len(unacked) > 0 {
				i := unacked[0]
				unacked = unacked[1:]
				return i, true
			}
			next++
			sent[next] = true
			return next, true
		}
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i, _ := take()
					switch code := post(client, srv.base+"/v1/pools/crash/rounds", tokens[principal.Table], crashRound(i)); code {
					case http.StatusOK, http.StatusCreated:
					case 0, http.StatusServiceUnavailable:
						mu.Lock()
						unacked = append(unacked, i)
						resent++
						mu.Unlock()
						return
					default:
						t.Errorf("round %d: status %d", i, code)
						return
					}
				}
			}()
		}
		time.Sleep(time.Duration(50+rng.IntN(400)) * time.Millisecond)
		srv.kill()
		wg.Wait()
		if t.Failed() {
			return
		}
	}
	// The last start: the tables send what was never answered.
	srv = startServe(t, bin, data, logw)
	for _, i := range unacked {
		if code := post(client, srv.base+"/v1/pools/crash/rounds", tokens[principal.Table], crashRound(i)); code != http.StatusOK && code != http.StatusCreated {
			srv.kill()
			t.Fatalf("round %d resent: %d", i, code)
		}
	}
	srv.cmd.Process.Signal(os.Interrupt)
	srv.cmd.Wait()

	st, err := sqlite.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	seen := map[string]int{}
	for after := int64(0); ; {
		es, err := st.Ledger(ctx, "crash", after, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Kind == jackpot.KindContribution {
				seen[e.Round]++
			}
		}
		if len(es) < 1000 {
			break
		}
		after = es[len(es)-1].Seq
	}
	for i := range sent {
		if n := seen["R"+strconv.Itoa(i)]; n != 1 {
			t.Errorf("round R%d is in the ledger %d times; want exactly once", i, n)
		}
	}
	if len(seen) != len(sent) {
		t.Errorf("%d rounds in the ledger, %d sent", len(seen), len(sent))
	}
	p, err := st.Pool(ctx, "crash")
	if err != nil || p.Meters.Wagers != int64(2*len(sent)) {
		t.Errorf("pool counts %d wagers (%v); want 2 x %d rounds", p.Meters.Wagers, err, len(sent))
	}
	c, err := st.Check(ctx)
	if err != nil || !c.OK() {
		t.Errorf("check after %d kills: %v %+v", cycles, err, c)
	}
	t.Logf("%d kills, %d rounds, %d whose answer was lost sent again", cycles, len(sent), resent)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
