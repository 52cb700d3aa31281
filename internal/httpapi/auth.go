package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/tablesettle/tablesettle/internal/apispec"
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
//
// Both hosts check a request in two steps: Middleware authenticates its
// credentials before anything else (authenticate), and each operation,
// registered behind its access rule (guard, a huma middleware), decides
// whether that principal may call it (authorize) before its body is read.
type Access struct {
	Authenticator Authenticator
	OpenStateless bool
}

// authenticate runs before a request's body is read: it refuses two
// Authorization headers (400), credentials that are not valid (401) or
// cannot be checked (503), and otherwise returns the principal (nil
// without credentials), which Middleware keeps for authorize. On a
// refusal it writes the problem and reports false.
func (a *Access) authenticate(w http.ResponseWriter, r *http.Request, route string) (*principal.Principal, bool) {
	if !singleHeaders(w, r, "Authorization") {
		// RFC 9110 11.6.2 allows one credential.
		return nil, false
	}
	p, err := a.Authenticator.Authenticate(r)
	if e, _ := fault.As(err); err != nil && (e == nil || e.Kind != fault.Unauthenticated) {
		Log(r.Context()).Error("credentials could not be checked", "route", route, "err", err.Error())
		return nil, refuse(w, r, http.StatusServiceUnavailable, "the service could not check the request's credentials; retry, or quote the request id", nil)
	} else if err != nil {
		w.Header().Set("WWW-Authenticate", a.Authenticator.Challenge()+`, error="invalid_token"`)
		return nil, refuse(w, r, http.StatusUnauthorized, e.Detail, []any{"route", route, "reason", "bad credentials"})
	}
	return p, true
}

// authorize decides whether the principal authenticate found may call
// route, whose rule this is. It lets through a principal the rule allows,
// acting in the first of its roles the rule names (in the returned
// context); a caller without credentials only on a page, or on a
// stateless route where the host opens them; and answers 401 or 403
// otherwise, reporting false: the operation never runs, its body is never
// read. A route auth.Routes does not list is refused to everyone.
func (a *Access) authorize(w http.ResponseWriter, r *http.Request, route string, rule auth.Rule) (context.Context, bool) {
	var p *principal.Principal
	if rl, ok := r.Context().Value(loggerKey{}).(*requestLog); ok {
		p = rl.who
	}
	if rule.Public || p == nil && rule.Stateless && a.OpenStateless {
		return r.Context(), true
	}
	if p == nil {
		w.Header().Set("WWW-Authenticate", a.Authenticator.Challenge())
		return nil, refuse(w, r, http.StatusUnauthorized, route+" needs credentials: "+a.Authenticator.Challenge(), []any{"route", route, "reason", "no credentials"})
	}
	if e := rule.Authorize(p, route); e != nil {
		return nil, refuse(w, r, http.StatusForbidden, e.Detail, []any{"route", route, "principal", p.ID, "reason", "role"})
	}
	acting := *p
	acting.Acting = rule.Acting(p)
	return principal.NewContext(r.Context(), &acting), true
}

// guard is the huma middleware of the operation at route: its access rule,
// looked up once, when the operation is registered (operations.Handle),
// checked on every request by authorize.
func (a *Access) guard(route string) func(huma.Context, func(huma.Context)) {
	rule := auth.RuleOf(route)
	return func(ctx huma.Context, next func(huma.Context)) {
		r, w := humago.Unwrap(ctx)
		if c, ok := a.authorize(w, r, route, rule); ok {
			next(huma.WithContext(ctx, c))
		}
	}
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
	problem, _ := apispec.ProblemResponses(oapi, op)
	apispec.SetIfAbsent(op.Responses, "401", problem("No credentials, or credentials that are not valid (WWW-Authenticate says which scheme). "+
		"Locally (`tablesettle serve`) stateless operations need none; in the stack every request is SigV4-signed."))
	if !auth.RuleOf(op.Method + " " + op.Path).Stateless {
		apispec.SetIfAbsent(op.Responses, "403", problem("The principal's role may not call this operation, or (a table) is not bound to the request's table; the detail names what is missing. Nothing was written."))
	}
}

// principalID is the id of the request's principal for the access log:
// the one authenticate found, else ctx's (a host without Access), or "".
func principalID(ctx context.Context, rl *requestLog) string {
	if rl.who != nil {
		return rl.who.ID
	}
	if p, ok := principal.FromContext(ctx); ok {
		return p.ID
	}
	return ""
}
