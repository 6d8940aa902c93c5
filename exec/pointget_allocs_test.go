//go:build !race

package exec_test

import (
	"context"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/lsm"
)

// TestPreparedPointGetAllocs: a prepared point Get on the LSM store,
// executed again, allocates nothing. The kept operator tree hands its
// closed read iterator back to the store (kv.ReadReuser), so not even
// the iterator is new. (Under the race detector allocations differ.)
func TestPreparedPointGetAllocs(t *testing.T) {
	ctx := context.Background()
	store, eng := openLSM(t, lsm.Options{NoSync: true})
	c := newTestSession(t, eng)
	for _, q := range []string{
		"CREATE TABLE kv (tenant INT, id BIGINT, d.grp INT, p.payload TEXT, PRIMARY KEY (tenant, id))",
		"INSERT INTO kv SELECT g % 10, g, g % 7, 'p' || g FROM generate_series(1, 1000) g",
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	prep := exec.MustPrepare(t, c.s, "SELECT grp, payload FROM kv WHERE tenant = $1 AND id = $2")
	keys := [][][]byte{{[]byte("3"), []byte("13")}, {[]byte("4"), []byte("14")}, {[]byte("9"), []byte("999")}}
	var out []byte
	i := 0
	run := func() {
		k := keys[i%len(keys)]
		i++
		var n int
		if out, n = appendPrepared(t, ctx, prep, k, out[:0]); n != 1 {
			t.Fatalf("%s: %d rows, want 1", k, n)
		}
	}
	run()
	if a := testing.AllocsPerRun(100, run); a != 0 {
		t.Fatalf("%v allocations per execution of a prepared point Get, want 0", a)
	}
}
