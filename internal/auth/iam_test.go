package auth

import (
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// Issue 16: the IAM mapping's edges. A caller maps only when
// partition, account, kind (role or user) and name are all the mapping's;
// everything else is authenticated with no role.
func TestIAMPrincipalEdges(t *testing.T) {
	m, err := ParseIAM(`[
	  {"arn": "arn:aws:iam::123456789012:role/tablesettle-dev-admin", "roles": ["admin"]},
	  {"arn": "arn:aws-cn:iam::123456789012:role/tablesettle-cn-cage", "roles": ["cage"]},
	  {"arn": "arn:aws:iam::123456789012:role/floor/east/tablesettle-dev-table-T7", "roles": ["table"], "tables": ["T7"]}
	]`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, arn string
		roles     []principal.Role
	}{
		{"assumed role", "arn:aws:sts::123456789012:assumed-role/tablesettle-dev-admin/alice", []principal.Role{principal.Admin}},
		{"role ARN of another account", "arn:aws:iam::210987654321:role/tablesettle-dev-admin", nil},
		{"same role name in aws-cn", "arn:aws-cn:sts::123456789012:assumed-role/tablesettle-dev-admin/alice", nil},
		{"same role name in aws-us-gov", "arn:aws-us-gov:sts::123456789012:assumed-role/tablesettle-dev-admin/alice", nil},
		{"aws-cn role in aws-cn", "arn:aws-cn:sts::123456789012:assumed-role/tablesettle-cn-cage/bob", []principal.Role{principal.Cage}},
		{"aws-cn role name from aws", "arn:aws:sts::123456789012:assumed-role/tablesettle-cn-cage/bob", nil},
		{"a user named like the role", "arn:aws:iam::123456789012:user/tablesettle-dev-admin", nil},
		{"a user with a path named like the role", "arn:aws:iam::123456789012:user/ops/tablesettle-dev-admin", nil},
		{"the role's name as a session of another role", "arn:aws:sts::123456789012:assumed-role/other/tablesettle-dev-admin", nil},
		{"role with a two-level path, assumed", "arn:aws:sts::123456789012:assumed-role/tablesettle-dev-table-T7/host-7", []principal.Role{principal.Table}},
		{"role with a path, ARN with another path", "arn:aws:iam::123456789012:role/west/tablesettle-dev-table-T7", []principal.Role{principal.Table}},
		{"assumed role with a path-like session (not an STS ARN)", "arn:aws:sts::123456789012:assumed-role/tablesettle-dev-admin/a/b", nil},
		{"assumed-role under the iam service", "arn:aws:iam::123456789012:assumed-role/tablesettle-dev-admin/alice", nil},
		{"role kind under the sts service", "arn:aws:sts::123456789012:role/tablesettle-dev-admin", nil},
		{"federated user", "arn:aws:sts::123456789012:federated-user/tablesettle-dev-admin", nil},
		{"account root", "arn:aws:iam::123456789012:root", nil},
		{"role name differing in case", "arn:aws:sts::123456789012:assumed-role/TableSettle-Dev-Admin/alice", nil},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := m.Principal(tc.arn)
			if !slices.Equal(p.Roles, tc.roles) {
				t.Errorf("roles %v, want %v", p.Roles, tc.roles)
			}
		})
	}
}

// An assumed-role session ARN in the mapping would map every session of
// its role (the key drops the session): an operator who maps
// "assumed-role/floor/alice" as controller would make every session of
// floor a controller. The mapping names IAM roles and users only.
func TestParseIAMRefusesSessionARN(t *testing.T) {
	_, err := ParseIAM(`[{"arn":"arn:aws:sts::123456789012:assumed-role/floor/alice","roles":["controller"]}]`)
	if err == nil || !strings.Contains(err.Error(), "arn: want") {
		t.Fatalf("a session ARN as a mapping key: err %v, want it refused", err)
	}
}
