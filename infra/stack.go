package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2authorizers"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2integrations"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatchactions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssnssubscriptions"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// PoolTableActions is exactly what the pools function does on the pools
// table: the list internal/dynamo/doc.go keeps beside the code that uses it
// (GetItem, BatchGetItem and Query to read; TransactWriteItems of Puts and Updates to
// write, which DynamoDB authorises as PutItem and UpdateItem too: the
// Updates are the contribution shards' atomic ADDs, docs/scale.md). It is
// written out action by action,
// never as a wildcard or through GrantReadWriteData, which would add
// BatchWriteItem, DeleteItem, Scan and more that the function never calls.
var PoolTableActions = []string{
	"dynamodb:BatchGetItem",
	"dynamodb:GetItem",
	"dynamodb:PutItem",
	"dynamodb:Query",
	"dynamodb:TransactWriteItems",
	"dynamodb:UpdateItem",
}

// HeldIndexActions is what the sweep does on the held index, and only
// there (internal/dynamo/doc.go, SweepIndexIAMActions): one Query for the
// pools with a held hit due.
var HeldIndexActions = []string{"dynamodb:Query"}

// HeldIndexName is the pools table's sparse global secondary index of the
// pool items holding an RWS hit (internal/dynamo/held.go: heldKey S,
// heldDue N, keys projected only).
const HeldIndexName = "held"

// SweepEveryMinutes is how often EventBridge invokes the sweep: a held hit
// is paid within about a minute of its window closing with no page open.
const SweepEveryMinutes = 1

// FunctionSpec is one Lambda function of the API: its name (functions/<name>,
// dist/<name>/bootstrap), its memory and timeout, and whether it uses the table.
//
// Memory and timeout, why:
//   - Lambda gives CPU in proportion to memory (one full vCPU at 1,769 MB).
//     A Go binary on provided.al2023 uses 20-30 MB resident, so memory is
//     bought for CPU, not for space.
//   - settle, pools, irregularities do microseconds to a few milliseconds of
//     work per request (one round's hand evaluations, one DynamoDB
//     transaction). 512 MB (~0.29 vCPU) keeps a cold start of the Go binary
//     near 100 ms and the warm duration in single-digit milliseconds; below
//     that, the JSON decode/encode of a 7-seat round starts to be CPU-bound.
//     A 10 s timeout is far beyond any sane request and stops a hung
//     DynamoDB call from holding concurrency.
//   - paytables also serves /v1/paytables/analyze and
//     /v1/rulesets/{id}/analysis, exhaustive enumerations over card
//     combinations: CPU-bound seconds, so 1,769 MB (one whole vCPU) and 29 s,
//     just under the HTTP API's 30 s integration ceiling.
//   - sweep, scheduled every minute, does one Query of the held index and,
//     per pool with a hit due, one read and one transaction: 256 MB is
//     plenty; 50 s lets it finish before the next minute's run (an overlap
//     would be safe: every release is a conditional commit).
type FunctionSpec struct {
	Name        string
	Concurrency Concurrency
	MemoryMB    float64
	TimeoutSec  float64
	UsesTable   bool
	// Scheduled is a function no route reaches: an EventBridge rule
	// invokes it every SweepEveryMinutes (the sweep). It serves no caller,
	// so it is given no principals.
	Scheduled bool
}

// Functions are the four Lambda functions of the API (CONTRACTS.md "Lambda
// functions") and the scheduled sweep of held hits.
var Functions = []FunctionSpec{
	{Name: "paytables", MemoryMB: 1769, TimeoutSec: 29, Concurrency: Capped},
	{Name: "settle", MemoryMB: 512, TimeoutSec: 10, Concurrency: Reserved},
	{Name: "pools", MemoryMB: 512, TimeoutSec: 10, UsesTable: true, Concurrency: Reserved},
	{Name: "irregularities", MemoryMB: 512, TimeoutSec: 10},
	{Name: "sweep", MemoryMB: 256, TimeoutSec: 50, UsesTable: true, Scheduled: true},
}

