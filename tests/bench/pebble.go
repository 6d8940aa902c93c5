package bench

import (
	"bytes"
	"context"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/widesql/widesql/kv"
)

// pebbleEngine stores one Pebble key per kv cell (see pebblekey.go) and
// reads rows the way a kv store on Pebble would: a row is the run of keys
// sharing a prefix, a Get is SeekPrefixGE (which consults the bloom
// filters), every read opens its own iterator (its own snapshot), and each
// cell's key is decoded back into a kv.Cell.
type pebbleEngine struct {
	db     *pebble.DB
	write  *pebble.WriteOptions
	key    []byte    // scratch for encoding keys
	cells  []kv.Cell // scratch for decoded cells
	dec    []byte    // scratch for unescaped qualifiers
	closed bool
}

var _ Engine = (*pebbleEngine)(nil)

// quietLogger drops Pebble's informational logging.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)         {}
func (quietLogger) Errorf(f string, args ...any) { fmt.Printf("pebble: "+f+"\n", args...) }
func (quietLogger) Fatalf(f string, args ...any) { panic(fmt.Sprintf("pebble: "+f, args...)) }

func compressionProfile(name string) (*sstable.CompressionProfile, error) {
	switch name {
	case "", "none":
		return sstable.NoCompression, nil
	case "snappy":
		return sstable.SnappyCompression, nil
	case "zstd":
		return sstable.ZstdCompression, nil
	}
	return nil, fmt.Errorf("bench: unknown compression %q", name)
}

func pebbleOptions(cfg Config) (*pebble.Options, error) {
	comp, err := compressionProfile(cfg.Compression)
	if err != nil {
		return nil, err
	}
	opts := &pebble.Options{
		Cache:              pebble.NewCache(cfg.BlockCacheSize),
		Comparer:           rowComparer,
		FormatMajorVersion: pebble.FormatNewest,
		MemTableSize:       uint64(cfg.MemtableSize),
		// Writes stall at two full memtables, as widesql's MemoryBudget
		// of twice MemtableSize makes them.
		MemTableStopWritesThreshold: 2,
		Logger:                      quietLogger{},
	}
	for i := range opts.Levels {
		l := &opts.Levels[i]
		l.BlockSize = cfg.BlockSize
		l.FilterPolicy = bloom.FilterPolicy(10)
		l.Compression = func() *sstable.CompressionProfile { return comp }
	}
	return opts, nil
}

func openPebble(dir string, cfg Config) (Engine, error) {
	opts, err := pebbleOptions(cfg)
	if err != nil {
		return nil, err
	}
	db, err := pebble.Open(dir, opts)
	opts.Cache.Unref() // the DB holds its own reference
	if err != nil {
		return nil, err
	}
	e := &pebbleEngine{db: db, write: pebble.NoSync}
	if cfg.Sync {
		e.write = pebble.Sync
	}
	return e, nil
}

func (e *pebbleEngine) Apply(_ context.Context, rows []kv.Row) error {
	b := e.db.NewBatch()
	for _, r := range rows {
		for _, c := range r.Cells {
			e.key = appendCellKey(e.key[:0], r.Key, c.Family, c.Qualifier, int64(c.Timestamp))
			if err := b.Set(e.key, c.Value, nil); err != nil {
				b.Close()
				return err
			}
		}
	}
	err := b.Commit(e.write)
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	return err
}

// cell decodes the iterator's current key and value into a kv.Cell. The
// cell aliases the iterator's memory and e.dec.
func (e *pebbleEngine) cell(it *pebble.Iterator, prefixLen int) (kv.Cell, error) {
	k := it.Key()
	fam, qual, ts, dec := cellSuffix(e.dec[:0], k[prefixLen:])
	e.dec = dec
	v, err := it.ValueAndErr()
	family := Family
	if string(fam) != Family {
		family = string(fam)
	}
	return kv.Cell{Family: family, Qualifier: qual, Timestamp: kv.Timestamp(ts), Value: v}, err
}

func (e *pebbleEngine) Get(_ context.Context, key []byte) (int, error) {
	it, err := e.db.NewIter(nil)
	if err != nil {
		return 0, err
	}
	e.key = appendRowPrefix(e.key[:0], key)
	e.cells = e.cells[:0]
	for ok := it.SeekPrefixGE(e.key); ok; ok = it.Next() {
		c, err := e.cell(it, len(e.key))
		if err != nil {
			it.Close()
			return 0, err
		}
		e.cells = append(e.cells, c)
	}
	if err := it.Close(); err != nil {
		return 0, err
	}
	return len(e.cells), nil
}

func (e *pebbleEngine) Scan(_ context.Context, start []byte, limit int) (rows, cells int, err error) {
	it, err := e.db.NewIter(nil)
	if err != nil {
		return 0, 0, err
	}
	var ok bool
	if start == nil {
		ok = it.First()
	} else {
		e.key = appendRowPrefix(e.key[:0], start)
		ok = it.SeekGE(e.key)
	}
	prefix := e.key[:0]
	for ; ok; ok = it.Next() {
		k := it.Key()
		n := splitRowKey(k)
		if rows == 0 || !bytes.Equal(k[:n], prefix) {
			if rows == limit && limit > 0 {
				break
			}
			rows++
			e.cells = e.cells[:0]
			prefix = append(prefix[:0], k[:n]...)
		}
		c, err := e.cell(it, n)
		if err != nil {
			it.Close()
			return 0, 0, err
		}
		e.cells = append(e.cells, c)
		cells++
	}
	e.key = prefix
	return rows, cells, it.Close()
}

func (e *pebbleEngine) Flush(ctx context.Context) error {
	if err := e.db.Flush(); err != nil {
		return err
	}
	// Everything into one sorted run: compact [first key, last key].
	it, err := e.db.NewIter(nil)
	if err != nil {
		return err
	}
	var first, end []byte
	if it.First() {
		first = append(first, it.Key()...)
	}
	if it.Last() {
		end = append(append(end, it.Key()...), 0x00)
	}
	if err := it.Close(); err != nil || first == nil {
		return err
	}
	return e.db.Compact(ctx, first, end, true)
}

func (e *pebbleEngine) Flushes() int64 { return e.db.Metrics().Flush.Count }

// Close closes the DB; it is safe to call more than once.
func (e *pebbleEngine) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	return e.db.Close()
}
