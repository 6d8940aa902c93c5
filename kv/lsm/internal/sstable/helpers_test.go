package sstable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// memFile is a vfs.File over a byte slice.
type memFile struct {
	mu     sync.Mutex
	data   []byte
	closed bool
	synced bool
}

var _ vfs.File = (*memFile)(nil)

func (f *memFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, errors.New("memFile: closed")
	}
	f.data = append(f.data, p...)
	return len(p), nil
}

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if off < 0 {
		return 0, errors.New("memFile: negative offset")
	}
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *memFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

func (f *memFile) Sync() error { f.synced = true; return nil }

func (f *memFile) Size() (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return int64(len(f.data)), nil
}

// reopen returns a fresh readable file over a copy of f's bytes.
func (f *memFile) reopen() *memFile { return &memFile{data: slices.Clone(f.data)} }

type kv struct{ k, v []byte }

// writeTable writes entries (sorted) and returns the file and its Meta.
func writeTable(t testing.TB, entries []kv, opts WriterOptions) (*memFile, Meta) {
	t.Helper()
	f := &memFile{}
	w := NewWriter(f, "test.sst", opts)
	for _, e := range entries {
		if err := w.Add(e.k, e.v); err != nil {
			t.Fatal(err)
		}
	}
	m, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if !f.closed || !f.synced {
		t.Fatal("Finish did not sync and close the file")
	}
	return f, m
}

func openTable(t testing.TB, f *memFile, cache *Cache) *Reader {
	t.Helper()
	r, err := Open(f.reopen(), "test.sst", 1, cache)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// cellKey builds an engine-style internal key: escaped parts separated by
// 00 01, then inverted ts and seq and a kind byte.
func cellKey(row, fam, qual []byte, ts, seq uint64, kind byte) []byte {
	var k []byte
	for _, part := range [][]byte{row, fam, qual} {
		for _, c := range part {
			k = append(k, c)
			if c == 0 {
				k = append(k, 0xff)
			}
		}
		k = append(k, 0, 1)
	}
	k = binary.BigEndian.AppendUint64(k, ^ts)
	k = binary.BigEndian.AppendUint64(k, ^seq)
	return append(k, kind)
}

// rowOf is the BloomKey for cellKey keys: everything before the first
// unescaped 00 01.
func rowOf(key []byte) []byte {
	for i := 0; i+1 < len(key); i++ {
		if key[i] == 0 && key[i+1] == 1 {
			return key[:i]
		}
		if key[i] == 0 {
			i++ // escaped zero
		}
	}
	return key
}

// randomEntries returns n distinct sorted entries with cell-shaped keys.
func randomEntries(rng *rand.Rand, n int) []kv {
	seen := make(map[string]bool)
	var out []kv
	rows := max(1, n/4)
	for len(out) < n {
		row := fmt.Appendf(nil, "row%08d", rng.IntN(rows))
		if rng.IntN(10) == 0 {
			row = append(row, byte(rng.IntN(3))) // zeros and near-zeros
		}
		fam := []byte{"cf"[rng.IntN(2)]}
		qual := fmt.Appendf(nil, "q%d", rng.IntN(5))
		k := cellKey(row, fam, qual, uint64(rng.IntN(3)), rng.Uint64N(1000), 1)
		if rng.IntN(50) == 0 {
			k = fmt.Appendf(nil, "%x", rng.Uint64()) // odd shapes
		}
		if seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		v := make([]byte, rng.IntN(64))
		if rng.IntN(20) == 0 {
			v = make([]byte, 1000+rng.IntN(5000))
		}
		for i := range v {
			v[i] = byte('a' + rng.IntN(4)) // compressible
		}
		out = append(out, kv{k, v})
	}
	slices.SortFunc(out, func(a, b kv) int { return bytes.Compare(a.k, b.k) })
	return out
}
