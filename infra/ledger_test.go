package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLedgerKeyOnlyFunctionsSign: issue 34 item 2 on AWS. The checkpoint
// key is an ECC_NIST_EDWARDS25519 signing key, kept on stack deletion;
// its policy lets the account administer it but grants kms:Sign and
// kms:GetPublicKey to the pools and sweep functions' roles only, and the
// functions are told the key, the deployment and the bucket.
func TestLedgerKeyOnlyFunctionsSign(t *testing.T) {
	_, tpl := template(t)
	keys := resources(tpl, "AWS::KMS::Key")
	if len(keys) != 1 {
		t.Fatalf("%d KMS keys, want 1", len(keys))
	}
	for _, k := range keys {
		props := k["Properties"].(map[string]any)
		if props["KeySpec"] != "ECC_NIST_EDWARDS25519" || props["KeyUsage"] != "SIGN_VERIFY" || k["DeletionPolicy"] != "Retain" {
			t.Fatalf("key %v", props)
		}
		signers := map[string]bool{}
		for _, st := range props["KeyPolicy"].(map[string]any)["Statement"].([]any) {
			s := st.(map[string]any)
			acts, _ := json.Marshal(s["Action"])
			principal, _ := json.Marshal(s["Principal"])
			if strings.Contains(string(acts), "kms:Sign") || strings.Contains(string(acts), "kms:*") || strings.Contains(string(acts), "kms:Get*") {
				if strings.Contains(string(principal), ":root") {
					t.Fatalf("the account may sign: %s", principal)
				}
				signers[string(principal)] = true
				if string(acts) != `["kms:Sign","kms:GetPublicKey"]` {
					t.Fatalf("function actions %s", acts)
				}
			}
		}
		if len(signers) != 2 {
			t.Fatalf("signers %v, want the pools and sweep roles", signers)
		}
		for p := range signers {
			if !strings.Contains(p, "poolsFunctionServiceRole") && !strings.Contains(p, "sweepFunctionServiceRole") {
				t.Fatalf("signer %s is not a function's role", p)
			}
		}
	}
	for _, fn := range resources(tpl, "AWS::Lambda::Function") {
		props := fn["Properties"].(map[string]any)
		env, _ := json.Marshal(props["Environment"])
		name := props["FunctionName"].(string)
		has := strings.Contains(string(env), "TABLESETTLE_LEDGER_KMS_KEY") && strings.Contains(string(env), "TABLESETTLE_CHECKPOINT_BUCKET") && strings.Contains(string(env), `"TABLESETTLE_DEPLOYMENT":"tablesettle-test"`)
		if want := strings.HasSuffix(name, "-pools") || strings.HasSuffix(name, "-sweep"); has != want {
			t.Fatalf("%s: ledger environment %v, want %v: %s", name, has, want, env)
		}
	}
}

// TestCheckpointBucketObjectLock: issue 34 item 5 on AWS. The bucket has
// Object Lock in compliance mode with the operator's retention
// (checkpointRetentionDays), versioning, no public access, and is kept;
// the functions may only put objects in it.
func TestCheckpointBucketObjectLock(t *testing.T) {
	_, tpl := template(t)
	found := 0
	for _, b := range resources(tpl, "AWS::S3::Bucket") {
		props := b["Properties"].(map[string]any)
		if props["ObjectLockEnabled"] != true {
			continue
		}
		found++
		lock, _ := json.Marshal(props["ObjectLockConfiguration"])
		if string(lock) != `{"ObjectLockEnabled":"Enabled","Rule":{"DefaultRetention":{"Days":2557,"Mode":"COMPLIANCE"}}}` || b["DeletionPolicy"] != "Retain" {
			t.Fatalf("object lock %s, deletion %v", lock, b["DeletionPolicy"])
		}
		if v, _ := json.Marshal(props["VersioningConfiguration"]); string(v) != `{"Status":"Enabled"}` {
			t.Fatalf("versioning %s", v)
		}
	}
	if found != 1 {
		t.Fatalf("%d Object Lock buckets, want 1", found)
	}
	for _, p := range resources(tpl, "AWS::IAM::Policy") {
		doc, _ := json.Marshal(p["Properties"])
		if strings.Contains(string(doc), "CheckpointBucket") && (strings.Contains(string(doc), "s3:Delete") || strings.Contains(string(doc), "s3:PutObjectRetention") || strings.Contains(string(doc), "s3:*")) {
			t.Fatalf("a function may delete or unlock checkpoints: %s", doc)
		}
	}
}

// TestLedgerMismatchAlarm: issue 34 item 6 on AWS. An alarm fires on any
// LedgerMismatches the sweep emits.
func TestLedgerMismatchAlarm(t *testing.T) {
	_, tpl := template(t)
	for _, a := range resources(tpl, "AWS::CloudWatch::Alarm") {
		props := a["Properties"].(map[string]any)
		if props["MetricName"] == LedgerMetricName {
			if props["Namespace"] != "tablesettle" || props["Threshold"] != 1.0 || props["ComparisonOperator"] != "GreaterThanOrEqualToThreshold" || props["Statistic"] != "Maximum" {
				t.Fatalf("alarm %v", props)
			}
			return
		}
	}
	t.Fatal("no LedgerMismatches alarm")
}
