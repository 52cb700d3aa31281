package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/jsii-runtime-go"
)

// One synthesis serves every test: starting the jsii runtime and
// synthesizing costs seconds, and the template is the same.
var (
	synthOnce sync.Once
	synthTpl  assertions.Template
	synthJSON map[string]any
	// synthUnreserved is a second stage with reservedConcurrency 0.
	synthUnreserved assertions.Template
	// synthDist and synthOut are the dist and cloud assembly directories of
	// that synthesis.
	synthDist, synthOut string
	synthErr            error
)

// fakeDist writes dir/<name>/bootstrap for each function, an executable
// placeholder that differs per function, so the tests need neither make
// build nor a cross compiler.
func fakeDist(dir string) error {
	for _, f := range Functions {
		if err := os.MkdirAll(filepath.Join(dir, f.Name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name, "bootstrap"), []byte("#!/bin/sh\n# "+f.Name+"\n"), 0o755); err != nil {
			return err
		}
	}
	return nil
}

func testConfig(dist string) StageConfig {
	return StageConfig{
		Stage: "test", DistDir: dist, ReservedConcurrency: 25, AnalysisConcurrency: 5, Tables: []string{"T7", "T12"},
		LogRetention: awslogs.RetentionDays_ONE_YEAR, ThrottleRate: 500, ThrottleBurst: 1000, CheckpointRetentionDays: 2557,
	}
}

func template(t *testing.T) (assertions.Template, map[string]any) {
	t.Helper()
	synthOnce.Do(func() {
		dist, err := os.MkdirTemp("", "tablesettle-dist-")
		if err != nil {
			synthErr = err
			return
		}
		if synthErr = fakeDist(dist); synthErr != nil {
			return
		}
		outdir, err := os.MkdirTemp("", "tablesettle-cdkout-")
		if err != nil {
			synthErr = err
			return
		}
		synthDist, synthOut = dist, outdir
		app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(outdir)})
		stack, err := NewTablesettleStack(app, testConfig(dist), nil)
		if err != nil {
			synthErr = err
			return
		}
		// Both stacks exist before the first synthesis (the tree is frozen
		// after it).
		cfg0 := testConfig(dist)
		cfg0.Stage, cfg0.ReservedConcurrency, cfg0.AnalysisConcurrency = "test0", 0, 0
		stack0, err := NewTablesettleStack(app, cfg0, nil)
		if err != nil {
			synthErr = err
			return
		}
		synthTpl = assertions.Template_FromStack(stack, nil)
		synthUnreserved = assertions.Template_FromStack(stack0, nil)
		b, err := json.Marshal(synthTpl.ToJSON())
		if err == nil {
			err = json.Unmarshal(b, &synthJSON)
		}
		synthErr = err
	})
	if synthErr != nil {
		t.Fatal(synthErr)
	}
	return synthTpl, synthJSON
}

// resources returns the template's resources of one type, by logical id.
func resources(tpl map[string]any, typ string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for id, r := range tpl["Resources"].(map[string]any) {
		res := r.(map[string]any)
		if res["Type"] == typ {
			out[id] = res
		}
	}
	return out
}

func props(r map[string]any) map[string]any { return r["Properties"].(map[string]any) }

// functionIDs maps function name (paytables, ...) to its logical id, by the
// FunctionName the stack gives it.
func functionIDs(t *testing.T, tpl map[string]any) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for id, r := range resources(tpl, "AWS::Lambda::Function") {
		name, _ := props(r)["FunctionName"].(string)
		ids[strings.TrimPrefix(name, "tablesettle-test-")] = id
	}
	if len(ids) != len(Functions) {
		t.Fatalf("functions by name: %v, want %d", ids, len(Functions))
	}
	return ids
}

