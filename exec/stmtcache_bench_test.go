package exec_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/memstore"
)

// The request-path benchmarks run short statements through a session as a
// simple-protocol client sends them, each with other constants, so that
// what they measure is the session's per-statement work (statement cache,
// planning, binding) over a small in-memory table.

func openRequestBench(b *testing.B) *sessionClient {
	b.Helper()
	ctx := context.Background()
	eng, err := exec.Open(ctx, memstore.New(), nil)
	if err != nil {
		b.Fatal(err)
	}
	sess, err := eng.NewSession(ctx, map[string]string{"user": "bench", "database": "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(sess.Close)
	c := &sessionClient{s: sess}
	for _, q := range []string{
		"CREATE TABLE kv (tenant INT, id BIGINT, grp INT, val INT, payload TEXT, PRIMARY KEY (tenant, id))",
		"INSERT INTO kv SELECT g / 100 + 1, g % 100 + 1, g % 10, g, 'payload' FROM generate_series(0, 9999) g",
	} {
		if _, _, _, err := c.run(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

func benchStatements(b *testing.B, text func(i int) string) {
	c := openRequestBench(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, _, err := c.run(ctx, text(i)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRequestPointGetSimple(b *testing.B) {
	benchStatements(b, func(i int) string {
		return fmt.Sprintf("SELECT grp, val, payload FROM kv WHERE tenant = %d AND id = %d;", i%100+1, i%97+1)
	})
}

func BenchmarkRequestMultiGetSimple(b *testing.B) {
	benchStatements(b, func(i int) string {
		return fmt.Sprintf("SELECT tenant, id, grp, val, payload FROM kv WHERE tenant = %d AND id IN (%d, %d, %d, %d, %d, %d, %d, %d, %d, %d);",
			i%100+1, i%97+1, i%89+1, i%83+1, i%79+1, i%73+1, i%71+1, i%67+1, i%61+1, i%59+1, i%53+1)
	})
}

func BenchmarkRequestUpdateSimple(b *testing.B) {
	benchStatements(b, func(i int) string {
		return fmt.Sprintf("UPDATE kv SET val = %d WHERE tenant = %d AND id = %d;", i, i%100+1, i%97+1)
	})
}

func BenchmarkRequestInsertSimple(b *testing.B) {
	benchStatements(b, func(i int) string {
		return fmt.Sprintf("INSERT INTO kv (tenant, id, grp, val, payload) VALUES (%d + 1, %d, %d %% 100, %d, 'inserted-row-payload');", 1000+i%7, i+1, i, i)
	})
}
