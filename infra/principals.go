package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/jsii-runtime-go"
)

// accessJSON is the service's access table (internal/auth.Routes), role by
// role, as a test of the service writes it: infra is its own module and
// cannot import the service's packages, and internal/auth's test fails
// when this file does not say what the service enforces.
//
//go:embed access.json
var accessJSON []byte

// IAMPrincipalsEnv is the functions' environment variable that maps the
// stack's IAM roles to principals (internal/lambdaapp reads it).
const IAMPrincipalsEnv = "TABLESETTLE_IAM_PRINCIPALS"

// PeopleRoles are the roles of people (and the cage's systems): one IAM
// role each. The table role is one IAM role per table (StageConfig.Tables),
// because the service binds a table principal to its table ids by the IAM
// role it signs with.
var PeopleRoles = []string{"supervisor", "cage", "controller", "admin", "display"}

// Access returns, for each role, the routes ("METHOD /path") its IAM role
// may invoke.
func Access() (map[string][]string, error) {
	var f struct {
		Roles map[string][]string `json:"roles"`
	}
	if err := json.Unmarshal(accessJSON, &f); err != nil {
		return nil, fmt.Errorf("access.json: %w", err)
	}
	if len(f.Roles) == 0 {
		return nil, fmt.Errorf("access.json: no roles")
	}
	return f.Roles, nil
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// InvokeTarget is the method and resource path of a route in an
// execute-api ARN: each path parameter becomes IAM's wildcard. (IAM's *
// also matches '/', so GET /v1/pools/* covers deeper GET routes too: the
// service refuses those itself with 403 from the same access table.)
func InvokeTarget(route string) (method, path string) {
	method, path, _ = strings.Cut(route, " ")
	return method, pathParam.ReplaceAllString(path, "*")
}

// principalRoles defines one IAM role per role of people and one per table,
// each allowed execute-api:Invoke on exactly its role's routes, and hands
// the functions the mapping of those roles to principals.
func principalRoles(stack awscdk.Stack, cfg StageConfig, api awsapigatewayv2.HttpApi, fns map[string]awslambda.Function) error {
	access, err := Access()
	if err != nil {
		return err
	}
	var mapping []map[string]any
	mk := func(id, role string, tables []string) error {
		routes := access[role]
		if len(routes) == 0 {
			return fmt.Errorf("access.json: role %q has no routes", role)
		}
		desc := "tablesettle " + cfg.Stage + ": role " + role
		if len(tables) > 0 {
			desc += " bound to table " + strings.Join(tables, ",")
		}
		r := awsiam.NewRole(stack, jsii.String(id), &awsiam.RoleProps{
			// Anyone in the account the operator allows to assume it
			// (sts:AssumeRole in their own policy): people through their
			// SSO, a table host through its instance profile.
			AssumedBy:   awsiam.NewAccountRootPrincipal(),
			Description: jsii.String(desc),
		})
		arns := make([]*string, 0, len(routes))
		for _, route := range routes {
			m, p := InvokeTarget(route)
			arns = append(arns, api.ArnForExecuteApi(jsii.String(m), jsii.String(p), jsii.String("$default")))
		}
		r.AddToPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Sid:       jsii.String("InvokeRoutesOfRole"),
			Effect:    awsiam.Effect_ALLOW,
			Actions:   jsii.Strings("execute-api:Invoke"),
			Resources: &arns,
		}))
		entry := map[string]any{"arn": r.RoleArn(), "roles": []string{role}}
		if len(tables) > 0 {
			entry["tables"] = tables
		}
		mapping = append(mapping, entry)
		awscdk.NewCfnOutput(stack, jsii.String(id+"Arn"), &awscdk.CfnOutputProps{
			Value:       r.RoleArn(),
			Description: jsii.String("IAM role to assume for " + desc),
		})
		return nil
	}
	for _, role := range PeopleRoles {
		if err := mk("Role"+strings.ToUpper(role[:1])+role[1:], role, nil); err != nil {
			return err
		}
	}
	tables := append([]string(nil), cfg.Tables...)
	sort.Strings(tables)
	for _, t := range tables {
		if err := mk("RoleTable"+t, "table", []string{t}); err != nil {
			return err
		}
	}
	value := stack.ToJsonString(mapping, nil)
	for _, spec := range Functions {
		if spec.Scheduled {
			continue // it serves no caller
		}
		fns[spec.Name].AddEnvironment(jsii.String(IAMPrincipalsEnv), value, nil)
	}
	return nil
}
