package sstable

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// countingFile counts reads and fails those reaching past failAt (when
// non-zero) with an I/O error.
type countingFile struct {
	*memFile
	reads  atomic.Int64
	failAt int64
}

var errInjected = errors.New("injected I/O error")

func (f *countingFile) ReadAt(p []byte, off int64) (int, error) {
	f.reads.Add(1)
	if f.failAt > 0 && off+int64(len(p)) > f.failAt {
		return 0, errInjected
	}
	return f.memFile.ReadAt(p, off)
}

// TestReadahead scans a file through each compression, with and without
// a cache: every entry comes back, and the scan issues a small fraction
// of one read per block.
func TestReadahead(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	entries := randomEntries(rng, 20000)
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		for _, cache := range []*Cache{nil, NewCache(64 << 20)} {
			f, _ := writeTable(t, entries, WriterOptions{BlockSize: 1024, Compression: c})
			cf := &countingFile{memFile: f.reopen()}
			r, err := Open(cf, "test.sst", 1, cache)
			if err != nil {
				t.Fatal(err)
			}
			opened := cf.reads.Load()
			it := r.NewIter()
			i := 0
			for ok := it.First(); ok; ok = it.Next() {
				if !bytes.Equal(it.Key(), entries[i].k) || !bytes.Equal(it.Value(), entries[i].v) {
					t.Fatalf("%s: entry %d differs", c, i)
				}
				i++
			}
			if err := it.Close(); err != nil || i != len(entries) {
				t.Fatalf("%s: %d of %d entries, %v", c, i, len(entries), err)
			}
			blocks, reads := int64(r.index.len()), cf.reads.Load()-opened
			t.Logf("%s cache=%v: %d blocks in %d reads", c, cache != nil, blocks, reads)
			if blocks < 100 || reads > blocks/10 {
				t.Fatalf("%s: %d blocks in %d reads", c, blocks, reads)
			}
			if cache != nil {
				// A second scan runs from the cache: no reads at all.
				before := cf.reads.Load()
				it := r.NewIter()
				for ok := it.First(); ok; ok = it.Next() {
				}
				if err := it.Close(); err != nil || cf.reads.Load() != before {
					t.Fatalf("%s: cached rescan read %d times (%v)", c, cf.reads.Load()-before, err)
				}
			}
			r.Close()
		}
	}
}

// TestReadaheadPointReads: seeks that are not sequential read one block
// each, never a read-ahead's worth.
func TestReadaheadPointReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 22))
	entries := randomEntries(rng, 20000)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 1024, Compression: Snappy})
	cf := &countingFile{memFile: f.reopen()}
	r, err := Open(cf, "test.sst", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	it := r.NewIter()
	defer it.Close()
	for i := len(entries) - 1; i >= 0; i -= 397 { // descending: never the next block
		if !it.SeekGE(entries[i].k) || !bytes.Equal(it.Value(), entries[i].v) {
			t.Fatalf("SeekGE #%d: %v", i, it.Err())
		}
		if n := len(it.ra.buf); n != 0 {
			t.Fatalf("seek #%d read ahead %d bytes", i, n)
		}
	}
}

// TestReadaheadCorruptionExact flips a byte in each data block in turn
// and scans: the error names that block's offset and the same reason as
// a read of the block alone, whether the block came from a read-ahead
// or not.
func TestReadaheadCorruptionExact(t *testing.T) {
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		f, _ := corruptionFixture(t, c)
		r0 := openTable(t, f, nil)
		handles := r0.index.handles
		r0.Close()
		for k, h := range handles {
			g := f.reopen()
			g.data[h.Offset+h.Length/2] ^= 0x10
			r, err := Open(g, "test.sst", 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, want := r.readBlock(h)
			it := r.NewIter()
			for ok := it.First(); ok; ok = it.Next() {
			}
			ce := wantCorruption(t, it.Err(), "scan")
			if ce.Offset != int64(h.Offset) || it.Err().Error() != want.Error() {
				t.Fatalf("%s block %d at %d: scan reported %v, the block alone %v", c, k, h.Offset, it.Err(), want)
			}
			it.Close()
			r.Close()
		}
	}
}

// TestReadaheadIOError: a read failing past some offset fails the scan at
// the block that reaches it, with the block-alone read's error, after
// every entry before that block.
func TestReadaheadIOError(t *testing.T) {
	f, _ := corruptionFixture(t, Snappy)
	r0 := openTable(t, f, nil)
	handles := r0.index.handles
	r0.Close()
	bad := handles[len(handles)*2/3]
	cf := &countingFile{memFile: f.reopen()}
	r, err := Open(cf, "test.sst", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cf.failAt = int64(bad.Offset + bad.Length)
	it := r.NewIter()
	var last []byte
	for ok := it.First(); ok; ok = it.Next() {
		last = append(last[:0], it.Key()...)
	}
	if !errors.Is(it.Err(), errInjected) {
		t.Fatalf("scan error %v, want the injected one", it.Err())
	}
	// The last entry seen is the last of the block before the bad one.
	var prev blockIter
	b, err := r.readBlock(handles[len(handles)*2/3-1])
	if err != nil {
		t.Fatal(err)
	}
	if err := prev.init(b); err != nil || !prev.last() || !bytes.Equal(prev.key, last) {
		t.Fatalf("scan stopped after %q, want the end of the block before the failing one", last)
	}
	it.Close()
}
