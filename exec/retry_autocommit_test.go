package exec

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// TestAutocommitRetry makes an UPDATE, DELETE or upsert lose a race on purpose:
// between its read and its write (beforeAutocommitApply) another session
// writes the same row. Outside a transaction block the statement must end
// as PostgreSQL's READ COMMITTED does (a concurrently deleted row is
// skipped, a concurrently updated one re-checked and written from its new
// version), with no error; inside a block the conflict is 40001, as in
// PostgreSQL's REPEATABLE READ.
func TestAutocommitRetry(t *testing.T) {
	onStores(t, lsm.Options{NoSync: true}, testAutocommitRetry)
}

// onStores runs test on a fresh memstore and on a fresh lsm store opened
// with opts, as subtests "memstore" and "lsm".
func onStores(t *testing.T, opts lsm.Options, test func(*testing.T, kv.Store)) {
	t.Run("memstore", func(t *testing.T) { test(t, memstore.New()) })
	t.Run("lsm", func(t *testing.T) {
		st, err := lsm.Open(t.TempDir(), opts)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		test(t, st)
	})
}

func testAutocommitRetry(t *testing.T, store kv.Store) {
	ctx := context.Background()
	eng, err := Open(ctx, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	newSess := func() *Session {
		s, err := eng.NewSession(ctx, map[string]string{"user": "test", "database": "test"})
		if err != nil {
			t.Fatal(err)
		}
		return s.(*Session)
	}
	a, b := newSess(), newSess()
	defer a.Close()
	defer b.Close()

	for _, c := range []struct {
		name  string
		stmts []string // run on session a; the last one races
		other string   // run on session b once, when a's statement is about to write
		want  string   // the racing statement's result
		final string   // SELECT k, n FROM r ORDER BY k afterwards
	}{
		{name: "update vs update",
			stmts: []string{"UPDATE r SET n = n + 1 WHERE k = 1"}, other: "UPDATE r SET n = n + 1 WHERE k = 1",
			want: "UPDATE 1", final: "1,12 2,20 3,30 SELECT 3"},
		{name: "update scan vs update",
			stmts: []string{"UPDATE r SET n = n + 1"}, other: "UPDATE r SET n = n + 100 WHERE k = 2",
			want: "UPDATE 3", final: "1,11 2,121 3,31 SELECT 3"},
		{name: "update returning vs update",
			stmts: []string{"UPDATE r SET n = n * 2 WHERE k = 3 RETURNING k, n"}, other: "UPDATE r SET n = 7 WHERE k = 3",
			want: "3,14 UPDATE 1", final: "1,10 2,20 3,14 SELECT 3"},
		{name: "update rechecks where",
			stmts: []string{"UPDATE r SET n = 0 WHERE n = 20"}, other: "UPDATE r SET n = 21 WHERE k = 2",
			want: "UPDATE 0", final: "1,10 2,21 3,30 SELECT 3"},
		{name: "update vs delete",
			stmts: []string{"UPDATE r SET n = n + 1 WHERE k = 1"}, other: "DELETE FROM r WHERE k = 1",
			want: "UPDATE 0", final: "2,20 3,30 SELECT 2"},
		{name: "update several vs delete of one",
			stmts: []string{"UPDATE r SET n = n + 1 WHERE k >= 2"}, other: "DELETE FROM r WHERE k = 3",
			want: "UPDATE 1", final: "1,10 2,21 SELECT 2"},
		{name: "update key vs delete",
			stmts: []string{"UPDATE r SET k = 9 WHERE k = 1"}, other: "DELETE FROM r WHERE k = 1",
			want: "UPDATE 0", final: "2,20 3,30 SELECT 2"},
		{name: "delete vs delete",
			stmts: []string{"DELETE FROM r WHERE k = 2"}, other: "DELETE FROM r WHERE k = 2",
			want: "DELETE 0", final: "1,10 3,30 SELECT 2"},
		{name: "delete returning vs update",
			stmts: []string{"DELETE FROM r WHERE k = 2 RETURNING n"}, other: "UPDATE r SET n = 22 WHERE k = 2",
			want: "22 DELETE 1", final: "1,10 3,30 SELECT 2"},
		{name: "delete rechecks where",
			stmts: []string{"DELETE FROM r WHERE n < 15"}, other: "UPDATE r SET n = 15 WHERE k = 1",
			want: "DELETE 0", final: "1,15 2,20 3,30 SELECT 3"},
		{name: "update nextval vs update",
			stmts: []string{"UPDATE r SET n = nextval('rs_id_seq') WHERE k = 1"}, other: "UPDATE r SET n = 5 WHERE k = 1",
			// The lost attempt consumed 1: sequences are not transactional.
			want: "UPDATE 1", final: "1,2 2,20 3,30 SELECT 3"},
		{name: "upsert vs update",
			stmts: []string{"INSERT INTO r VALUES (1, 0) ON CONFLICT (k) DO UPDATE SET n = r.n + 1"}, other: "UPDATE r SET n = n + 1 WHERE k = 1",
			want: "INSERT 0 1", final: "1,12 2,20 3,30 SELECT 3"},
		{name: "upsert vs upsert",
			stmts: []string{"INSERT INTO r VALUES (2, 0) ON CONFLICT (k) DO UPDATE SET n = r.n + excluded.n + 1 RETURNING n"},
			other: "INSERT INTO r VALUES (2, 5) ON CONFLICT (k) DO UPDATE SET n = r.n + excluded.n",
			want:  "26 INSERT 0 1", final: "1,10 2,26 3,30 SELECT 3"},
		{name: "upsert insert vs insert",
			stmts: []string{"INSERT INTO r VALUES (4, 0) ON CONFLICT (k) DO UPDATE SET n = r.n + 1"}, other: "INSERT INTO r VALUES (4, 40)",
			want: "INSERT 0 1", final: "1,10 2,20 3,30 4,41 SELECT 4"},
		{name: "upsert update vs delete",
			stmts: []string{"INSERT INTO r VALUES (3, 0) ON CONFLICT (k) DO UPDATE SET n = r.n + 1"}, other: "DELETE FROM r WHERE k = 3",
			want: "INSERT 0 1", final: "1,10 2,20 3,0 SELECT 3"},
		// Inside a block: snapshot isolation, 40001 at COMMIT.
		{name: "block update vs update",
			stmts: []string{"BEGIN", "UPDATE r SET n = n + 1 WHERE k = 1", "COMMIT"}, other: "UPDATE r SET n = n + 1 WHERE k = 1",
			want: "ERROR 40001", final: "1,11 2,20 3,30 SELECT 3"},
		{name: "block delete vs delete",
			stmts: []string{"BEGIN", "DELETE FROM r WHERE k = 1", "COMMIT"}, other: "DELETE FROM r WHERE k = 1",
			want: "ERROR 40001", final: "2,20 3,30 SELECT 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, sql := range []string{"DROP TABLE IF EXISTS r", "CREATE TABLE r (k INT PRIMARY KEY, n INT)",
				"INSERT INTO r VALUES (1, 10), (2, 20), (3, 30)", "DROP TABLE IF EXISTS rs", "CREATE TABLE rs (id SERIAL PRIMARY KEY)"} {
				if got := runSQL(ctx, a, sql); strings.HasPrefix(got, "ERROR") {
					t.Fatalf("%s: %s", sql, got)
				}
			}
			fired := 0
			beforeAutocommitApply = func() {
				if fired++; fired == 1 {
					if got := runSQL(ctx, b, c.other); strings.HasPrefix(got, "ERROR") {
						t.Errorf("%s: %s", c.other, got)
					}
				}
			}
			defer func() { beforeAutocommitApply = nil }()
			var got string
			for _, sql := range c.stmts {
				got = runSQL(ctx, a, sql)
			}
			beforeAutocommitApply = nil
			if fired == 0 {
				t.Fatalf("the racing statement never reached its write")
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if got := runSQL(ctx, a, "SELECT k, n FROM r ORDER BY k"); got != c.final {
				t.Errorf("table: got %q, want %q", got, c.final)
			}
			if a.TxnStatus() != 'I' {
				t.Errorf("session status %c after the statement", a.TxnStatus())
			}
		})
	}
}

