package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

var testCreds = credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "")

// With -sigv4 every request carries a SigV4 signature for execute-api in
// the stage's region, over the path the server sees (not the fragment the
// checker uses).
func TestTargeterSignsForExecuteAPI(t *testing.T) {
	at := time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)
	s := NewSignerWith(testCreds, "ap-southeast-1", func() time.Time { return at })
	tg, err := ResolveTarget("", "https://abc123.execute-api.ap-southeast-1.amazonaws.com")
	if err != nil {
		t.Fatal(err)
	}
	var a, b vegeta.Target
	tr := Targeter(context.Background(), tg, settleScenario{}, 1, s)
	if err := tr(&a); err != nil {
		t.Fatal(err)
	}
	auth := a.Header.Get("Authorization")
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261122/ap-southeast-1/execute-api/aws4_request") ||
		!strings.Contains(auth, "SignedHeaders=") || !strings.Contains(auth, "Signature=") {
		t.Errorf("Authorization %q", auth)
	}
	if got := a.Header.Get("X-Amz-Date"); got != "20261122T130000Z" {
		t.Errorf("X-Amz-Date %q", got)
	}
	if !strings.HasSuffix(a.URL, SettlePath+seqFragment+"0") {
		t.Errorf("URL %q", a.URL)
	}
	// The next request (another body) gets another signature.
	if err := tr(&b); err != nil {
		t.Fatal(err)
	}
	if b.Header.Get("Authorization") == auth {
		t.Error("two different requests carry the same signature")
	}
}

func TestSignedAttackReachesServerSigned(t *testing.T) {
	var mu sync.Mutex
	var unsigned int
	inner := settleHandler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
			mu.Lock()
			unsigned++
			mu.Unlock()
		}
		inner.ServeHTTP(w, r)
	}))
	defer srv.Close()
	tg, err := ResolveTarget(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSignerWith(testCreds, "us-east-1", time.Now)
	rep, err := Attack(context.Background(), tg, settleScenario{}, Options{Rate: 50, Duration: 100 * time.Millisecond, Seed: 3, Timeout: 2 * time.Second}, s)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests == 0 || rep.OK != rep.Requests || unsigned != 0 {
		t.Errorf("requests %d ok %d unsigned %d errors %v", rep.Requests, rep.OK, unsigned, rep.Errors)
	}
}
