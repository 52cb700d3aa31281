package main

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Lambda's provided.al2023 runtime executes the zip's bootstrap: it must be
// at the root, executable, and byte for byte the binary.
func TestZipHoldsExecutableBootstrap(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bootstrap")
	if err := os.WriteFile(bin, []byte("\x7fELF not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "fn.zip")
	if err := write(out, bin); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != 1 || zr.File[0].Name != "bootstrap" {
		t.Fatalf("entries %v, want only bootstrap", zr.File)
	}
	if m := zr.File[0].Mode(); m.Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", m)
	}
	rc, _ := zr.File[0].Open()
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "\x7fELF not really" {
		t.Errorf("content %q", b)
	}
	first, _ := os.ReadFile(out)
	if err := write(out, bin); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(out)
	if string(first) != string(second) {
		t.Error("the same binary gave two different zips")
	}
}
