package exec_test

import (
	"context"
	"testing"

	"github.com/widesql/widesql/exec"
)

// BenchmarkRequestUpdatePrepared is a prepared autocommit UPDATE by key,
// a read-modify-write (pgbench's, YCSB's): outside a block it runs as a
// transaction of its own so that it cannot lose an update to a racing
// session (exec/txn.go, autocommitRetry); this measures that cost.
func BenchmarkRequestUpdatePrepared(b *testing.B) {
	c := openRequestBench(b)
	ctx := context.Background()
	prep := exec.MustPrepare(b, c.s, "UPDATE kv SET val = val + 1 WHERE tenant = $1 AND id = $2")
	var t, id []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, id = itoa(t, i%100+1), itoa(id, i%97+1)
		execPrepared(b, ctx, prep, [][]byte{t, id})
	}
}
