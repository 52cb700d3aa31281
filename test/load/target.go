package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Target is where the load goes: a base URL, and whether it may leave this
// machine (only when the operator named a stage URL explicitly).
type Target struct {
	Base   *url.URL
	Remote bool
}

// ResolveTarget chooses the target from -url and -stage-url. Without
// -stage-url the target must be a literal loopback address (127.0.0.0/8 or
// ::1): a typo in -url must never send load to someone else's host.
func ResolveTarget(rawURL, stageURL string) (Target, error) {
	if stageURL != "" {
		u, err := parseBase(stageURL, "-stage-url")
		if err != nil {
			return Target{}, err
		}
		if u.Scheme != "https" && !isLoopbackHost(u.Hostname()) {
			return Target{}, fmt.Errorf("-stage-url %q: a remote stage must be https", stageURL)
		}
		return Target{Base: u, Remote: !isLoopbackHost(u.Hostname())}, nil
	}
	u, err := parseBase(rawURL, "-url")
	if err != nil {
		return Target{}, err
	}
	if !isLoopbackHost(u.Hostname()) {
		return Target{}, fmt.Errorf("-url %q is not a loopback address (127.0.0.1 or ::1); to load a deployed stage, name it with -stage-url", rawURL)
	}
	return Target{Base: u}, nil
}

func parseBase(raw, flag string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %v", flag, raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%s %q: want an http:// or https:// URL", flag, raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s %q: no host", flag, raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("%s %q: want a base URL without user, query or fragment", flag, raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u, nil
}

// isLoopbackHost is true only for a literal loopback IP: names are not
// resolved, so /etc/hosts cannot redirect the load.
func isLoopbackHost(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

var errNotLoopback = errors.New("refusing to connect to a non-loopback address without -stage-url")

// Client is the HTTP client of the attack. For a local target its dialer
// refuses every address that is not loopback, whatever the URL said, and no
// redirect is ever followed (a 3xx counts as an error).
func (t Target) Client(timeout time.Duration, conns int) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	if !t.Remote {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil || !isLoopbackHost(host) {
				return errNotLoopback
			}
			return nil
		}
	}
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:               nil, // never through a proxy: loopback means loopback
			DialContext:         func(ctx context.Context, n, a string) (net.Conn, error) { return dialer.DialContext(ctx, n, a) },
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     90 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second,
			ForceAttemptHTTP2:   true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