// Concurrency is how a function shares the account's Lambda concurrency
// (issue 16 item 6). Reserved concurrency both guarantees and caps:
//   - Reserved (settle, pools): StageConfig.ReservedConcurrency each, so the
//     floor's settlements and pool rounds always have capacity whatever
//     else runs in the account;
//   - Capped (paytables): StageConfig.AnalysisConcurrency, so custom
//     paytable analyses (up to 29 s at 1,769 MB each) can never hold more
//     than that many executions, and so never starve the others;
//   - Shared (irregularities: microseconds, rare): the account's unreserved pool.
type Concurrency uint8

// The concurrency kinds.
const (
	Shared Concurrency = iota
	Reserved
	Capped
)

// Route is one HTTP API route: method ("ANY" for every method), path, and the
// function it goes to.
type Route struct {
	Method   awsapigatewayv2.HttpMethod
	Path     string
	Function string
	// Rate and Burst are the route's throttle (requests per second,
	// steady and burst) before API Gateway answers 429: what the route
	// costs and what the floor needs of it (docs/security.md, "Limits per
	// caller").
	Rate, Burst float64
}

// Routes are CONTRACTS.md's routes, all under /v1. API Gateway matches the
// most specific route first, so GET /v1/rulesets/{id}/irregularities goes to
// irregularities even though GET /v1/rulesets/{id} exists (the stack test
// checks that it does).
var Routes = []Route{
	// Reference data: read once by a table or a console, then cached.
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulesets", "paytables", 50, 100},
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulesets/{id}", "paytables", 50, 100},
	// Precomputed figures, or a few ms of enumeration (TCP, THB bonus).
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulesets/{id}/analysis", "paytables", 20, 40},
	// Up to 29 s of one whole vCPU each: a what-if tool for a game manager,
	// a handful a minute (and capped by AnalysisConcurrency).
	{awsapigatewayv2.HttpMethod_POST, "/v1/paytables/analyze", "paytables", 2, 5},
	{awsapigatewayv2.HttpMethod_POST, "/v1/hands/evaluate", "paytables", 100, 200},
	// Who the caller is: the floor console asks once per sign-in.
	{awsapigatewayv2.HttpMethod_GET, "/v1/me", "paytables", 20, 40},
	// What answers cite: the rulings and the documents' clauses.
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulings", "paytables", 20, 40},
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulings/{id}", "paytables", 50, 100},
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulesets/{id}/document", "paytables", 20, 40},
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulesets/{id}/clauses/{clause}", "paytables", 50, 100},
	// The floor: every round of every table.
	{awsapigatewayv2.HttpMethod_POST, "/v1/rounds/settle", "settle", 500, 1000},
	// Opening a pool: an administrator, rarely.
	{awsapigatewayv2.HttpMethod_ANY, "/v1/pools", "pools", 5, 10},
	// Rounds from every table with a progressive, and the cage's reads.
	{awsapigatewayv2.HttpMethod_ANY, "/v1/pools/{proxy+}", "pools", 300, 600},
	{awsapigatewayv2.HttpMethod_GET, "/v1/rulesets/{id}/irregularities", "irregularities", 20, 40},
	{awsapigatewayv2.HttpMethod_POST, "/v1/irregularities", "irregularities", 50, 100},
}

// PageRoutes are the floor's pages and their assets (internal/web): they
// hold no data, so they take no IAM authorization (a browser loads them
// unsigned); every API call they make is signed and checked like any
// client's. The paytables function serves them. The ledger's verifier
// keys are public too (issue 34 item 2: anyone checks a checkpoint's
// signature without credentials); the pools function, which signs the
// checkpoints, lists them.
var PageRoutes = []Route{
	{awsapigatewayv2.HttpMethod_GET, "/", "paytables", 20, 40},
	{awsapigatewayv2.HttpMethod_GET, "/display/{pool}", "paytables", 20, 40},
	{awsapigatewayv2.HttpMethod_GET, "/playground", "paytables", 20, 40},
	{awsapigatewayv2.HttpMethod_GET, "/assets/{file}", "paytables", 50, 100},
	{awsapigatewayv2.HttpMethod_GET, "/v1/ledger/keys", "pools", 20, 40},
}

