package main

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"
)

// joined renders a CloudFormation value as text: literal strings as they
// are, a Ref or GetAtt as {Ref:id} / {GetAtt:id}.
func joined(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		if j, ok := x["Fn::Join"].([]any); ok && len(j) == 2 {
			parts, _ := j[1].([]any)
			var b strings.Builder
			for _, p := range parts {
				b.WriteString(joined(p))
			}
			return b.String()
		}
		if r, ok := x["Ref"].(string); ok {
			return "{Ref:" + r + "}"
		}
		if g, ok := x["Fn::GetAtt"].([]any); ok && len(g) > 0 {
			return "{GetAtt:" + g[0].(string) + "}"
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// roleIDs maps each role's description to its logical id.
func roleIDs(raw map[string]any) map[string]string {
	out := map[string]string{}
	for id, r := range resources(raw, "AWS::IAM::Role") {
		if d, _ := props(r)["Description"].(string); strings.HasPrefix(d, "tablesettle test: role ") {
			out[strings.TrimPrefix(d, "tablesettle test: ")] = id
		}
	}
	return out
}

// Each role's IAM role may invoke exactly the routes access.json (the
// service's access table) gives that role, on the $default stage of this
// API, and nothing else (issue 16 item 4).
func TestPrincipalRolesInvokeExactlyTheirRoutes(t *testing.T) {
	_, raw := template(t)
	access, err := Access()
	if err != nil {
		t.Fatal(err)
	}
	ids := roleIDs(raw)
	want := map[string]string{ // description -> role
		"role supervisor": "supervisor", "role cage": "cage", "role controller": "controller", "role admin": "admin",
		"role display":                  "display", // the sign: GET /v1/pools/*/display only (issue 24)
		"role table bound to table T12": "table", "role table bound to table T7": "table",
	}
	if len(ids) != len(want) {
		t.Fatalf("principal roles %v, want %d", ids, len(want))
	}
	apiIDs := resources(raw, "AWS::ApiGatewayV2::Api")
	var apiID string
	for id := range apiIDs {
		apiID = id
	}
	policies := resources(raw, "AWS::IAM::Policy")
	for desc, role := range want {
		t.Run(desc, func(t *testing.T) {
			id, ok := ids[desc]
			if !ok {
				t.Fatalf("no IAM role %q", desc)
			}
			var got []string
			n := 0
			for _, p := range policies {
				if !refersTo(props(p)["Roles"], id) {
					continue
				}
				n++
				doc := props(p)["PolicyDocument"].(map[string]any)
				for _, st := range doc["Statement"].([]any) {
					s := st.(map[string]any)
					if s["Effect"] != "Allow" || s["Action"] != "execute-api:Invoke" {
						t.Errorf("statement %v: want Allow execute-api:Invoke only", s)
					}
					res, ok := s["Resource"].([]any)
					if !ok {
						res = []any{s["Resource"]}
					}
					for _, r := range res {
						arn := joined(r)
						prefix := "arn:{Ref:AWS::Partition}:execute-api:{Ref:AWS::Region}:{Ref:AWS::AccountId}:{Ref:" + apiID + "}/$default/"
						rest, ok := strings.CutPrefix(arn, prefix)
						if !ok {
							t.Errorf("resource %s is not a route of this API's $default stage", arn)
							continue
						}
						got = append(got, rest)
					}
				}
			}
			if n != 1 {
				t.Fatalf("%d policies attached, want 1", n)
			}
			var exp []string
			for _, route := range access[role] {
				m, p := InvokeTarget(route)
				exp = append(exp, m+p)
			}
			sort.Strings(got)
			sort.Strings(exp)
			if !slices.Equal(got, exp) {
				t.Errorf("invokes\n%v\nwant\n%v", got, exp)
			}
			// Spot checks of the design, whatever access.json says.
			has := func(s string) bool { return slices.Contains(got, s) }
			switch role {
			case "table":
				if !has("POST/v1/pools/*/rounds") || has("POST/v1/pools") || has("POST/v1/pools/*/adjustments") {
					t.Errorf("table role: %v", got)
				}
			case "admin":
				if !has("POST/v1/pools") || has("POST/v1/pools/*/rounds") || has("GET/v1/pools/*/reconcile") {
					t.Errorf("admin role: %v", got)
				}
			case "controller":
				if !has("GET/v1/pools/*/reconcile") || has("POST/v1/pools") {
					t.Errorf("controller role: %v", got)
				}
			}
			if role == "display" {
				// The sign's kiosk reads displays and nothing else (issue 24)
				// but the ledger's verifier keys, which are public (issue 34
				// item 2: the keys need no credentials).
				if !slices.Equal(got, []string{"GET/v1/ledger/keys", "GET/v1/pools/*/display"}) {
					t.Errorf("display role: %v", got)
				}
			} else if !has("POST/v1/rounds/settle") {
				t.Errorf("%s cannot settle (stateless, any authenticated role)", role)
			}
		})
	}
}

// Every function maps the stack's roles to principals: the IAM ARN of each
// role in TABLESETTLE_IAM_PRINCIPALS, the table roles with their table.
func TestFunctionsMapTheRoles(t *testing.T) {
	_, raw := template(t)
	ids := roleIDs(raw)
	for fid, f := range resources(raw, "AWS::Lambda::Function") {
		if props(f)["FunctionName"] == "tablesettle-test-sweep" {
			continue // scheduled: it serves no caller (TestSweepIsScheduledEveryMinute)
		}
		env, _ := props(f)["Environment"].(map[string]any)
		vars, _ := env["Variables"].(map[string]any)
		m := joined(vars[IAMPrincipalsEnv])
		for desc, id := range ids {
			if !strings.Contains(m, `{"arn":"{GetAtt:`+id+`}"`) {
				t.Errorf("function %s: mapping lacks %s (%s): %s", fid, desc, id, m)
			}
		}
		for _, want := range []string{`"roles":["table"],"tables":["T12"]`, `"roles":["table"],"tables":["T7"]`, `"roles":["admin"]}`} {
			if !strings.Contains(m, want) {
				t.Errorf("function %s: mapping lacks %s: %s", fid, want, m)
			}
		}
	}
}

// Each route has its own throttle (issue 16 item 6): a custom analysis
// (29 s of a vCPU) far below settlement, every route at or below the
// stage's limit.
func TestRouteThrottles(t *testing.T) {
	_, raw := template(t)
	for id, st := range resources(raw, "AWS::ApiGatewayV2::Stage") {
		rs, _ := props(st)["RouteSettings"].(map[string]any)
		all := append(append([]Route{}, Routes...), PageRoutes...)
		if len(rs) != len(all) {
			t.Fatalf("stage %s: %d route settings, want %d", id, len(rs), len(all))
		}
		for _, r := range all {
			key := string(r.Method) + " " + r.Path
			s, _ := rs[key].(map[string]any)
			if s["ThrottlingRateLimit"] != r.Rate || s["ThrottlingBurstLimit"] != r.Burst {
				t.Errorf("%s: %v, want rate %v burst %v", key, s, r.Rate, r.Burst)
			}
			if r.Rate <= 0 || r.Burst < r.Rate || r.Rate > 500 || r.Burst > 1000 {
				t.Errorf("%s: rate %v burst %v outside (0, stage]", key, r.Rate, r.Burst)
			}
		}
		analyze, _ := rs["POST /v1/paytables/analyze"].(map[string]any)
		settle, _ := rs["POST /v1/rounds/settle"].(map[string]any)
		if analyze["ThrottlingRateLimit"] != 2.0 || settle["ThrottlingRateLimit"] != 500.0 {
			t.Errorf("analyze %v, settle %v: want 2 and 500 requests/s", analyze, settle)
		}
		deps, _ := st["DependsOn"].([]any)
		if len(deps) < len(all) {
			t.Errorf("stage %s depends on %d resources: its route settings need every route first", id, len(deps))
		}
	}
}
