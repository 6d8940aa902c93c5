package pgwire_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/pgwire"
)

// BenchmarkWirePointGetPreparedLSM is the harness's prepared point Get
// (pgbench -M prepared) over the store the server runs, flushed to files,
// with 10,000 keys that its row cache holds after the first pass: what it
// measures is nearly all above kv (protocol, portal, row encoding, the
// socket), the part of a request that the row cache does not remove.
func BenchmarkWirePointGetPreparedLSM(b *testing.B) {
	w := startLSMWireBench(b, "INSERT INTO kv SELECT g / 100 + 1, g % 100 + 1, g % 10, g, md5(g::text) || md5((g+1)::text) FROM generate_series(0, 9999) g")
	w.benchPrepared(b, "SELECT grp, val, payload FROM kv WHERE tenant = $1 AND id = $2", true, nil, func(i int) [][]byte {
		return args(i%100+1, i%97+1)
	})
}

// BenchmarkWireRangePreparedLSM is the harness's 100-row range scan
// (pgbench -M prepared) over the store the server runs, flushed to files:
// 20 tenants of 1,000 ids, as the harness's tenants have.
func BenchmarkWireRangePreparedLSM(b *testing.B) {
	w := startLSMWireBench(b, "INSERT INTO kv SELECT g / 1000 + 1, g % 1000 + 1, g % 100, g, md5(g::text) || md5((g+1)::text) FROM generate_series(0, 19999) g")
	w.benchPrepared(b, "SELECT id, grp, val, payload FROM kv WHERE tenant = $1 AND id BETWEEN $2 AND $3 ORDER BY id", true, nil,
		func(i int) [][]byte { lo := i*37%901 + 1; return args(i%20+1, lo, lo+99) })
}

// startLSMWireBench serves a new LSM store with the harness's kv table,
// filled by insert and flushed to files, and connects to it.
func startLSMWireBench(b *testing.B, insert string) *wireBench {
	ctx := context.Background()
	store, err := lsm.Open(b.TempDir(), lsm.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	eng, err := exec.Open(ctx, store, nil)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := pgwire.NewServer(eng)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	b.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
		store.Close()
	})
	w := startWireBenchAt(b, ln.Addr().String(),
		"CREATE TABLE kv (tenant INT, id BIGINT, d.grp INT, d.val INT, p.payload TEXT, PRIMARY KEY (tenant, id))",
		insert)
	if err := store.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	return w
}
