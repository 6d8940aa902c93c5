package lsm

import (
	"bytes"
	"sort"
	"sync/atomic"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/internal/loadstat"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
)

// fileMeta is one immutable sorted file of one family store. It is shared by
// every region state that lists it (a split shares the parent's files with
// both children) and by every open read. refs counts both; when it drops to
// zero the file is no longer in the manifest, and it is closed and deleted.
type fileMeta struct {
	num               uint64
	smallest, largest []byte // internal keys
	size, entries     int64
	reader            *sstable.Reader
	refs              atomic.Int32
	// installSeq is set on a file installed by a bulk ingest (ingest.go):
	// a read at a sequence number below it does not see the file (its
	// keys carry an older one). 0 for every other file. Written under
	// Store.mu before the file is published, then immutable.
	installSeq uint64
}

// regionState is an immutable snapshot of a region's data: replaced, never
// modified, under Store.mu. Reads copy the pointer and ref the files.
type regionState struct {
	mem   *memtable
	imms  []*memtable   // being flushed, oldest first
	files [][]*fileMeta // per family (table order), oldest first
}

// region is a rowkey range [start, end) of a table with its own memtable and
// per-family files.
type region struct {
	id         uint64
	start, end []byte // nil: unbounded
	lower      []byte // ikey.RowPrefix(start), nil if unbounded
	upper      []byte // ikey.RowPrefix(end), nil if unbounded

	state      *regionState // guarded by Store.mu
	flushedSeq uint64       // guarded by Store.mu: every entry <= it is in files
	rewrite    bool         // guarded by Store.mu: files extend past the range (after a split)
	rows       atomic.Int64
	reads      loadstat.Counter // rows read
	writes     loadstat.Counter // row mutations applied
}

func newRegion(id uint64, start, end []byte, nfam int) *region {
	r := &region{id: id, start: start, end: end}
	if start != nil {
		r.lower = ikey.RowPrefix(nil, start)
	}
	if end != nil {
		r.upper = ikey.RowPrefix(nil, end)
	}
	r.state = &regionState{mem: newMemtable(), files: make([][]*fileMeta, nfam)}
	return r
}

// contains reports whether rowkey is in the region.
func (r *region) contains(key []byte) bool {
	return bytes.Compare(key, r.start) >= 0 && (r.end == nil || bytes.Compare(key, r.end) < 0)
}

func (r *region) bytes() int64 {
	var n int64
	for _, fs := range r.state.files {
		for _, f := range fs {
			n += f.size
		}
	}
	return n
}

// table is a table's engine state. id never changes; regions is replaced
// (copy-on-write) under Store.mu; the family set is replaced by
// SetFamilies under manifestMu and mu (see famSet).
type table struct {
	id      uint64
	name    string
	fs      atomic.Pointer[famSet]
	regions []*region // sorted by start, covering the key space; guarded by Store.mu
	dropped bool      // guarded by Store.mu
}

// famSet is a table's families, immutable: SetFamilies installs a new one
// together with region states whose per-family file lists follow its
// order. A read takes the set and the region states under Store.mu, so
// its family indexes match its files; flush and split hold manifestMu,
// which SetFamilies takes, so theirs stay valid too; compaction names its
// family and looks its index up again when it installs.
type famSet struct {
	spec []kv.Family // as created, then added by SetFamilies (the manifest's order)
	fams []famInfo   // sorted by name: the order of file lists
	idx  map[string]int
}

func newFamSet(spec []kv.Family) *famSet {
	fs := &famSet{spec: spec, idx: map[string]int{}}
	for _, f := range spec {
		fs.fams = append(fs.fams, famInfo{name: f.Name, esc: ikey.AppendEscaped(nil, []byte(f.Name)),
			maxVersions: max(f.MaxVersions, 1), ttl: f.TTL, compression: f.Compression, bloom: f.Bloom})
	}
	sort.Slice(fs.fams, func(i, j int) bool { return fs.fams[i].name < fs.fams[j].name })
	for i := range fs.fams {
		fs.fams[i].idx = i
		fs.idx[fs.fams[i].name] = i
	}
	return fs
}

func newTableState(id uint64, name string, spec kv.TableSpec) *table {
	t := &table{id: id, name: name}
	t.fs.Store(newFamSet(spec.Families))
	return t
}

// families returns t's current family set.
func (t *table) families() *famSet { return t.fs.Load() }

// regionFor returns the index of the region holding key.
func regionFor(regions []*region, key []byte) int {
	i := sort.Search(len(regions), func(i int) bool {
		return regions[i].end == nil || bytes.Compare(key, regions[i].end) < 0
	})
	return min(i, len(regions)-1)
}