func TestFunctionsAreArmAl2023WithJSONLogsAndRetention(t *testing.T) {
	tpl, raw := template(t)
	tpl.ResourceCountIs(jsii.String("AWS::Lambda::Function"), jsii.Number(5))
	// Settlement and pools have concurrency reserved; custom analyses are
	// capped; irregularities and the sweep share the account's pool (issue
	// 16 item 6).
	reserved := map[string]any{"settle": 25, "pools": 25, "paytables": 5, "irregularities": assertions.Match_Absent(), "sweep": assertions.Match_Absent()}
	for _, f := range Functions {
		tpl.HasResourceProperties(jsii.String("AWS::Lambda::Function"), map[string]any{
			"FunctionName":                 "tablesettle-test-" + f.Name,
			"Runtime":                      "provided.al2023",
			"Architectures":                []any{"arm64"},
			"Handler":                      "bootstrap",
			"MemorySize":                   f.MemoryMB,
			"Timeout":                      f.TimeoutSec,
			"ReservedConcurrentExecutions": reserved[f.Name],
			"LoggingConfig": assertions.Match_ObjectLike(&map[string]any{
				"LogFormat": "JSON",
				"LogGroup":  assertions.Match_AnyValue(),
			}),
		})
	}
	// Every function logs to its own group, and the API to one more, all
	// with the configured retention.
	groups := resources(raw, "AWS::Logs::LogGroup")
	if len(groups) != len(Functions)+1 {
		t.Fatalf("%d log groups, want %d", len(groups), len(Functions)+1)
	}
	for id, g := range groups {
		if got := props(g)["RetentionInDays"]; got != float64(365) {
			t.Errorf("log group %s: RetentionInDays %v, want 365", id, got)
		}
		if g["DeletionPolicy"] != "Retain" {
			t.Errorf("log group %s: DeletionPolicy %v, want Retain", id, g["DeletionPolicy"])
		}
	}
}

// reservedConcurrency 0 leaves the functions unreserved (no property).
func TestReservedConcurrencyIsOptional(t *testing.T) {
	template(t)
	synthUnreserved.AllResourcesProperties(jsii.String("AWS::Lambda::Function"), map[string]any{
		"ReservedConcurrentExecutions": assertions.Match_Absent(),
	})
}

// The pools function and the sweep, which pays held hits, are the only
// functions told the table's name.
func TestOnlyPoolsAndSweepKnowTheTable(t *testing.T) {
	_, raw := template(t)
	ids := functionIDs(t, raw)
	fns := resources(raw, "AWS::Lambda::Function")
	for name, id := range ids {
		env, _ := props(fns[id])["Environment"].(map[string]any)
		vars, _ := env["Variables"].(map[string]any)
		_, has := vars["TABLESETTLE_TABLE"]
		if want := name == "pools" || name == "sweep"; has != want {
			t.Errorf("%s: TABLESETTLE_TABLE set = %v, want %v (CONTRACTS.md: pools function only, and the sweep)", name, has, want)
		}
	}
}