// AccessLogFormat is the API's access log record: JSON, one per request.
const AccessLogFormat = `{"requestId":"$context.requestId","requestTime":"$context.requestTimeEpoch",` +
	`"routeKey":"$context.routeKey","status":"$context.status","caller":"$context.identity.userArn",` +
	`"sourceIp":"$context.identity.sourceIp","responseLength":"$context.responseLength",` +
	`"latencyMs":"$context.responseLatency","integrationLatencyMs":"$context.integrationLatency",` +
	`"integrationError":"$context.integrationErrorMessage"}`

// StageConfig is everything that varies between stages. main.go reads it
// from CDK context (-c stage=prod -c reservedConcurrency=50 ...).
type StageConfig struct {
	// Stage names the stage: dev, staging, prod. Lower-case letters, digits
	// and dashes; it goes into the stack name and every resource's name.
	Stage string
	// DistDir holds <name>/bootstrap for each function (make build writes
	// dist/). Each <name>/ directory is the function's code asset: the CDK
	// names it by a hash of its content and zips it when it publishes it.
	DistDir string
	// ReservedConcurrency, when > 0, reserves (and caps) that many concurrent
	// executions for settle and for pools each (Concurrency Reserved), so
	// that nothing else in the account can starve settlement. 0 leaves them
	// unreserved (a sandbox account whose limit is too low to reserve).
	ReservedConcurrency float64
	// AnalysisConcurrency, when > 0, caps the paytables function (custom
	// analyses) at that many concurrent executions. 0: uncapped.
	AnalysisConcurrency float64
	// Tables are the table ids of the stage's table principals: one IAM
	// role each, bound to that table (docs/security.md, "Adding a table").
	Tables []string
	// LogRetention is how long function logs are kept.
	LogRetention awslogs.RetentionDays
	// ThrottleRate and ThrottleBurst bound the stage's request rate
	// (requests per second, steady and burst) before API Gateway answers 429.
	ThrottleRate  float64
	ThrottleBurst float64
	// AlarmEmail, when set, subscribes that address to the alarm topic.
	AlarmEmail string
	// CheckpointRetentionDays is the Object Lock (compliance mode)
	// retention of every checkpoint in the checkpoint bucket: no one, the
	// root user included, can delete or overwrite one before it ends.
	CheckpointRetentionDays float64
}

