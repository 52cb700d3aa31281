package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// assetKey is the S3 key the CDK gives a directory asset: the SHA-256 of
// the directory's content, then .zip (the CLI zips the directory on deploy).
var assetKey = regexp.MustCompile(`^([0-9a-f]{64})\.zip$`)

// codeKeys maps each function's name to the S3 key of its code.
func codeKeys(t *testing.T, tpl map[string]any) map[string]string {
	t.Helper()
	keys := map[string]string{}
	fnRes := resources(tpl, "AWS::Lambda::Function")
	for name, id := range functionIDs(t, tpl) {
		code, _ := props(fnRes[id])["Code"].(map[string]any)
		key, _ := code["S3Key"].(string)
		if !assetKey.MatchString(key) {
			t.Fatalf("%s: Code.S3Key %v, want <sha256>.zip", name, code["S3Key"])
		}
		keys[name] = key
	}
	return keys
}

// synthKeys synthesizes the test stage from dist in an app of its own and
// returns its functions' code keys.
func synthKeys(t *testing.T, dist string) map[string]string {
	t.Helper()
	app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(t.TempDir())})
	stack, err := NewTablesettleStack(app, testConfig(dist), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tpl map[string]any
	b, err := json.Marshal(assertions.Template_FromStack(stack, nil).ToJSON())
	if err == nil {
		err = json.Unmarshal(b, &tpl)
	}
	if err != nil {
		t.Fatal(err)
	}
	return codeKeys(t, tpl)
}

// TestFunctionCodeIsItsDirectoryAsset: each function's code is the CDK's
// asset of dist/<name>/, staged in the cloud assembly as a directory the
// CLI zips (packaging "zip"), bootstrap byte for byte with its mode kept,
// executable (the CLI's zip keeps each file's mode; Lambda must be able to
// run it).
func TestFunctionCodeIsItsDirectoryAsset(t *testing.T) {
	_, raw := template(t)
	keys := codeKeys(t, raw)
	seen := map[string]string{}
	for name, key := range keys {
		if other, dup := seen[key]; dup {
			t.Errorf("%s and %s share code key %s, want one asset per function", name, other, key)
		}
		seen[key] = name
	}
	b, err := os.ReadFile(filepath.Join(synthOut, "tablesettle-test.assets.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Files map[string]struct {
			Source struct {
				Path      string `json:"path"`
				Packaging string `json:"packaging"`
			} `json:"source"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	for name, key := range keys {
		hash := assetKey.FindStringSubmatch(key)[1]
		f, ok := manifest.Files[hash]
		if !ok {
			t.Errorf("%s: asset %s not in the asset manifest", name, hash)
			continue
		}
		if f.Source.Packaging != "zip" || f.Source.Path != "asset."+hash {
			t.Errorf("%s: asset source %+v, want the directory asset.%s packaged as zip", name, f.Source, hash)
		}
		staged := filepath.Join(synthOut, f.Source.Path, "bootstrap")
		st, err := os.Stat(staged)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		src, err := os.Stat(filepath.Join(synthDist, name, "bootstrap"))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(filepath.Join(synthDist, name, "bootstrap"))
		got, _ := os.ReadFile(staged)
		if string(got) != string(want) || st.Mode().Perm() != src.Mode().Perm() || st.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: staged bootstrap %q mode %v, want %q mode %v (executable)", name, got, st.Mode().Perm(), want, src.Mode().Perm())
		}
	}
}

// TestFunctionCodeKeyIsTheContentHash: the template depends on the bytes
// of each bootstrap and on nothing else (not the directory's path, not the
// files' times), so the same build gives the same template and changes
// only the function whose binary changed.
func TestFunctionCodeKeyIsTheContentHash(t *testing.T) {
	_, raw := template(t)
	first := codeKeys(t, raw)

	same := t.TempDir() // another path, written later: other mtimes
	if err := fakeDist(same); err != nil {
		t.Fatal(err)
	}
	changed := t.TempDir()
	if err := fakeDist(changed); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(changed, "settle", "bootstrap"), []byte("#!/bin/sh\n# settle, rebuilt\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	again, other := synthKeys(t, same), synthKeys(t, changed)
	for name, key := range first {
		if again[name] != key {
			t.Errorf("%s: same content, key %s then %s", name, key, again[name])
		}
		if name == "settle" && other[name] == key {
			t.Errorf("settle: bootstrap changed, key %s unchanged", key)
		}
		if name != "settle" && other[name] != key {
			t.Errorf("%s: bootstrap unchanged, key %s became %s", name, key, other[name])
		}
	}
}
