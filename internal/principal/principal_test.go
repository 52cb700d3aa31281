package principal

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
)

func TestRequire(t *testing.T) {
	if _, err := Require(context.Background()); !fault.Is(err, fault.Unauthenticated) {
		t.Errorf("no principal: %v, want Unauthenticated", err)
	}
	p := &Principal{ID: "cage-1", Roles: []Role{Cage}}
	got, err := Require(NewContext(context.Background(), p))
	if err != nil || got != p {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := Require(NewContext(context.Background(), nil)); err == nil {
		t.Error("a nil principal was accepted")
	}
}

func TestHasAndBoundTo(t *testing.T) {
	p := &Principal{ID: "t", Roles: []Role{Table}, Tables: []string{"T12"}}
	var none *Principal
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"has its role", p.Has(Table), true},
		{"lacks another", p.Has(Admin), false},
		{"bound to its table", p.BoundTo("T12"), true},
		{"not to another", p.BoundTo("T1"), false},
		{"nil has nothing", none.Has(Table), false},
		{"nil bound to nothing", none.BoundTo("T12"), false},
		{"roles are valid", Role("root").Valid() || !Cage.Valid(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
}
