package bench

import (
	"context"
	"errors"

	"github.com/widesql/widesql/kv"
)

// TableName is the kv table the benchmarks use.
const TableName = "bench"

// flusher is what kv/lsm offers beyond kv.Store.
type flusher interface {
	Flush(ctx context.Context) error
	Compact(ctx context.Context) error
}

// kvEngine runs the workloads through the kv.Store contract, as widesql's
// executor does.
type kvEngine struct {
	store kv.Store
	table kv.Table
	muts  []kv.Mutation
	batch []kv.RowMutation
	keys  [][]byte // the one-key RowSet of Get, reused
}

var _ Engine = (*kvEngine)(nil)

func newKVEngine(ctx context.Context, s kv.Store, compression string) (*kvEngine, error) {
	err := s.CreateTable(ctx, TableName, kv.TableSpec{Families: []kv.Family{{Name: Family, Compression: compression}}})
	if err != nil && !errors.Is(err, kv.ErrTableExists) {
		s.Close()
		return nil, err
	}
	t, err := s.Table(ctx, TableName)
	if err != nil {
		s.Close()
		return nil, err
	}
	return &kvEngine{store: s, table: t, keys: make([][]byte, 1)}, nil
}

func (e *kvEngine) Apply(ctx context.Context, rows []kv.Row) error {
	e.muts, e.batch = e.muts[:0], e.batch[:0]
	// When append moves e.muts, rows built earlier keep the old array.
	for _, r := range rows {
		start := len(e.muts)
		for _, c := range r.Cells {
			e.muts = append(e.muts, kv.Mutation{Kind: kv.SetCell, Family: c.Family,
				Qualifier: c.Qualifier, Timestamp: c.Timestamp, Value: c.Value})
		}
		e.batch = append(e.batch, kv.RowMutation{Key: r.Key, Mutations: e.muts[start:len(e.muts):len(e.muts)]})
	}
	return e.table.Apply(ctx, e.batch)
}

func (e *kvEngine) Get(ctx context.Context, key []byte) (int, error) {
	e.keys[0] = key
	it := e.table.Read(ctx, kv.RowSet{Keys: e.keys}, kv.ReadOptions{})
	n := 0
	for it.Next() {
		n += len(it.Row().Cells)
	}
	err := it.Err()
	it.Close()
	return n, err
}

func (e *kvEngine) Scan(ctx context.Context, start []byte, limit int) (rows, cells int, err error) {
	rs := kv.RowSet{}
	if start != nil {
		rs.Ranges = []kv.KeyRange{{Start: start}}
	}
	it := e.table.Read(ctx, rs, kv.ReadOptions{Limit: int64(limit)})
	for it.Next() {
		rows++
		cells += len(it.Row().Cells)
	}
	err = it.Err()
	it.Close()
	return rows, cells, err
}

func (e *kvEngine) Flush(ctx context.Context) error {
	f, ok := e.store.(flusher)
	if !ok {
		return nil // kv/memstore: nothing to flush
	}
	if err := f.Flush(ctx); err != nil {
		return err
	}
	return f.Compact(ctx)
}

func (e *kvEngine) Flushes() int64 { return storeFlushes(e.store) }

// LiveBytes returns the bytes and number of the table's live files.
func (e *kvEngine) LiveBytes() (int64, int, error) { return storeLiveBytes(e.store) }

func (e *kvEngine) Close() error { return e.store.Close() }
