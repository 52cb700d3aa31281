// Command lambdazip writes the deployment zip of a Lambda function: one
// entry, bootstrap, executable, with a fixed timestamp so that the same
// binary always gives the same zip (and CDK sees no change to deploy). It
// replaces the zip tool, which a fresh machine may lack.
//
//	lambdazip OUT.zip BOOTSTRAP
//
// It prints the sizes of both (MB = 2^20 bytes).
package main

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: lambdazip OUT.zip BOOTSTRAP")
		os.Exit(2)
	}
	if err := write(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "lambdazip:", err)
		os.Exit(1)
	}
	bin, errBin := os.Stat(os.Args[2])
	z, errZip := os.Stat(os.Args[1])
	if errBin == nil && errZip == nil {
		fmt.Printf("%-30s bootstrap %5.2f MB, zip %5.2f MB\n", os.Args[1], mb(bin.Size()), mb(z.Size()))
	}
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

func write(out, bootstrap string) (err error) {
	in, err := os.Open(bootstrap)
	if err != nil {
		return err
	}
	defer in.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	zw := zip.NewWriter(f)
	h := &zip.FileHeader{Name: "bootstrap", Method: zip.Deflate, Modified: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
	h.SetMode(0o755) // Lambda runs bootstrap: it must be executable
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		return err
	}
	return zw.Close()
}
