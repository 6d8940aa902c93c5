package txn

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/widesql/widesql/kv"
)

// RedoTable is the kv table holding the redo records of multi-table
// commits in flight. Its rows live only from just before a transaction's
// first table batch to just after its last.
const RedoTable = "_widesql_txnlog"

// redoFamily is RedoTable's only family; a record is one cell.
const redoFamily = "r"

// A redo record makes a commit that spans several tables atomic on a store
// whose batches are atomic only within one table. Commit writes the whole
// write set as one row of RedoTable (one atomic single-row apply), then
// applies the per-table batches, then deletes the row. Recover, at start-up,
// re-applies every record still present: the commit was acknowledged only
// after its last batch, so a record left behind is a commit cut short, and
// replaying it completes it. Replay is idempotent: SetCell carries its
// original timestamp, and deletes delete. Preconditions are not replayed
// (they held at commit time).
//
//	record  = uvarint(ntables) table*
//	table   = bytes(name) uvarint(nrows) row*
//	row     = bytes(key) uvarint(nmut) mutation*
//	mutation= kind(1) bytes(family) bytes(qualifier) bytes(value)
//	          varint(ts) varint(start) varint(end)
//	bytes   = uvarint(len) len bytes
type redoBatch struct {
	table string
	rows  []kv.RowMutation
}

func encodeRedo(batches []redoBatch) []byte {
	var b []byte
	bytes := func(s []byte) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	b = binary.AppendUvarint(b, uint64(len(batches)))
	for _, tb := range batches {
		bytes([]byte(tb.table))
		b = binary.AppendUvarint(b, uint64(len(tb.rows)))
		for _, rm := range tb.rows {
			bytes(rm.Key)
			b = binary.AppendUvarint(b, uint64(len(rm.Mutations)))
			for _, m := range rm.Mutations {
				b = append(b, byte(m.Kind))
				bytes([]byte(m.Family))
				bytes(m.Qualifier)
				bytes(m.Value)
				b = binary.AppendVarint(b, int64(m.Timestamp))
				b = binary.AppendVarint(b, int64(m.Start))
				b = binary.AppendVarint(b, int64(m.End))
			}
		}
	}
	return b
}

var errCorruptRedo = errors.New("txn: corrupt redo record")

func decodeRedo(b []byte) ([]redoBatch, error) {
	fail := false
	uv := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			fail = true
			return 0
		}
		b = b[n:]
		return v
	}
	sv := func() int64 {
		v, n := binary.Varint(b)
		if n <= 0 {
			fail = true
			return 0
		}
		b = b[n:]
		return v
	}
	bytes := func() []byte {
		n := uv()
		if fail || n > uint64(len(b)) {
			fail = true
			return nil
		}
		s := b[:n:n]
		b = b[n:]
		return s
	}
	n := uv()
	var out []redoBatch
	for i := uint64(0); i < n && !fail; i++ {
		tb := redoBatch{table: string(bytes())}
		nrows := uv()
		for j := uint64(0); j < nrows && !fail; j++ {
			rm := kv.RowMutation{Key: bytes()}
			nmut := uv()
			for k := uint64(0); k < nmut && !fail; k++ {
				if len(b) == 0 {
					fail = true
					break
				}
				m := kv.Mutation{Kind: kv.MutationKind(b[0])}
				b = b[1:]
				m.Family = string(bytes())
				m.Qualifier = bytes()
				m.Value = bytes()
				m.Timestamp, m.Start, m.End = kv.Timestamp(sv()), kv.Timestamp(sv()), kv.Timestamp(sv())
				rm.Mutations = append(rm.Mutations, m)
			}
			tb.rows = append(tb.rows, rm)
		}
		out = append(out, tb)
	}
	if fail || len(b) != 0 {
		return nil, errCorruptRedo
	}
	return out, nil
}

// redoTable returns the redo table, creating it if needed.
func (m *Manager) redoTable(ctx context.Context) (kv.Table, error) {
	if t := m.redo.Load(); t != nil {
		return *t, nil
	}
	t, err := m.store.Table(ctx, RedoTable)
	if errors.Is(err, kv.ErrTableNotFound) {
		err = m.store.CreateTable(ctx, RedoTable, kv.TableSpec{Families: []kv.Family{{Name: redoFamily}}})
		if err != nil && !errors.Is(err, kv.ErrTableExists) {
			return nil, err
		}
		t, err = m.store.Table(ctx, RedoTable)
	}
	if err != nil {
		return nil, err
	}
	m.redo.Store(&t)
	return t, nil
}

// writeRedo stores batches as one redo record and returns its key.
func (m *Manager) writeRedo(ctx context.Context, batches []redoBatch) ([]byte, error) {
	t, err := m.redoTable(ctx)
	if err != nil {
		return nil, err
	}
	ts := kv.Now()
	key := binary.BigEndian.AppendUint64(nil, uint64(ts))
	key = binary.BigEndian.AppendUint64(key, m.redoSeq.Add(1))
	err = t.Apply(ctx, []kv.RowMutation{{Key: key, Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: redoFamily, Value: encodeRedo(batches), Timestamp: ts},
	}}})
	return key, err
}

// dropRedo deletes a redo record once its batches are applied.
func (m *Manager) dropRedo(ctx context.Context, key []byte) error {
	t, err := m.redoTable(ctx)
	if err != nil {
		return err
	}
	return t.Apply(ctx, []kv.RowMutation{{Key: key, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}})
}

// Recover completes the multi-table commits a crash cut short: it
// re-applies every redo record left in the store, then deletes it. Call it
// once at start-up, before any transaction. It returns how many commits it
// completed. A record naming a table dropped since is applied to the
// remaining tables.
func (m *Manager) Recover(ctx context.Context) (int, error) {
	t, err := m.store.Table(ctx, RedoTable)
	if errors.Is(err, kv.ErrTableNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	type rec struct {
		key     []byte
		batches []redoBatch
	}
	var recs []rec
	it := t.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	for it.Next() {
		row := it.Row()
		if len(row.Cells) != 1 {
			it.Close()
			return 0, fmt.Errorf("%w: row %x has %d cells", errCorruptRedo, row.Key, len(row.Cells))
		}
		batches, err := decodeRedo(append([]byte(nil), row.Cells[0].Value...))
		if err != nil {
			it.Close()
			return 0, fmt.Errorf("redo record %x: %w", row.Key, err)
		}
		recs = append(recs, rec{key: append([]byte(nil), row.Key...), batches: batches})
	}
	err = it.Err()
	it.Close()
	if err != nil {
		return 0, err
	}
	for _, r := range recs {
		for _, b := range r.batches {
			tbl, err := m.store.Table(ctx, b.table)
			if errors.Is(err, kv.ErrTableNotFound) {
				continue
			}
			if err != nil {
				return 0, err
			}
			if err := tbl.Apply(ctx, b.rows); err != nil {
				return 0, fmt.Errorf("replaying redo record %x on %q: %w", r.key, b.table, err)
			}
		}
		if err := m.dropRedo(ctx, r.key); err != nil {
			return 0, err
		}
	}
	return len(recs), nil
}