// runSQL runs one statement on s as a simple Query does and returns its
// rows and tag, joined by spaces, or "ERROR" and the SQLSTATE.
func runSQL(ctx context.Context, s *Session, sql string) string {
	out, err := func() (string, error) {
		stmts, err := s.Parse(ctx, sql)
		if err != nil {
			return "", err
		}
		s.StartQuery(len(stmts))
		out, err := func() (string, error) {
			prep, err := s.Prepare(ctx, stmts[0], nil)
			if err != nil {
				return "", err
			}
			p, err := prep.Bind(ctx, nil, nil, nil)
			if err != nil {
				return "", err
			}
			defer p.Close()
			var parts []string
			for {
				vals, err := p.Next(ctx)
				if errors.Is(err, io.EOF) {
					return strings.Join(append(parts, p.Tag()), " "), nil
				}
				if err != nil {
					return "", err
				}
				cells := make([]string, len(vals))
				for i, v := range vals {
					cells[i] = string(v)
				}
				parts = append(parts, strings.Join(cells, ","))
			}
		}()
		if err != nil {
			s.StatementFailed()
		}
		if endErr := s.EndQuery(ctx, err != nil); err == nil && endErr != nil {
			s.StatementFailed()
			err = endErr
		}
		return out, err
	}()
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) {
			return "ERROR " + pe.Code
		}
		return "ERROR " + err.Error()
	}
	return out
}