// The table's key schema is CONTRACTS.md's: pk (S) hash, sk (S) range,
// on-demand; one GSI, the sparse held index the sweep queries (heldKey S,
// heldDue N, keys only: internal/dynamo/held.go); it holds money, so
// PITR, deletion protection, RETAIN.
func TestPoolsTable(t *testing.T) {
	tpl, raw := template(t)
	tpl.ResourceCountIs(jsii.String("AWS::DynamoDB::Table"), jsii.Number(1))
	tpl.HasResource(jsii.String("AWS::DynamoDB::Table"), map[string]any{
		"DeletionPolicy":      "Retain",
		"UpdateReplacePolicy": "Retain",
		"Properties": map[string]any{
			"KeySchema": []any{
				map[string]any{"AttributeName": "pk", "KeyType": "HASH"},
				map[string]any{"AttributeName": "sk", "KeyType": "RANGE"},
			},
			"AttributeDefinitions": assertions.Match_ArrayWith(&[]any{
				map[string]any{"AttributeName": "pk", "AttributeType": "S"},
				map[string]any{"AttributeName": "sk", "AttributeType": "S"},
				map[string]any{"AttributeName": "heldKey", "AttributeType": "S"},
				map[string]any{"AttributeName": "heldDue", "AttributeType": "N"},
			}),
			"BillingMode":                      "PAY_PER_REQUEST",
			"PointInTimeRecoverySpecification": map[string]any{"PointInTimeRecoveryEnabled": true},
			"DeletionProtectionEnabled":        true,
			"SSESpecification":                 map[string]any{"SSEEnabled": true},
			"GlobalSecondaryIndexes": []any{map[string]any{
				"IndexName": "held",
				"KeySchema": []any{
					map[string]any{"AttributeName": "heldKey", "KeyType": "HASH"},
					map[string]any{"AttributeName": "heldDue", "KeyType": "RANGE"},
				},
				"Projection": map[string]any{"ProjectionType": "KEYS_ONLY"},
			}},
		},
	})
	for id, tbl := range resources(raw, "AWS::DynamoDB::Table") {
		if n := len(asAny(props(tbl)["AttributeDefinitions"])); n != 4 {
			t.Errorf("table %s: %d attribute definitions, want 4 (pk, sk, heldKey, heldDue)", id, n)
		}
	}
	for id, tbl := range resources(raw, "AWS::DynamoDB::Table") {
		if _, ok := props(tbl)["ProvisionedThroughput"]; ok {
			t.Errorf("table %s has ProvisionedThroughput; want on-demand only", id)
		}
	}
}

// refersTo says whether v (a CloudFormation value) mentions logical id.
func refersTo(v any, id string) bool {
	b, _ := json.Marshal(v)
	return strings.Contains(string(b), `"`+id+`"`)
}

func asStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			s, _ := e.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// storeTableActions is the list the pool store keeps beside its code
// (internal/dynamo/doc.go, var IAMActions), sorted: the actions it performs
// at run time, PutItem included for the Puts inside its transactions. The
// pools function's policy grants exactly these: no more (least privilege),
// no fewer (the store would be refused in production).
func storeTableActions(t *testing.T) []string {
	t.Helper()
	return docActions(t, "IAMActions")
}

// docActions is the sorted list of dynamodb: actions of var name in
// internal/dynamo/doc.go.
func docActions(t *testing.T, name string) []string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "internal", "dynamo", "doc.go"))
	if err != nil {
		t.Fatalf("the pool store's action list: %v", err)
	}
	src := string(doc)
	start := strings.Index(src, "var "+name+" = []string{")
	if start < 0 {
		t.Fatalf("internal/dynamo/doc.go has no var %s = []string{...}", name)
	}
	end := strings.Index(src[start:], "}")
	want := dynamoAction.FindAllString(src[start:start+end], -1)
	if len(want) == 0 {
		t.Fatalf("internal/dynamo/doc.go lists no dynamodb: action in %s", name)
	}
	sort.Strings(want)
	return slices.Compact(want)
}

var dynamoAction = regexp.MustCompile(`dynamodb:[A-Z][A-Za-z]+`)

// PoolTableActions is the store's own list, exactly; so are the sweep's
// two lists, on the table and on the held index.
func TestPolicyIsWhatThePoolStoreUses(t *testing.T) {
	for _, c := range []struct {
		name string
		got  []string
		doc  string
	}{{"PoolTableActions", PoolTableActions, "IAMActions"}, {"HeldIndexActions", HeldIndexActions, "SweepIndexIAMActions"}} {
		got := slices.Clone(c.got)
		sort.Strings(got)
		if want := docActions(t, c.doc); !slices.Equal(got, want) {
			t.Errorf("%s %v, the store uses exactly %v (internal/dynamo/doc.go %s)", c.name, got, want, c.doc)
		}
	}
	// The sweep pays, folds the shards into its commit and reads; it never
	// deletes or scans.
	for _, a := range append(slices.Clone(PoolTableActions), HeldIndexActions...) {
		if a == "dynamodb:DeleteItem" || a == "dynamodb:Scan" || a == "dynamodb:BatchWriteItem" {
			t.Errorf("the sweep is granted %s", a)
		}
	}
}

