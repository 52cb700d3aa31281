package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3"
	"github.com/aws/jsii-runtime-go"
)

// The verifiable ledger on AWS (issue 34 items 2, 5 and 6; docs/ledger.md):
// the checkpoint signing key, the Object Lock bucket of checkpoints, and
// the alarm on the sweep's LedgerMismatches metric.

// LedgerKeyAdminActions are what the account (its administrators, through
// IAM) may do with the checkpoint key: manage it, never use it. kms:Sign,
// kms:Verify and kms:GetPublicKey are granted to the functions' roles
// only, in the key policy, so no person can sign a checkpoint.
var LedgerKeyAdminActions = []string{
	"kms:DescribeKey", "kms:GetKeyPolicy", "kms:ListResourceTags", "kms:ListKeyPolicies",
	"kms:PutKeyPolicy", "kms:EnableKey", "kms:DisableKey", "kms:TagResource", "kms:UntagResource",
	"kms:ScheduleKeyDeletion", "kms:CancelKeyDeletion", "kms:UpdateKeyDescription",
}

// LedgerKeyUseActions are what the functions that publish checkpoints
// (pools, sweep) may do with the key.
var LedgerKeyUseActions = []string{"kms:Sign", "kms:GetPublicKey"}

// LedgerMetricNamespace and LedgerMetricName are the metric the sweep
// emits in embedded metric format (internal/lambdaapp.MetricLedgerMismatches).
const (
	LedgerMetricNamespace = "tablesettle"
	LedgerMetricName      = "LedgerMismatches"
)

// ledger is the stage's checkpoint key and bucket.
type ledger struct {
	key    awskms.Key
	bucket awss3.Bucket
}

func newLedger(stack awscdk.Stack, cfg StageConfig) ledger {
	policy := awsiam.NewPolicyDocument(&awsiam.PolicyDocumentProps{})
	policy.AddStatements(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String("AccountAdministersNeverSigns"),
		Effect:     awsiam.Effect_ALLOW,
		Principals: &[]awsiam.IPrincipal{awsiam.NewAccountRootPrincipal()},
		Actions:    jsii.Strings(LedgerKeyAdminActions...),
		Resources:  jsii.Strings("*"),
	}))
	key := awskms.NewKey(stack, jsii.String("LedgerKey"), &awskms.KeyProps{
		Description:   jsii.String("tablesettle " + cfg.Stage + ": signs the pools' ledger checkpoints (Ed25519); only the functions may sign"),
		KeySpec:       awskms.KeySpec_ECC_NIST_EDWARDS25519,
		KeyUsage:      awskms.KeyUsage_SIGN_VERIFY,
		Policy:        policy,
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN, // old checkpoints verify with its public key
	})
	bucket := awss3.NewBucket(stack, jsii.String("CheckpointBucket"), &awss3.BucketProps{
		ObjectLockEnabled:          jsii.Bool(true),
		ObjectLockDefaultRetention: awss3.ObjectLockRetention_Compliance(awscdk.Duration_Days(jsii.Number(cfg.CheckpointRetentionDays))),
		Versioned:                  jsii.Bool(true),
		BlockPublicAccess:          awss3.BlockPublicAccess_BLOCK_ALL(),
		Encryption:                 awss3.BucketEncryption_S3_MANAGED,
		EnforceSSL:                 jsii.Bool(true),
		RemovalPolicy:              awscdk.RemovalPolicy_RETAIN,
	})
	return ledger{key: key, bucket: bucket}
}

// wire gives a function that publishes checkpoints its environment and
// its grants: use of the key (in the key policy and its role) and
// s3:PutObject on the bucket's objects (no delete, no retention change).
func (l ledger) wire(fn awslambda.Function, cfg StageConfig) {
	fn.AddEnvironment(jsii.String("TABLESETTLE_LEDGER_KMS_KEY"), l.key.KeyArn(), nil)
	fn.AddEnvironment(jsii.String("TABLESETTLE_DEPLOYMENT"), jsii.String(StackName(cfg.Stage)), nil)
	fn.AddEnvironment(jsii.String("TABLESETTLE_CHECKPOINT_BUCKET"), l.bucket.BucketName(), nil)
	l.key.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Effect:     awsiam.Effect_ALLOW,
		Principals: &[]awsiam.IPrincipal{fn.Role()},
		Actions:    jsii.Strings(LedgerKeyUseActions...),
		Resources:  jsii.Strings("*"),
	}), jsii.Bool(false))
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("LedgerKey"),
		Effect:    awsiam.Effect_ALLOW,
		Actions:   jsii.Strings(LedgerKeyUseActions...),
		Resources: jsii.Strings(*l.key.KeyArn()),
	}))
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("CheckpointBucket"),
		Effect:    awsiam.Effect_ALLOW,
		Actions:   jsii.Strings("s3:PutObject"),
		Resources: jsii.Strings(*l.bucket.ArnForObjects(jsii.String("*"))),
	}))
}

// mismatches is the sweep's LedgerMismatches metric over period.
func mismatches(period awscdk.Duration) awscloudwatch.Metric {
	return awscloudwatch.NewMetric(&awscloudwatch.MetricProps{
		Namespace: jsii.String(LedgerMetricNamespace), MetricName: jsii.String(LedgerMetricName),
		Statistic: jsii.String("Maximum"), Period: period,
	})
}
