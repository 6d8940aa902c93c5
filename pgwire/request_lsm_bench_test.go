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
		"INSERT INTO kv SELECT g / 100 + 1, g % 100 + 1, g % 10, g, md5(g::text) || md5((g+1)::text) FROM generate_series(0, 9999) g")
	if err := store.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	w.benchPrepared(b, "SELECT grp, val, payload FROM kv WHERE tenant = $1 AND id = $2", true, nil, func(i int) [][]byte {
		return args(i%100+1, i%97+1)
	})
}
