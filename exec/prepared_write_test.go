package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire"
)

// TestPreparedWriteTreeReuse runs prepared UPDATEs and DELETEs by key many
// times on one session, with other parameters, missing rows, another
// statement of the same table in between, RETURNING, a transaction block
// and a re-plan after DDL: the session keeps a keyed write's operator tree
// between executions (prepared_write.go), and every execution must change
// exactly its own row.
func TestPreparedWriteTreeReuse(t *testing.T) {
	// On lsm, UPDATEs carry their read's version.
	onStores(t, lsm.Options{}, testPreparedWriteTreeReuse)
}

func testPreparedWriteTreeReuse(t *testing.T, store kv.Store) {
	ctx := context.Background()
	eng, err := Open(ctx, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := eng.NewSession(ctx, map[string]string{"user": "test", "database": "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	preps := map[string]pgwire.Prepared{}
	// run executes sql (one statement) as an extended-protocol client does,
	// preparing it once, and returns its rows and tag, or the error's text.
	run := func(sql string, args ...any) string {
		t.Helper()
		p, ok := preps[sql]
		if !ok {
			p = MustPrepare(t, sess, sql)
			preps[sql] = p
		}
		raw := make([][]byte, len(args))
		for i, a := range args {
			raw[i] = []byte(fmt.Sprint(a))
		}
		sess.StartQuery(1)
		out, err := func() (string, error) {
			pt, err := p.Bind(ctx, raw, nil, nil)
			if err != nil {
				return "", err
			}
			defer pt.Close()
			var rows []string
			for {
				vals, err := pt.Next(ctx)
				if errors.Is(err, io.EOF) {
					return strings.Join(append(rows, pt.Tag()), " "), nil
				}
				if err != nil {
					return "", err
				}
				var cells []string
				for _, v := range vals {
					cells = append(cells, string(v))
				}
				rows = append(rows, strings.Join(cells, ","))
			}
		}()
		if err != nil {
			sess.StatementFailed()
			out = "error: " + err.Error()
		}
		if endErr := sess.EndQuery(ctx, err != nil); err == nil && endErr != nil {
			out = "error: " + endErr.Error()
		}
		return out
	}
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %q, want %q", what, got, want)
		}
	}
	check("create", run("CREATE TABLE w (a INT, b INT, v INT, s TEXT, PRIMARY KEY (a, b))"), "CREATE TABLE")
	check("load", run("INSERT INTO w SELECT g / 10, g % 10, g, 's' || g FROM generate_series(0, 99) g"), "INSERT 0 100")

	const (
		upd = "UPDATE w SET v = $1 WHERE a = $2 AND b = $3"
		get = "SELECT v, s FROM w WHERE a = $1 AND b = $2"
	)
	var first operator
	for i := range 30 {
		a, b := i%10, i*7%10
		check("update", run(upd, 1000+i, a, b), "UPDATE 1")
		ac := &sess.(*Session).autocommit
		if i == 0 {
			first = ac.tree
			if first == nil {
				t.Fatal("no tree kept after the first UPDATE")
			}
		} else if ac.tree != first {
			t.Fatalf("execution %d: kept tree %p, want the first one %p reused", i, ac.tree, first)
		}
		check("read back", run(get, a, b), fmt.Sprintf("%d,s%d SELECT 1", 1000+i, a*10+b))
	}
	check("missing row", run(upd, 1, 42, 1), "UPDATE 0")
	check("after a missing row", run(upd, 7, 3, 4), "UPDATE 1")
	check("bad parameter", run(upd, 7, "x", 4), `error: invalid input syntax for type integer: "x" (parameter $2)`)
	check("after an error", run(upd, 8, 3, 4), "UPDATE 1")
	check("row 3,4", run(get, 3, 4), "8,s34 SELECT 1")

	// Another statement of the table in between takes the slot; each
	// still changes its own row.
	const updS = "UPDATE w SET s = $1 WHERE a = $2 AND b = $3 RETURNING a, b, s"
	for i := range 6 {
		check("update s", run(updS, fmt.Sprint("t", i), 5, i), fmt.Sprintf("5,%d,t%d UPDATE 1", i, i))
		check("update v", run(upd, 2000+i, 6, i), "UPDATE 1")
	}
	check("row 5,2", run(get, 5, 2), "52,t2 SELECT 1")
	check("row 6,2", run(get, 6, 2), "2002,s62 SELECT 1")

	const del = "DELETE FROM w WHERE a = $1 AND b = $2"
	for i := range 5 {
		check("delete", run(del, 9, i), "DELETE 1")
		check("delete again", run(del, 9, i), "DELETE 0")
	}
	check("deleted", run("SELECT count(*) FROM w WHERE a = 9"), "5 SELECT 1")

	// In a transaction block the writes go through its overlay.
	check("begin", run("BEGIN"), "BEGIN")
	check("update in block", run(upd, 3000, 1, 1), "UPDATE 1")
	check("read in block", run(get, 1, 1), "3000,s11 SELECT 1")
	check("delete in block", run(del, 1, 2), "DELETE 1")
	check("rollback", run("ROLLBACK"), "ROLLBACK")
	check("rolled back", run(get, 1, 1)+" "+run(get, 1, 2), "11,s11 SELECT 1 12,s12 SELECT 1")
	check("after the block", run(upd, 4000, 1, 1), "UPDATE 1")
	check("after the block, read", run(get, 1, 1), "4000,s11 SELECT 1")

	// DDL re-plans the statements: the kept tree belongs to the old plan.
	check("alter", run("ALTER TABLE w ADD COLUMN x INT"), "ALTER TABLE")
	check("after DDL", run(upd, 5000, 2, 2), "UPDATE 1")
	check("after DDL, again", run(upd, 5001, 2, 3), "UPDATE 1")
	check("after DDL, read", run(get, 2, 2)+" "+run(get, 2, 3), "5000,s22 SELECT 1 5001,s23 SELECT 1")
}

// BenchmarkRequestUpdatePrepared runs the harness's UPDATE by key as a
// prepared statement on memstore: the per-execution work above the store
// (binding, the kept read tree, the mutation, the tag).
func BenchmarkRequestUpdatePrepared(b *testing.B) {
	ctx := context.Background()
	eng, err := Open(ctx, memstore.New(), nil)
	if err != nil {
		b.Fatal(err)
	}
	sess, err := eng.NewSession(ctx, map[string]string{"user": "bench", "database": "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	prep := func(sql string) pgwire.Prepared { return MustPrepare(b, sess, sql) }
	exe := func(p pgwire.Prepared, args [][]byte) {
		pt, err := p.Bind(ctx, args, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer pt.Close()
		for {
			if _, err := pt.Next(ctx); errors.Is(err, io.EOF) {
				return
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	exe(prep("CREATE TABLE kv (tenant INT, id BIGINT, grp INT, val INT, payload TEXT, PRIMARY KEY (tenant, id))"), nil)
	exe(prep("INSERT INTO kv SELECT g / 100 + 1, g % 100 + 1, g % 10, g, 'payload' FROM generate_series(0, 9999) g"), nil)
	upd := prep("UPDATE kv SET val = $1 WHERE tenant = $2 AND id = $3")
	args := make([][]byte, 3)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := i * 7919 % 10000
		args[0] = fmt.Appendf(args[0][:0], "%d", i)
		args[1] = fmt.Appendf(args[1][:0], "%d", r/100+1)
		args[2] = fmt.Appendf(args[2][:0], "%d", r%100+1)
		exe(upd, args)
	}
}