// Least privilege: the statements that touch the table are exactly
// three, each a plain Allow with no wildcard, each attached to one role:
// the pools function's, PoolTableActions on the table ARN; the sweep's,
// PoolTableActions on the table ARN and HeldIndexActions on the held
// index's ARN only. No other role has any DynamoDB action at all.
func TestTablePolicyIsExactlyTheContractActions(t *testing.T) {
	_, raw := template(t)
	tables := resources(raw, "AWS::DynamoDB::Table")
	var tableID string
	for id := range tables {
		tableID = id
	}
	ids := functionIDs(t, raw)
	// The function's Role is {"Fn::GetAtt": [roleID, "Arn"]}; policies name it {"Ref": roleID}.
	roleOf := func(name string) string {
		roleAttr := props(resources(raw, "AWS::Lambda::Function")[ids[name]])["Role"].(map[string]any)["Fn::GetAtt"].([]any)
		b, _ := json.Marshal([]any{map[string]any{"Ref": roleAttr[0]}})
		return string(b)
	}
	tableArn := `{"Fn::GetAtt":["` + tableID + `","Arn"]}`
	indexArn := `{"Fn::Join":["",[` + tableArn + `,"/index/held"]]}`
	type grant struct{ role, resource, actions string }
	want := map[grant]bool{
		{roleOf("pools"), tableArn, strings.Join(docActions(t, "IAMActions"), " ")}:           true,
		{roleOf("sweep"), tableArn, strings.Join(docActions(t, "IAMActions"), " ")}:           true,
		{roleOf("sweep"), indexArn, strings.Join(docActions(t, "SweepIndexIAMActions"), " ")}: true,
	}
	got := map[grant]bool{}
	for pid, p := range resources(raw, "AWS::IAM::Policy") {
		doc := props(p)["PolicyDocument"].(map[string]any)
		roles, _ := json.Marshal(props(p)["Roles"])
		for _, st := range doc["Statement"].([]any) {
			s := st.(map[string]any)
			actions := asStrings(s["Action"])
			dynamo := false
			for _, a := range actions {
				if strings.Contains(a, "*") {
					t.Errorf("policy %s: wildcard action %q", pid, a)
				}
				if strings.HasPrefix(a, "dynamodb:") {
					dynamo = true
				}
			}
			if !dynamo && !refersTo(s["Resource"], tableID) {
				continue
			}
			if s["Effect"] != "Allow" || s["NotAction"] != nil || s["NotResource"] != nil {
				t.Errorf("policy %s: statement %v: want a plain Allow", pid, s)
			}
			sorted := slices.Clone(actions)
			sort.Strings(sorted)
			res, _ := json.Marshal(s["Resource"])
			g := grant{string(roles), string(res), strings.Join(sorted, " ")}
			if !want[g] {
				t.Errorf("policy %s grants %s on %s to %s: not one of the three grants (internal/dynamo/doc.go)", pid, g.actions, g.resource, g.role)
			}
			got[g] = true
		}
	}
	for g := range want {
		if !got[g] {
			t.Errorf("no statement grants %s on %s to %s", g.actions, g.resource, g.role)
		}
	}
	// No inline policies or managed policies with DynamoDB hidden in roles.
	for rid, r := range resources(raw, "AWS::IAM::Role") {
		if b, _ := json.Marshal(r); strings.Contains(string(b), "dynamodb") {
			t.Errorf("role %s mentions dynamodb outside the one policy: %s", rid, b)
		}
	}
}

