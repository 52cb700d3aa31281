package httpapi

import (
	"net/http"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// asEveryRole serves h (built with Deps.Access nil) as a principal holding
// every role, bound to the examples' table T12: the ledger records it.
func asEveryRole(h http.Handler) http.Handler {
	p := &principal.Principal{ID: "every-role", Roles: principal.Roles, Tables: []string{"T12"}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(principal.NewContext(r.Context(), p)))
	})
}
