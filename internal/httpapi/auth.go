package httpapi

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Authenticator finds who is asking (issue 16).
type Authenticator interface {
	// Authenticate returns the request's principal; (nil, nil) when the
	// request carries no credentials; a *fault.Error when it carries
	// credentials that are not valid (Unauthenticated) or they cannot be
	// checked (Unavailable).
	Authenticate(r *http.Request) (*principal.Principal, error)
	// Challenge is the WWW-Authenticate header of a 401.
	Challenge() string
}

// Access is how a host authenticates and authorizes requests: the
// authenticator of its credentials and whether stateless routes are open
// to callers without any (the local server, so that a newcomer's first
// curl works; never in the stack). Who may call which route is auth.Routes.
type Access struct {
	Authenticator Authenticator
	OpenStateless bool
}

// authorize runs before an operation (and before its body is read): it
// authenticates r, puts the principal in its context and checks the
// route's rule. On a refusal it writes the 401 or 403 problem and returns
// false: the operation never runs, so nothing is written.
func (a *Access) authorize(w http.ResponseWriter, r *http.Request, route string) (*http.Request, bool) {
	if rule, ok := auth.Routes[route]; ok && rule.Public {
		return r, true // a page: no data, no credentials needed (auth.Rule.Public)
	}
	if len(r.Header.Values("Authorization")) > 1 {
		// Which one would count? Neither: a proxy and a client may each
		// have added one (RFC 9110 11.6.2 allows one credential).
		Log(r.Context()).Info("access refused", "route", route, "reason", "two Authorization headers")
		dropBody(w, r)
		writeProblem(w, http.StatusBadRequest, "the request has more than one Authorization header; send exactly one",
			&huma.ErrorDetail{Location: "header.Authorization", Message: "given more than once"})
		return r, false
	}
	p, err := a.Authenticator.Authenticate(r)
	if err != nil {
		e, _ := fault.As(err)
		if e == nil || e.Kind != fault.Unauthenticated {
			Log(r.Context()).Error("credentials could not be checked", "route", route, "err", err.Error())
			dropBody(w, r)
			writeProblem(w, http.StatusServiceUnavailable, "the service could not check the request's credentials; retry, or quote the request id")
			return r, false
		}
		Log(r.Context()).Info("access refused", "route", route, "reason", "bad credentials")
		w.Header().Set("WWW-Authenticate", a.Authenticator.Challenge()+`, error="invalid_token"`)
		dropBody(w, r)
		writeProblem(w, http.StatusUnauthorized, e.Detail)
		return r, false
	}
	if p == nil {
		if rule, ok := auth.Routes[route]; ok && rule.Stateless && a.OpenStateless {
			return r, true
		}
		Log(r.Context()).Info("access refused", "route", route, "reason", "no credentials")
		w.Header().Set("WWW-Authenticate", a.Authenticator.Challenge())
		dropBody(w, r)
		writeProblem(w, http.StatusUnauthorized, route+" needs credentials: "+a.Authenticator.Challenge())
		return r, false
	}
	if e := auth.Authorize(p, route); e != nil {
		r = r.WithContext(principal.NewContext(r.Context(), p))
		Log(r.Context()).Info("access refused", "route", route, "principal", p.ID, "reason", "role")
		dropBody(w, r)
		writeProblem(w, http.StatusForbidden, e.Detail)
		return r, false
	}
	acting := *p
	acting.Acting = auth.ActingRole(p, route)
	return r.WithContext(principal.NewContext(r.Context(), &acting)), true
}

// requireTable refuses (403) a request for a table its principal is not
// bound to. Operations of auth.Routes marked TableBound call it once they
// have read the table id from their body. Without a principal in ctx the
// host authenticates nobody (Deps.Access is nil: tests of single
// operations), and every table is allowed.
func requireTable(ctx context.Context, table, field string) error {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return nil
	}
	if e := auth.CheckTable(p, table, field); e != nil {
		Log(ctx).Info("access refused", "principal", p.ID, "table", table, "reason", "table not bound")
		return problemOf(ctx, e, "")
	}
	return nil
}

// BearerTokens authenticates "Authorization: Bearer <token>" against a
// principals file (the local server): Tokens is an auth.File, which follows
// the file as it changes, or fixed auth.Tokens.
type BearerTokens struct {
	Tokens interface {
		Lookup(token string) (*principal.Principal, error)
	}
}

// Challenge implements Authenticator.
func (BearerTokens) Challenge() string { return `Bearer realm="tablesettle"` }

// Authenticate implements Authenticator. The token itself never reaches a
// log line or an error.
func (b BearerTokens) Authenticate(r *http.Request) (*principal.Principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, nil
	}
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return nil, fault.New(fault.Unauthenticated, "the Authorization header is not \"Bearer <token>\"")
	}
	p, err := b.Tokens.Lookup(strings.TrimSpace(tok))
	if errors.Is(err, auth.ErrBadToken) {
		return nil, fault.New(fault.Unauthenticated, "the bearer token is not valid")
	}
	return p, err
}

// documentAccess adds the access answers to every operation's responses in
// the spec: 401 everywhere (in the stack every operation needs an
// authenticated caller), 403 where a role is required.
func documentAccess(oapi *huma.OpenAPI, op *huma.Operation) {
	errSchema := oapi.Components.Schemas.Schema(reflect.TypeFor[huma.ErrorModel](), true, "Error")
	problem := func(desc string) *huma.Response {
		return &huma.Response{Description: desc, Content: map[string]*huma.MediaType{
			"application/problem+json": {Schema: errSchema},
		}}
	}
	if op.Responses == nil {
		op.Responses = map[string]*huma.Response{}
	}
	setIfAbsent(op.Responses, "401", problem("No credentials, or credentials that are not valid (WWW-Authenticate says which scheme). "+
		"Locally (`tablesettle serve`) stateless operations need none; in the stack every request is SigV4-signed."))
	if rule, ok := auth.Routes[op.Method+" "+op.Path]; !ok || !rule.Stateless {
		setIfAbsent(op.Responses, "403", problem("The principal's role may not call this operation, or (a table) is not bound to the request's table; the detail names what is missing. Nothing was written."))
	}
}

// principalID is the id of ctx's principal for the access log, or "".
func principalID(ctx context.Context) string {
	if p, ok := principal.FromContext(ctx); ok {
		return p.ID
	}
	return ""
}