// The sweep (functions/sweep) is invoked by one EventBridge rule every
// minute, with no retry of its own (the next minute's run is the retry),
// and by nothing else: no route, no API integration reaches it, and it is
// given no principals (it serves no caller). Its failures alarm like any
// function's (TestAlarms).
func TestSweepIsScheduledEveryMinute(t *testing.T) {
	tpl, raw := template(t)
	ids := functionIDs(t, raw)
	sweep := ids["sweep"]
	rules := resources(raw, "AWS::Events::Rule")
	if len(rules) != 1 {
		t.Fatalf("%d EventBridge rules, want 1 (the sweep's)", len(rules))
	}
	var ruleID string
	for id, r := range rules {
		ruleID = id
		p := props(r)
		if p["ScheduleExpression"] != "rate(1 minute)" || p["State"] != "ENABLED" || p["Name"] != "tablesettle-test-sweep" {
			t.Errorf("rule %s: schedule %v, state %v, name %v; want rate(1 minute), ENABLED, tablesettle-test-sweep", id, p["ScheduleExpression"], p["State"], p["Name"])
		}
		targets := asAny(p["Targets"])
		if len(targets) != 1 || !refersTo(targets[0].(map[string]any)["Arn"], sweep) {
			t.Errorf("rule %s: targets %v, want the sweep function alone", id, targets)
		}
		if _, has := p["EventPattern"]; has {
			t.Errorf("rule %s has an event pattern: a schedule has none", id)
		}
	}
	// EventBridge, from this rule only, may invoke the sweep.
	tpl.HasResourceProperties(jsii.String("AWS::Lambda::Permission"), map[string]any{
		"Action":       "lambda:InvokeFunction",
		"Principal":    "events.amazonaws.com",
		"FunctionName": map[string]any{"Fn::GetAtt": []any{sweep, "Arn"}},
		"SourceArn":    map[string]any{"Fn::GetAtt": []any{ruleID, "Arn"}},
	})
	for id, perm := range resources(raw, "AWS::Lambda::Permission") {
		p := props(perm)
		if refersTo(p["FunctionName"], sweep) && p["Principal"] != "events.amazonaws.com" {
			t.Errorf("permission %s lets %v invoke the sweep", id, p["Principal"])
		}
	}
	tpl.HasResourceProperties(jsii.String("AWS::Lambda::EventInvokeConfig"), map[string]any{
		"FunctionName":         map[string]any{"Ref": sweep},
		"MaximumRetryAttempts": 0,
	})
	for id, in := range resources(raw, "AWS::ApiGatewayV2::Integration") {
		if refersTo(props(in)["IntegrationUri"], sweep) {
			t.Errorf("integration %s reaches the sweep: no route may", id)
		}
	}
	env, _ := props(resources(raw, "AWS::Lambda::Function")[sweep])["Environment"].(map[string]any)
	vars, _ := env["Variables"].(map[string]any)
	if _, has := vars[IAMPrincipalsEnv]; has {
		t.Errorf("the sweep is given %s: it serves no caller", IAMPrincipalsEnv)
	}
}