var stageName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,19}$`)

// tableID is a table id the stack can name an IAM role and its output
// after: letters and digits only, because CloudFormation logical ids keep
// only those (T-12 and T12 would name the same output).
var tableID = regexp.MustCompile(`^[A-Za-z0-9]{1,64}$`)

// Validate says what is wrong with c, naming the context key.
func (c StageConfig) Validate() error {
	if !stageName.MatchString(c.Stage) {
		return fmt.Errorf("context stage=%q: want 1-20 lower-case letters, digits or dashes, starting with a letter", c.Stage)
	}
	if c.DistDir == "" {
		return fmt.Errorf("context distDir: empty")
	}
	for _, f := range Functions {
		bootstrap := filepath.Join(c.DistDir, f.Name, "bootstrap")
		st, err := os.Stat(bootstrap)
		if err != nil {
			return fmt.Errorf("context distDir=%q: no %s/bootstrap (run make build first): %v", c.DistDir, f.Name, err)
		}
		// Lambda runs bootstrap: the CDK's zip keeps the file's mode.
		if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			return fmt.Errorf("context distDir=%q: %s/bootstrap is not an executable file (mode %v)", c.DistDir, f.Name, st.Mode())
		}
	}
	if c.AnalysisConcurrency < 0 {
		return fmt.Errorf("context analysisConcurrency=%v: must be >= 0", c.AnalysisConcurrency)
	}
	seen := map[string]bool{}
	for _, t := range c.Tables {
		if !tableID.MatchString(t) || seen[t] {
			return fmt.Errorf("context tables: %q: want 1-64 letters and digits, each id once", t)
		}
		seen[t] = true
	}
	if c.ReservedConcurrency < 0 {
		return fmt.Errorf("context reservedConcurrency=%v: must be >= 0", c.ReservedConcurrency)
	}
	if c.CheckpointRetentionDays < 1 || c.CheckpointRetentionDays != float64(int(c.CheckpointRetentionDays)) {
		return fmt.Errorf("context checkpointRetentionDays=%v: want a whole number of days, at least 1", c.CheckpointRetentionDays)
	}
	if c.ThrottleRate <= 0 || c.ThrottleBurst <= 0 {
		return fmt.Errorf("context throttleRate=%v throttleBurst=%v: both must be > 0", c.ThrottleRate, c.ThrottleBurst)
	}
	return nil
}

// StackName is the CloudFormation stack name of a stage.
func StackName(stage string) string { return "tablesettle-" + stage }

// NewTablesettleStack defines one stage of tablesettle.
func NewTablesettleStack(scope constructs.Construct, cfg StageConfig, props *awscdk.StackProps) (awscdk.Stack, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if props == nil {
		props = &awscdk.StackProps{}
	}
	if props.Description == nil {
		props.Description = jsii.String("tablesettle settlement and paytable API, stage " + cfg.Stage)
	}
	stack := awscdk.NewStack(scope, jsii.String(StackName(cfg.Stage)), props)
	awscdk.Tags_Of(stack).Add(jsii.String("app"), jsii.String("tablesettle"), nil)
	awscdk.Tags_Of(stack).Add(jsii.String("stage"), jsii.String(cfg.Stage), nil)

	// The pools table. Key schema fixed by CONTRACTS.md; the item layout
	// inside it belongs to internal/dynamo. It holds jackpot pool balances,
	// i.e. money: point-in-time recovery, deletion protection, and RETAIN so
	// that deleting a stage's stack never deletes a pool.
	table := awsdynamodb.NewTable(stack, jsii.String("PoolsTable"), &awsdynamodb.TableProps{
		PartitionKey: &awsdynamodb.Attribute{Name: jsii.String("pk"), Type: awsdynamodb.AttributeType_STRING},
		SortKey:      &awsdynamodb.Attribute{Name: jsii.String("sk"), Type: awsdynamodb.AttributeType_STRING},
		BillingMode:  awsdynamodb.BillingMode_PAY_PER_REQUEST,
		PointInTimeRecoverySpecification: &awsdynamodb.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled: jsii.Bool(true),
		},
		DeletionProtection: jsii.Bool(true),
		// AWS-managed KMS key (aws/dynamodb): encrypted at rest with a key
		// whose use CloudTrail records, and no key policy for the function
		// role to need.
		Encryption:    awsdynamodb.TableEncryption_AWS_MANAGED,
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})
	// The held index (internal/dynamo/held.go): sparse, only the pool
	// items holding an RWS hit carry its keys, so the sweep's one Query
	// reads the pools with a hit due and nothing else.
	table.AddGlobalSecondaryIndex(&awsdynamodb.GlobalSecondaryIndexProps{
		IndexName:      jsii.String(HeldIndexName),
		PartitionKey:   &awsdynamodb.Attribute{Name: jsii.String("heldKey"), Type: awsdynamodb.AttributeType_STRING},
		SortKey:        &awsdynamodb.Attribute{Name: jsii.String("heldDue"), Type: awsdynamodb.AttributeType_NUMBER},
		ProjectionType: awsdynamodb.ProjectionType_KEYS_ONLY,
	})

	alarmTopic := awssns.NewTopic(stack, jsii.String("AlarmTopic"), &awssns.TopicProps{
		DisplayName: jsii.String("tablesettle " + cfg.Stage + " alarms"),
		EnforceSSL:  jsii.Bool(true),
	})
	if cfg.AlarmEmail != "" {
		alarmTopic.AddSubscription(awssnssubscriptions.NewEmailSubscription(jsii.String(cfg.AlarmEmail), nil))
	}
	alarmAction := awscloudwatchactions.NewSnsAction(alarmTopic)
	alarm := func(id, desc string, metric awscloudwatch.IMetric, threshold float64) {
		a := awscloudwatch.NewAlarm(stack, jsii.String(id), &awscloudwatch.AlarmProps{
			AlarmName:          jsii.String(fmt.Sprintf("tablesettle-%s-%s", cfg.Stage, id)),
			AlarmDescription:   jsii.String(desc),
			Metric:             metric,
			Threshold:          jsii.Number(threshold),
			EvaluationPeriods:  jsii.Number(1),
			DatapointsToAlarm:  jsii.Number(1),
			ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
			TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
		})
		a.AddAlarmAction(alarmAction)
		a.AddOkAction(alarmAction)
	}
	period := awscdk.Duration_Minutes(jsii.Number(5))

	led := newLedger(stack, cfg)
	alarm("LedgerMismatch", "tablesettle: the scheduled verifier (sweep) found a pool whose ledger does not reconcile with its signed checkpoints; its log names the pool and the seq",
		mismatches(period), 1)

	fns := map[string]awslambda.Function{}
	for _, spec := range Functions {
		logs := awslogs.NewLogGroup(stack, jsii.String(spec.Name+"Logs"), &awslogs.LogGroupProps{
			Retention: cfg.LogRetention,
			// Logs record why money was paid: they outlive the stack.
			RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
		})
		env := map[string]*string{"LOG_LEVEL": jsii.String("info")}
		if spec.UsesTable {
			env["TABLESETTLE_TABLE"] = table.TableName()
		}
		fnProps := &awslambda.FunctionProps{
			FunctionName: jsii.String(fmt.Sprintf("tablesettle-%s-%s", cfg.Stage, spec.Name)),
			Description:  jsii.String("tablesettle " + spec.Name + " (" + cfg.Stage + ")"),
			Runtime:      awslambda.Runtime_PROVIDED_AL2023(),
			Architecture: awslambda.Architecture_ARM_64(),
			Handler:      jsii.String("bootstrap"),
			// The directory dist/<name>/ is the asset: its S3 key is the
			// hash of its content (the same bootstrap gives the same
			// template), and the CDK CLI zips it on deploy.
			Code:        awslambda.Code_FromAsset(jsii.String(filepath.Join(cfg.DistDir, spec.Name)), nil),
			MemorySize:  jsii.Number(spec.MemoryMB),
			Timeout:     awscdk.Duration_Seconds(jsii.Number(spec.TimeoutSec)),
			Environment: &env,
			// Structured logs: the Lambda platform writes JSON records and
			// the function's slog JSON lines pass through as JSON.
			LoggingFormat:         awslambda.LoggingFormat_JSON,
			ApplicationLogLevelV2: awslambda.ApplicationLogLevel_INFO,
			SystemLogLevelV2:      awslambda.SystemLogLevel_WARN,
			LogGroup:              logs,
		}
		switch {
		case spec.Concurrency == Reserved && cfg.ReservedConcurrency > 0:
			fnProps.ReservedConcurrentExecutions = jsii.Number(cfg.ReservedConcurrency)
		case spec.Concurrency == Capped && cfg.AnalysisConcurrency > 0:
			fnProps.ReservedConcurrentExecutions = jsii.Number(cfg.AnalysisConcurrency)
		}
		if spec.Scheduled {
			// The next minute's run is the retry: an event retried later
			// would only find the work done.
			fnProps.RetryAttempts = jsii.Number(0)
		}
		fn := awslambda.NewFunction(stack, jsii.String(spec.Name+"Function"), fnProps)
		switch {
		case spec.UsesTable && spec.Scheduled:
			fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:       jsii.String("PoolsTableRelease"),
				Effect:    awsiam.Effect_ALLOW,
				Actions:   jsii.Strings(PoolTableActions...), // a release folds the shards as a hit does
				Resources: jsii.Strings(*table.TableArn()),
			}))
			fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:       jsii.String("HeldIndex"),
				Effect:    awsiam.Effect_ALLOW,
				Actions:   jsii.Strings(HeldIndexActions...),
				Resources: jsii.Strings(*table.TableArn() + "/index/" + HeldIndexName),
			}))
		case spec.UsesTable:
			fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:       jsii.String("PoolsTable"),
				Effect:    awsiam.Effect_ALLOW,
				Actions:   jsii.Strings(PoolTableActions...),
				Resources: jsii.Strings(*table.TableArn()),
			}))
		}
		if spec.Scheduled {
			awsevents.NewRule(stack, jsii.String(spec.Name+"Schedule"), &awsevents.RuleProps{
				RuleName:    jsii.String(fmt.Sprintf("tablesettle-%s-%s", cfg.Stage, spec.Name)),
				Description: jsii.String("tablesettle " + spec.Name + " (" + cfg.Stage + "): pays the held RWS hits whose settle window has closed"),
				Schedule:    awsevents.Schedule_Rate(awscdk.Duration_Minutes(jsii.Number(SweepEveryMinutes))),
				Targets: &[]awsevents.IRuleTarget{awseventstargets.NewLambdaFunction(fn, &awseventstargets.LambdaFunctionProps{
					MaxEventAge:   awscdk.Duration_Minutes(jsii.Number(1)),
					RetryAttempts: jsii.Number(2),
				})},
			})
		}
		if spec.UsesTable {
			led.wire(fn, cfg) // writers and the sweep publish checkpoints
		}
		fns[spec.Name] = fn

		alarm(spec.Name+"Errors", "tablesettle "+spec.Name+": the function failed (unhandled error, panic or timeout) at least once in 5 minutes",
			fn.MetricErrors(&awscloudwatch.MetricOptions{Period: period, Statistic: jsii.String("Sum")}), 1)
		alarm(spec.Name+"Throttles", "tablesettle "+spec.Name+": Lambda throttled invocations (concurrency exhausted) in 5 minutes",
			fn.MetricThrottles(&awscloudwatch.MetricOptions{Period: period, Statistic: jsii.String("Sum")}), 1)
	}

	// Every route is signed with SigV4 by the cage and table software and
	// authorised by IAM: the caller's role needs execute-api:Invoke on the
	// route. No route is open.
	iam := awsapigatewayv2authorizers.NewHttpIamAuthorizer()
	api := awsapigatewayv2.NewHttpApi(stack, jsii.String("Api"), &awsapigatewayv2.HttpApiProps{
		ApiName:            jsii.String("tablesettle-" + cfg.Stage),
		Description:        jsii.String("tablesettle API, stage " + cfg.Stage),
		DefaultAuthorizer:  iam,
		CreateDefaultStage: jsii.Bool(false),
	})
	stage := awsapigatewayv2.NewHttpStage(stack, jsii.String("DefaultStage"), &awsapigatewayv2.HttpStageProps{
		HttpApi:    api,
		StageName:  jsii.String("$default"),
		AutoDeploy: jsii.Bool(true),
		Throttle: &awsapigatewayv2.ThrottleSettings{
			RateLimit:  jsii.Number(cfg.ThrottleRate),
			BurstLimit: jsii.Number(cfg.ThrottleBurst),
		},
	})
	// Access log: one JSON record per request, naming the IAM caller that
	// signed it, so every settlement can be traced to who asked for it.
	accessLogs := awslogs.NewLogGroup(stack, jsii.String("ApiAccessLogs"), &awslogs.LogGroupProps{
		Retention:     cfg.LogRetention,
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})
	stage.Node().DefaultChild().(awsapigatewayv2.CfnStage).SetAccessLogSettings(&awsapigatewayv2.CfnStage_AccessLogSettingsProperty{
		DestinationArn: accessLogs.LogGroupArn(),
		Format:         jsii.String(AccessLogFormat),
	})
	integrations := map[string]awsapigatewayv2integrations.HttpLambdaIntegration{}
	for _, spec := range Functions {
		if spec.Scheduled {
			continue // no route reaches it
		}
		integrations[spec.Name] = awsapigatewayv2integrations.NewHttpLambdaIntegration(
			jsii.String(spec.Name+"Integration"), fns[spec.Name], nil)
	}
	routeSettings := map[string]any{}
	none := awsapigatewayv2.NewHttpNoneAuthorizer()
	for i, r := range append(append([]Route{}, Routes...), PageRoutes...) {
		if _, ok := integrations[r.Function]; !ok {
			return nil, fmt.Errorf("route %s %s: no function %q", r.Method, r.Path, r.Function)
		}
		var authorizer awsapigatewayv2.IHttpRouteAuthorizer = iam
		if i >= len(Routes) {
			authorizer = none
		}
		routes := api.AddRoutes(&awsapigatewayv2.AddRoutesOptions{
			Path:        jsii.String(r.Path),
			Methods:     &[]awsapigatewayv2.HttpMethod{r.Method},
			Integration: integrations[r.Function],
			Authorizer:  authorizer,
		})
		// The stage's per-route settings name routes that must exist first.
		for _, rt := range *routes {
			stage.Node().AddDependency(rt)
		}
		routeSettings[string(r.Method)+" "+r.Path] = map[string]any{
			"ThrottlingRateLimit": r.Rate, "ThrottlingBurstLimit": r.Burst,
		}
	}
	stage.Node().DefaultChild().(awsapigatewayv2.CfnStage).SetRouteSettings(routeSettings)

	if err := principalRoles(stack, cfg, api, fns); err != nil {
		return nil, err
	}

	// 5xx rate of the whole API: the share of requests answered 5xx, in
	// percent, over 5 minutes. 1% means a real fault (the service never
	// answers 5xx for bad input: that is 4xx by design).
	alarm("Api5xxRate", "tablesettle API: 1% or more of requests answered 5xx in 5 minutes",
		awscloudwatch.NewMathExpression(&awscloudwatch.MathExpressionProps{
			Expression: jsii.String("IF(requests > 0, 100 * errors / requests, 0)"),
			Label:      jsii.String("5xx rate (%)"),
			Period:     period,
			UsingMetrics: &map[string]awscloudwatch.IMetric{
				"errors":   api.MetricServerError(&awscloudwatch.MetricOptions{Period: period, Statistic: jsii.String("Sum")}),
				"requests": api.MetricCount(&awscloudwatch.MetricOptions{Period: period, Statistic: jsii.String("Sum")}),
			},
		}), 1)

	// DynamoDB system errors (HTTP 500s from DynamoDB itself) on every
	// operation the pools function uses.
	alarm("PoolsTableSystemErrors", "tablesettle pools table: DynamoDB system errors in 5 minutes",
		table.MetricSystemErrorsForOperations(&awsdynamodb.SystemErrorsForOperationsMetricOptions{
			Period: period,
			Operations: &[]awsdynamodb.Operation{
				awsdynamodb.Operation_GET_ITEM,
				awsdynamodb.Operation_PUT_ITEM,
				awsdynamodb.Operation_UPDATE_ITEM,
				awsdynamodb.Operation_QUERY,
				awsdynamodb.Operation_TRANSACT_WRITE_ITEMS,
			},
		}), 1)

	awscdk.NewCfnOutput(stack, jsii.String("ApiUrl"), &awscdk.CfnOutputProps{
		Value:       api.ApiEndpoint(),
		Description: jsii.String("base URL of the stage; requests must be SigV4-signed for execute-api"),
	})
	awscdk.NewCfnOutput(stack, jsii.String("PoolsTableName"), &awscdk.CfnOutputProps{Value: table.TableName()})
	awscdk.NewCfnOutput(stack, jsii.String("AlarmTopicArn"), &awscdk.CfnOutputProps{Value: alarmTopic.TopicArn()})
	return stack, nil
}
