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

// SamePerson: one id, or one account's role sessions and IAM users of one
// name (the stack's principals), are one person; anything else is two.
func TestSamePerson(t *testing.T) {
	const (
		aliceAdmin = "arn:aws:sts::123456789012:assumed-role/tablesettle-prod-RoleAdmin-1A/alice"
		aliceCtl   = "arn:aws:sts::123456789012:assumed-role/tablesettle-prod-RoleController-2B/alice"
		bobCtl     = "arn:aws:sts::123456789012:assumed-role/tablesettle-prod-RoleController-2B/bob"
		aliceOther = "arn:aws:sts::210987654321:assumed-role/tablesettle-prod-RoleController-2B/alice"
		aliceCN    = "arn:aws-cn:sts::123456789012:assumed-role/tablesettle-prod-RoleController-2B/alice"
		aliceUser  = "arn:aws:iam::123456789012:user/alice"
	)
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"adm-1", "adm-1", true},
		{"adm-1", "ctl-1", false},
		{"", "", false},
		{aliceAdmin, aliceAdmin, true},
		{aliceAdmin, aliceCtl, true},    // alice in two roles
		{aliceCtl, aliceAdmin, true},    // either way round
		{aliceAdmin, bobCtl, false},     // two people
		{aliceAdmin, aliceOther, false}, // another account's alice
		{aliceAdmin, aliceCN, false},    // another partition
		{aliceAdmin, aliceUser, true},   // the IAM user alice and a session named alice
		{aliceUser, "arn:aws:iam::123456789012:user/ops/alice", true},
		{aliceUser, "arn:aws:iam::123456789012:role/alice", false}, // a role is no one
		{aliceUser, "arn:aws:iam::123456789012:user/", false},
		{aliceAdmin, "alice", false},
		{"arn:aws:sts::123456789012:assumed-role/R/", "arn:aws:sts::123456789012:assumed-role/S/", false},
		{"arn:aws:sts::123456789012:assumed-role/R/a/b", "arn:aws:sts::123456789012:assumed-role/S/a/b", false},
	} {
		if got := SamePerson(tc.a, tc.b); got != tc.want {
			t.Errorf("SamePerson(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
