package exec_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/tests/sqltest"
)

var rewrite = flag.Bool("rewrite", false, "rewrite expected results in tests/testdata/sql from in-process output")

// TestSQLFiles runs the end-to-end SQL files of tests/testdata/sql
// in-process: statements go straight to an exec.Session, with no network
// and no client library, on the in-memory store and on the durable engine
// with a tiny memtable (so data goes through flushes, files and
// compactions). tests.TestSQL runs the same files over pgwire.
func TestSQLFiles(t *testing.T) {
	stores := []struct {
		name string
		open func(t *testing.T) kv.Store
	}{
		{"memstore", func(t *testing.T) kv.Store { return memstore.New() }},
		{"lsm", func(t *testing.T) kv.Store {
			s, err := lsm.Open(t.TempDir(), lsm.Options{MemtableSize: 64 << 10, NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	}
	for _, path := range sqltest.Files(t, filepath.Join("..", "tests", "testdata", "sql")) {
		t.Run(sqltest.Name(path), func(t *testing.T) {
			for i, st := range stores {
				t.Run(st.name, func(t *testing.T) {
					f, err := sqltest.ParseFile(path)
					if err != nil {
						t.Fatal(err)
					}
					store := st.open(t)
					defer store.Close()
					eng, err := exec.Open(context.Background(), store, nil)
					if err != nil {
						t.Fatal(err)
					}
					sess, err := eng.NewSession(context.Background(), map[string]string{"user": "test", "database": "test"})
					if err != nil {
						t.Fatal(err)
					}
					defer sess.Close()
					sqltest.Run(t, f, &sessionClient{s: sess}, sqltest.Options{
						Rewrite:  *rewrite && i == 0,
						SQLState: sqlState,
					})
				})
			}
		})
	}
}

// sessionClient runs statements the way pgwire runs a simple Query:
// parse, StartQuery, then prepare, bind and drain each statement with text
// results, stopping at the first error and telling the session it failed,
// then EndQuery (which commits or rolls back an implicit transaction).
type sessionClient struct{ s pgwire.Session }

func (c *sessionClient) run(ctx context.Context, sql string) (cols []string, rows [][]string, tag string, err error) {
	stmts, err := c.s.Parse(ctx, sql)
	if err != nil {
		c.s.StatementFailed()
		return nil, nil, "", err
	}
	if len(stmts) == 0 {
		return nil, nil, "", nil
	}
	c.s.StartQuery(len(stmts))
	for _, stmt := range stmts {
		cols, rows, tag, err = c.runOne(ctx, stmt)
		if err != nil {
			c.s.StatementFailed()
			break
		}
		c.s.TakeNotices()
		c.s.TakeParameterChanges()
	}
	if endErr := c.s.EndQuery(ctx, err != nil); err == nil && endErr != nil {
		c.s.StatementFailed()
		err = endErr
	}
	if err != nil {
		return nil, nil, "", err
	}
	return cols, rows, tag, nil
}

func (c *sessionClient) runOne(ctx context.Context, stmt pgwire.Statement) (cols []string, rows [][]string, tag string, err error) {
	prep, err := c.s.Prepare(ctx, stmt, nil)
	if err != nil {
		return nil, nil, "", err
	}
	if n := len(prep.ParamOIDs()); n > 0 {
		return nil, nil, "", pgerror.New(pgerror.CodeUndefinedParameter, "there is no parameter $%d", n)
	}
	p, err := prep.Bind(ctx, nil, nil, nil)
	if err != nil {
		return nil, nil, "", err
	}
	defer p.Close()
	for _, col := range p.Columns() {
		cols = append(cols, col.Name)
	}
	for {
		vals, err := p.Next(ctx)
		if errors.Is(err, io.EOF) {
			return cols, rows, p.Tag(), nil
		}
		if err != nil {
			return nil, nil, "", err
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				row[i] = sqltest.NullText
			} else {
				row[i] = sqltest.CellText(string(v))
			}
		}
		rows = append(rows, row)
	}
}

func (c *sessionClient) Exec(ctx context.Context, sql string) (int64, error) {
	_, _, tag, err := c.run(ctx, sql)
	if err != nil {
		return 0, err
	}
	// The rows affected are the tag's last number, as clients read it.
	n, _ := strconv.ParseInt(tag[strings.LastIndexByte(tag, ' ')+1:], 10, 64)
	return n, nil
}

func (c *sessionClient) Query(ctx context.Context, sql string) ([]string, [][]string, error) {
	cols, rows, _, err := c.run(ctx, sql)
	return cols, rows, err
}

func (c *sessionClient) Broken() bool { return false }

// sqlState reads an error as the wire would send it: an error without a
// SQLSTATE becomes XX000 there too.
func sqlState(err error) (code, msg string, ok bool) {
	e := pgerror.Flatten(err)
	return e.Code, e.Message, true
}
