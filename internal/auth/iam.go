package auth

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// IAMEntry maps one IAM role (or user) to its roles and tables:
//
//	{"arn": "arn:aws:iam::123456789012:role/tablesettle-prod-table-T12", "roles": ["table"], "tables": ["T12"]}
//
// In the stack the mapping is the function's environment variable
// TABLESETTLE_IAM_PRINCIPALS, a JSON array of these, written by the CDK
// stack from the roles it creates (infra/).
type IAMEntry struct {
	ARN    string           `json:"arn"`
	Roles  []principal.Role `json:"roles"`
	Tables []string         `json:"tables,omitempty"`
}

// IAM maps the IAM identity API Gateway authenticated to a principal.
type IAM struct {
	byKey map[string]IAMEntry
}

// ParseIAM reads a mapping (a JSON array of IAMEntry). An empty string is
// an empty mapping: every caller is authenticated and holds no role.
func ParseIAM(s string) (*IAM, error) {
	m := &IAM{byKey: map[string]IAMEntry{}}
	if strings.TrimSpace(s) == "" {
		return m, nil
	}
	var entries []IAMEntry
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("want a JSON array of {\"arn\", \"roles\", \"tables\"}: %w", err)
	}
	if err := atEnd(dec); err != nil {
		return nil, err
	}
	for i, e := range entries {
		where := fmt.Sprintf("[%d] %q", i, e.ARN)
		key, session, ok := arnKey(e.ARN)
		if !ok || session {
			// A session's key is its role's: mapping one session would map
			// every session of the role.
			return nil, fmt.Errorf("%s: arn: want arn:PARTITION:iam::ACCOUNT:role/NAME (or user/NAME), not an assumed-role session", where)
		}
		if _, dup := m.byKey[key]; dup {
			return nil, fmt.Errorf("%s: the same IAM identity appears twice", where)
		}
		if err := validRoles(where, e.Roles, e.Tables); err != nil {
			return nil, err
		}
		m.byKey[key] = e
	}
	return m, nil
}

// Principal is the principal of a caller's IAM ARN, as API Gateway gives it
// in requestContext.authorizer.iam.userArn. An assumed role's session
// (arn:aws:sts::ACCOUNT:assumed-role/ROLE/SESSION) maps by its role's name
// and account; the principal's id is the whole ARN, session included, so
// that the ledger names the session (the person or the table host) and not
// only the role. An ARN the mapping does not name is authenticated (API
// Gateway checked its signature) but holds no role.
func (m *IAM) Principal(callerARN string) *principal.Principal {
	p := &principal.Principal{ID: callerARN}
	if key, _, ok := arnKey(callerARN); ok {
		if e, ok := m.byKey[key]; ok {
			p.Roles = slices.Clone(e.Roles)
			p.Tables = slices.Clone(e.Tables)
		}
	}
	return p
}

// arnKey reduces an IAM role, user or assumed-role session ARN to
// "partition:account:role/NAME" (or user/NAME): an IAM role's path is not
// part of its assumed-role ARN, and a session name is the caller's choice.
// session reports an assumed-role session's ARN.
func arnKey(arn string) (key string, session, ok bool) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[1] == "" || parts[4] == "" {
		return "", false, false
	}
	partition, service, account, resource := parts[1], parts[2], parts[4], parts[5]
	kind, rest, ok := strings.Cut(resource, "/")
	if !ok || rest == "" {
		return "", false, false
	}
	segs := strings.Split(rest, "/")
	var name string
	switch {
	case service == "iam" && (kind == "role" || kind == "user"):
		name = segs[len(segs)-1] // path/to/NAME
	case service == "sts" && kind == "assumed-role" && len(segs) == 2:
		kind, name, session = "role", segs[0], true // ROLE/SESSION
	default:
		return "", false, false
	}
	if name == "" {
		return "", false, false
	}
	return partition + ":" + account + ":" + kind + "/" + name, session, true
}
