package bench

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var (
	blockSize   = flag.Int("blocksize", DefaultBlockSize, "target data block size of both engines")
	compression = flag.String("compression", "", `block compression of both engines: "", "snappy" or "zstd"`)
)

// fixtures are shared by every benchmark of the process.
var fixtures *Fixtures

func TestMain(m *testing.M) {
	flag.Parse()
	f, err := NewFixtures(Config{BlockSize: *blockSize, Compression: *compression})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtures = f
	code := m.Run()
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// runPair runs the workloads whose names start with prefix, on every
// engine, as sub-benchmarks named .../engine=NAME so that
// `benchstat -col /engine` pairs them.
func runPair(b *testing.B, prefix string) {
	for _, w := range Workloads {
		if w.Name != prefix && !strings.HasPrefix(w.Name, prefix+"/") {
			continue
		}
		sub := strings.TrimPrefix(strings.TrimPrefix(w.Name, prefix), "/")
		for _, engine := range Engines {
			name := "engine=" + engine
			if sub != "" {
				name = sub + "/" + name
			}
			b.Run(name, func(b *testing.B) { w.Run(b, fixtures, engine) })
		}
	}
}

func BenchmarkBatchWrite(b *testing.B) { runPair(b, "BatchWrite") }
func BenchmarkGet(b *testing.B)        { runPair(b, "Get") }
func BenchmarkScan100(b *testing.B)    { runPair(b, "Scan100") }
func BenchmarkFullScan(b *testing.B)   { runPair(b, "FullScan") }
