// Command infra is the AWS CDK app of tablesettle: one stack per stage.
//
// Synthesize without an AWS account (make synth does this):
//
//	CDK_OUTDIR=cdk.out go run . -- or: cdk synth -c stage=dev
//
// Context keys (cdk -c key=value, or cdk.json):
//
//	stage                 stage name, default "dev"
//	distDir               folder with <function>/bootstrap, default "../dist"
//	reservedConcurrency   concurrency reserved for settle and for pools each, default 50 (0: none)
//	analysisConcurrency   cap on the paytables function (custom analyses), default 10 (0: none)
//	tables                table ids (comma-separated, or a JSON list in cdk.json): one IAM table role each, default none
//	logRetentionDays      function log retention in days, default 365
//	throttleRate          stage steady request rate limit (req/s), default 500;
//	                      each route has its own lower limits (Routes)
//	throttleBurst         stage burst limit, default 1000
//	alarmEmail            address subscribed to the alarm topic, default none
//	checkpointRetentionDays  Object Lock (compliance) retention of each ledger checkpoint, default 3653 (10 years)
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/jsii-runtime-go"
)

func main() {
	defer jsii.Close()
	app := awscdk.NewApp(nil)
	cfg, err := ConfigFromContext(func(key string) any { return app.Node().TryGetContext(jsii.String(key)) })
	if err == nil {
		_, err = NewTablesettleStack(app, cfg, &awscdk.StackProps{
			// Account and region come from the CLI's credentials at deploy
			// time; synth needs neither (the template is environment-agnostic).
			Env: &awscdk.Environment{
				Account: envOrNil("CDK_DEFAULT_ACCOUNT"),
				Region:  envOrNil("CDK_DEFAULT_REGION"),
			},
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "infra:", err)
		jsii.Close()
		os.Exit(2)
	}
	app.Synth(nil)
}

func envOrNil(name string) *string {
	if v := os.Getenv(name); v != "" {
		return jsii.String(v)
	}
	return nil
}

// retentionDays are the retention periods CloudWatch Logs accepts.
var retentionDays = map[int]awslogs.RetentionDays{
	1: awslogs.RetentionDays_ONE_DAY, 3: awslogs.RetentionDays_THREE_DAYS,
	5: awslogs.RetentionDays_FIVE_DAYS, 7: awslogs.RetentionDays_ONE_WEEK,
	14: awslogs.RetentionDays_TWO_WEEKS, 30: awslogs.RetentionDays_ONE_MONTH,
	60: awslogs.RetentionDays_TWO_MONTHS, 90: awslogs.RetentionDays_THREE_MONTHS,
	120: awslogs.RetentionDays_FOUR_MONTHS, 150: awslogs.RetentionDays_FIVE_MONTHS,
	180: awslogs.RetentionDays_SIX_MONTHS, 365: awslogs.RetentionDays_ONE_YEAR,
	400: awslogs.RetentionDays_THIRTEEN_MONTHS, 545: awslogs.RetentionDays_EIGHTEEN_MONTHS,
	731: awslogs.RetentionDays_TWO_YEARS, 1096: awslogs.RetentionDays_THREE_YEARS,
	1827: awslogs.RetentionDays_FIVE_YEARS, 2192: awslogs.RetentionDays_SIX_YEARS,
	2557: awslogs.RetentionDays_SEVEN_YEARS, 2922: awslogs.RetentionDays_EIGHT_YEARS,
	3288: awslogs.RetentionDays_NINE_YEARS, 3653: awslogs.RetentionDays_TEN_YEARS,
}

// ConfigFromContext reads a StageConfig from CDK context (values arrive as
// strings from -c key=value, or as JSON values from cdk.json).
func ConfigFromContext(get func(key string) any) (StageConfig, error) {
	str := func(key, def string) string {
		if v := get(key); v != nil {
			return fmt.Sprint(v)
		}
		return def
	}
	num := func(key string, def float64) (float64, error) {
		s := str(key, "")
		if s == "" {
			return def, nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("context %s=%q: not a number", key, s)
		}
		return f, nil
	}
	cfg := StageConfig{
		Stage:      str("stage", "dev"),
		DistDir:    str("distDir", "../dist"),
		AlarmEmail: str("alarmEmail", ""),
	}
	var err error
	if cfg.ReservedConcurrency, err = num("reservedConcurrency", 50); err != nil {
		return cfg, err
	}
	if cfg.AnalysisConcurrency, err = num("analysisConcurrency", 10); err != nil {
		return cfg, err
	}
	tables := str("tables", "")
	if list, ok := get("tables").([]any); ok { // cdk.json: "tables": ["T1", "T2"]
		parts := make([]string, len(list))
		for i, v := range list {
			parts[i] = fmt.Sprint(v)
		}
		tables = strings.Join(parts, ",")
	}
	for _, t := range strings.Split(tables, ",") {
		if t = strings.TrimSpace(t); t != "" {
			cfg.Tables = append(cfg.Tables, t)
		}
	}
	if cfg.ThrottleRate, err = num("throttleRate", 500); err != nil {
		return cfg, err
	}
	if cfg.ThrottleBurst, err = num("throttleBurst", 1000); err != nil {
		return cfg, err
	}
	if cfg.CheckpointRetentionDays, err = num("checkpointRetentionDays", 3653); err != nil {
		return cfg, err
	}
	days, err := num("logRetentionDays", 365)
	if err != nil {
		return cfg, err
	}
	r, ok := retentionDays[int(days)]
	if !ok || float64(int(days)) != days {
		return cfg, fmt.Errorf("context logRetentionDays=%v: not a CloudWatch Logs retention period (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, ...)", days)
	}
	cfg.LogRetention = r
	return cfg, cfg.Validate()
}