// Every API route requires IAM (SigV4) authorization, and the routes are
// exactly CONTRACTS.md's, each to its function; GET
// /v1/rulesets/{id}/irregularities goes to irregularities, not to
// paytables' GET /v1/rulesets/{id}. The floor's pages alone (no data) take
// no authorization.
func TestRoutesAreSignedAndGoToTheirFunctions(t *testing.T) {
	tpl, raw := template(t)
	tpl.ResourceCountIs(jsii.String("AWS::ApiGatewayV2::Route"), jsii.Number(float64(len(Routes)+len(PageRoutes))))
	pages := map[string]bool{"GET /": true, "GET /display/{pool}": true, "GET /playground": true, "GET /assets/{file}": true,
		"GET /v1/ledger/keys": true} // public: the ledger's verifier keys (issue 34 item 2)
	ids := functionIDs(t, raw)
	integrations := resources(raw, "AWS::ApiGatewayV2::Integration")
	got := map[string]string{} // route key -> function name
	for rid, r := range resources(raw, "AWS::ApiGatewayV2::Route") {
		p := props(r)
		key, _ := p["RouteKey"].(string)
		switch {
		case pages[key]:
			if at, ok := p["AuthorizationType"]; ok && at != "NONE" {
				t.Errorf("page route %s (%s): AuthorizationType %v, want NONE", rid, key, at)
			}
		case p["AuthorizationType"] != "AWS_IAM":
			t.Errorf("route %s (%s): AuthorizationType %v, want AWS_IAM", rid, key, p["AuthorizationType"])
		}
		var fn string
		for iid, in := range integrations {
			if !refersTo(p["Target"], iid) {
				continue
			}
			for name, fid := range ids {
				if refersTo(props(in)["IntegrationUri"], fid) {
					fn = name
				}
			}
		}
		got[key] = fn
	}
	want := map[string]string{
		"GET /v1/rulesets":                     "paytables",
		"GET /v1/rulesets/{id}":                "paytables",
		"GET /v1/rulesets/{id}/analysis":       "paytables",
		"POST /v1/paytables/analyze":           "paytables",
		"POST /v1/hands/evaluate":              "paytables",
		"GET /v1/me":                           "paytables",
		"GET /":                                "paytables",
		"GET /display/{pool}":                  "paytables",
		"GET /playground":                      "paytables",
		"GET /assets/{file}":                   "paytables",
		"POST /v1/rounds/settle":               "settle",
		"ANY /v1/pools":                        "pools",
		"ANY /v1/pools/{proxy+}":               "pools",
		"GET /v1/ledger/keys":                  "pools",
		"GET /v1/rulesets/{id}/irregularities": "irregularities",
		"POST /v1/irregularities":              "irregularities",
		// What answers cite (rules/: the rulings and the documents' clauses).
		"GET /v1/rulings":                        "paytables",
		"GET /v1/rulings/{id}":                   "paytables",
		"GET /v1/rulesets/{id}/document":         "paytables",
		"GET /v1/rulesets/{id}/clauses/{clause}": "paytables",
	}
	for k, fn := range want {
		if got[k] != fn {
			t.Errorf("route %q goes to %q, want %q", k, got[k], fn)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected route %q", k)
		}
	}
	// internal/lambdaapp reads API Gateway HTTP API payload 2.0 events.
	tpl.AllResourcesProperties(jsii.String("AWS::ApiGatewayV2::Integration"), map[string]any{
		"IntegrationType":      "AWS_PROXY",
		"PayloadFormatVersion": "2.0",
	})
	// No $default catch-all route that could bypass the list.
	if _, ok := got["$default"]; ok {
		t.Error("a $default route exists")
	}
	// The access log is JSON and names the signing IAM principal.
	for id, st := range resources(raw, "AWS::ApiGatewayV2::Stage") {
		als, _ := props(st)["AccessLogSettings"].(map[string]any)
		format, _ := als["Format"].(string)
		var rec map[string]string
		if err := json.Unmarshal([]byte(format), &rec); err != nil {
			t.Errorf("stage %s: access log format is not JSON: %v", id, err)
		}
		if rec["caller"] != "$context.identity.userArn" || rec["status"] != "$context.status" {
			t.Errorf("stage %s: access log record %v lacks the caller or the status", id, rec)
		}
		if als["DestinationArn"] == nil {
			t.Errorf("stage %s: access log has no destination", id)
		}
	}
	tpl.HasResourceProperties(jsii.String("AWS::ApiGatewayV2::Stage"), map[string]any{
		"StageName":  "$default",
		"AutoDeploy": true,
		"DefaultRouteSettings": map[string]any{
			"ThrottlingRateLimit":  500,
			"ThrottlingBurstLimit": 1000,
		},
	})
}

// Alarms: API 5xx rate, and per function errors and throttles, and DynamoDB
// system errors; every alarm notifies the topic.
func TestAlarms(t *testing.T) {
	_, raw := template(t)
	alarms := resources(raw, "AWS::CloudWatch::Alarm")
	var metrics []string
	for id, a := range alarms {
		b, _ := json.Marshal(a)
		s := string(b)
		for _, m := range []string{`"MetricName":"5xx"`, `"MetricName":"Throttles"`, `"MetricName":"Errors"`, `"MetricName":"SystemErrors"`} {
			if strings.Contains(s, m) {
				metrics = append(metrics, m)
			}
		}
		p := props(a)
		if len(asAny(p["AlarmActions"])) == 0 {
			t.Errorf("alarm %s has no action", id)
		}
	}
	count := func(m string) (n int) {
		for _, x := range metrics {
			if x == m {
				n++
			}
		}
		return n
	}
	if n := count(`"MetricName":"5xx"`); n != 1 {
		t.Errorf("%d alarms on API 5xx, want 1", n)
	}
	if n := count(`"MetricName":"Throttles"`); n != len(Functions) {
		t.Errorf("%d throttle alarms, want %d", n, len(Functions))
	}
	if n := count(`"MetricName":"Errors"`); n != len(Functions) {
		t.Errorf("%d Lambda error alarms, want %d", n, len(Functions))
	}
	if n := count(`"MetricName":"SystemErrors"`); n != 1 {
		t.Errorf("%d DynamoDB system error alarms, want 1", n)
	}
}

func asAny(v any) []any { x, _ := v.([]any); return x }

func TestConfigFromContext(t *testing.T) {
	dist := t.TempDir()
	if err := fakeDist(dist); err != nil {
		t.Fatal(err)
	}
	ctx := func(m map[string]any) func(string) any { return func(k string) any { return m[k] } }
	def, err := ConfigFromContext(ctx(map[string]any{"distDir": dist}))
	if err != nil {
		t.Fatal(err)
	}
	if def.ReservedConcurrency != 50 || def.AnalysisConcurrency != 10 || len(def.Tables) != 0 {
		t.Errorf("defaults: reserved %v analysis %v tables %v, want 50, 10, none", def.ReservedConcurrency, def.AnalysisConcurrency, def.Tables)
	}
	tc, err := ConfigFromContext(ctx(map[string]any{"distDir": dist, "tables": "T12, T7,bar3"}))
	if err != nil || strings.Join(tc.Tables, "|") != "T12|T7|bar3" {
		t.Errorf("tables %q: %v", tc.Tables, err)
	}
	if tl, err := ConfigFromContext(ctx(map[string]any{"distDir": dist, "tables": []any{"T1", "T2"}})); err != nil || strings.Join(tl.Tables, "|") != "T1|T2" {
		t.Errorf("tables from a cdk.json list: %q %v", tl.Tables, err)
	}
	cfg, err := ConfigFromContext(ctx(map[string]any{"stage": "prod", "distDir": dist, "reservedConcurrency": "50", "logRetentionDays": 731.0}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Stage != "prod" || cfg.ReservedConcurrency != 50 || cfg.LogRetention != awslogs.RetentionDays_TWO_YEARS || cfg.ThrottleRate != 500 {
		t.Errorf("cfg = %+v", cfg)
	}
	// A bootstrap that is not executable: Lambda could not run it (the
	// CDK's zip keeps the file's mode).
	noExec := t.TempDir()
	if err := fakeDist(noExec); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(noExec, "settle", "bootstrap"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []map[string]any{
		{"stage": "Prod", "distDir": dist},
		{"stage": "prod", "distDir": t.TempDir()}, // no <function>/bootstrap
		{"stage": "prod", "distDir": noExec},
		{"stage": "prod", "distDir": dist, "reservedConcurrency": "-1"},
		{"stage": "prod", "distDir": dist, "logRetentionDays": "42"},
		{"stage": "prod", "distDir": dist, "throttleRate": "x"},
		{"stage": "prod", "distDir": dist, "analysisConcurrency": "-1"},
		{"stage": "prod", "distDir": dist, "tables": "T12,T12"},
		{"stage": "prod", "distDir": dist, "tables": "T:12"},
		{"stage": "prod", "distDir": dist, "tables": "T-12"},
	} {
		if _, err := ConfigFromContext(ctx(bad)); err == nil {
			t.Errorf("ConfigFromContext(%v): no error", bad)
		}
	}
}
