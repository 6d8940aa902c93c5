package lsm

import (
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
	"github.com/widesql/widesql/kv/lsm/internal/wal"
)

// Store is the durable engine: a kv.Store over a directory. It is safe for
// concurrent use. See the package documentation for its structure.
type Store struct {
	dir   string
	opts  Options
	fs    vfs.FS
	cache *sstable.Cache

	// commitMu orders commits: sequence reservation, the WAL append, the
	// memtable insert and WAL rotation.
	commitMu sync.Mutex
	wal      *wal.Writer   // guarded by commitMu
	walSeg   atomic.Uint64 // current WAL segment
	// walSizes holds the size of each closed WAL segment still on disk
	// (guarded by mu), so flushes can tell how much WAL memtables pin.
	walSizes map[uint64]int64
	lastSeq  atomic.Uint64 // last reserved sequence number (written under commitMu)

	visibleSeq atomic.Uint64 // reads see entries with seq <= visibleSeq

	// rc is the row cache (rowcache.go), made by the first read that
	// may use it (rowCache); nil before, or when disabled.
	rc atomic.Pointer[rowCache]

	// manifestMu serializes changes recorded in the manifest: flush and
	// compaction installs, splits, CreateTable and DropTable.
	manifestMu sync.Mutex

	mu           sync.Mutex
	cond         *sync.Cond // on mu: memory freed, failure, close
	tables       map[string]*table
	byID         map[uint64]*table
	nextFileNum  uint64 // guarded by mu
	nextRegionID uint64
	nextTableID  uint64
	snapshots    map[uint64]int // open read snapshots: seq -> count
	closed       bool
	failed       error // sticky: writes fail, reads work

	memBytes atomic.Int64

	work chan struct{} // wakes the background goroutine
	stop chan struct{}
	bg   sync.WaitGroup

	lock io.Closer // the directory lock, released by Close

	flushes, compactions, walSyncs atomic.Int64
	liveFiles                      atomic.Int64

	warm warmState // the background goroutine's (warm.go)
}

var _ kv.Store = (*Store)(nil)

// errorf prefixes engine errors.
func errorf(format string, args ...any) error { return fmt.Errorf("lsm: "+format, args...) }

// check returns kv.ErrClosed after Close; with mu held.
func (s *Store) checkLocked() error {
	if s.closed {
		return kv.ErrClosed
	}
	return nil
}

// fail puts the store in the failed (read-only) state.
func (s *Store) fail(err error) {
	s.mu.Lock()
	if s.failed == nil {
		s.failed = err
		s.opts.Logger.Error("lsm: store failed; writes disabled", "err", err)
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

func (s *Store) newFileNum() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.nextFileNum
	s.nextFileNum++
	return n
}

func fileName(num uint64) string { return fmt.Sprintf("%06d.sst", num) }

// unref drops a reference to f, closing and deleting it at zero (unless the
// store is closed: then files only close).
func (s *Store) unref(f *fileMeta) {
	if n := f.refs.Add(-1); n != 0 {
		if n < 0 {
			panic(fmt.Sprintf("lsm: file %d unreferenced too often", f.num))
		}
		return
	}
	s.liveFiles.Add(-1)
	f.reader.Close()
	s.cache.EvictFile(f.num)
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if !closed {
		if err := s.fs.Remove(path.Join(s.dir, fileName(f.num))); err != nil {
			s.opts.Logger.Warn("lsm: remove obsolete file", "file", fileName(f.num), "err", err)
		}
	}
}

// CreateTable creates a table with one region, or one per SplitKeys
// interval. Errors wrap kv.ErrTableExists or kv.ErrInvalidArgument.
func (s *Store) CreateTable(ctx context.Context, name string, spec kv.TableSpec) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := validateSpec(name, spec); err != nil {
		return err
	}
	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.mu.Lock()
	if err := s.checkLocked(); err != nil {
		s.mu.Unlock()
		return err
	}
	if s.failed != nil {
		s.mu.Unlock()
		return s.failed
	}
	if _, ok := s.tables[name]; ok {
		s.mu.Unlock()
		return errorf("create table %q: %w", name, kv.ErrTableExists)
	}
	spec = cloneSpec(spec)
	t := newTableState(s.nextTableID, name, spec)
	s.nextTableID++
	var start []byte
	nfam := len(t.families().fams)
	for _, k := range append(spec.SplitKeys, nil) {
		t.regions = append(t.regions, newRegion(s.nextRegionID, start, k, nfam))
		s.nextRegionID++
		start = k
	}
	s.tables[name], s.byID[t.id] = t, t
	s.mu.Unlock()
	return s.saveManifest()
}

func cloneSpec(spec kv.TableSpec) kv.TableSpec {
	out := kv.TableSpec{Families: slices.Clone(spec.Families)}
	keys := make([][]byte, 0, len(spec.SplitKeys))
	for _, k := range spec.SplitKeys {
		keys = append(keys, slices.Clone(k))
	}
	slices.SortFunc(keys, func(a, b []byte) int { return compareBytes(a, b) })
	keys = slices.CompactFunc(keys, func(a, b []byte) bool { return compareBytes(a, b) == 0 })
	if len(keys) > 0 {
		out.SplitKeys = keys
	}
	return out
}

func validateSpec(name string, spec kv.TableSpec) error {
	if name == "" {
		return errorf("create table: empty name: %w", kv.ErrInvalidArgument)
	}
	if err := validateFamilies(spec.Families); err != nil {
		return errorf("create table %q: %w", name, err)
	}
	for _, k := range spec.SplitKeys {
		if len(k) == 0 || len(k) > kv.MaxKeySize {
			return errorf("create table %q: split key length %d: %w", name, len(k), kv.ErrInvalidArgument)
		}
	}
	return nil
}

// validateFamilies checks families as kv.ValidateFamilies does, and that
// this engine has their compression.
func validateFamilies(fams []kv.Family) error {
	if err := kv.ValidateFamilies(fams); err != nil {
		return err
	}
	for _, f := range fams {
		if _, err := familyCompression(f.Compression); err != nil {
			return fmt.Errorf("family %q: %v: %w", f.Name, err, kv.ErrInvalidArgument)
		}
	}
	return nil
}

// DropTable deletes a table; its files are deleted once the manifest no
// longer lists them and no open read uses them.
func (s *Store) DropTable(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.mu.Lock()
	if err := s.checkLocked(); err != nil {
		s.mu.Unlock()
		return err
	}
	t, ok := s.tables[name]
	if !ok {
		s.mu.Unlock()
		return errorf("drop table %q: %w", name, kv.ErrTableNotFound)
	}
	if s.failed != nil {
		s.mu.Unlock()
		return s.failed
	}
	delete(s.tables, name)
	delete(s.byID, t.id)
	t.dropped = true
	var files []*fileMeta
	for _, r := range t.regions {
		st := r.state
		for _, m := range append([]*memtable{st.mem}, st.imms...) {
			s.memBytes.Add(-m.size.Load())
		}
		for _, fs := range st.files {
			files = append(files, fs...)
		}
		r.state = &regionState{mem: newMemtable(), files: make([][]*fileMeta, len(t.families().fams))}
	}
	s.cond.Broadcast()
	s.mu.Unlock()
	if rc := s.rc.Load(); rc != nil {
		rc.dropTable(t.id) // after dropped is set (rowcache.go)
	}
	if err := s.saveManifest(); err != nil {
		return err
	}
	for _, f := range files {
		s.unref(f)
	}
	return nil
}

// ListTables returns the table names in sorted order.
func (s *Store) ListTables(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkLocked(); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(s.tables))
	for n := range s.tables {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

// Table returns a handle on a table; kv.ErrTableNotFound if absent. The
// handle fails with kv.ErrTableNotFound once the table is dropped.
func (s *Store) Table(ctx context.Context, name string) (kv.Table, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkLocked(); err != nil {
		return nil, err
	}
	t, ok := s.tables[name]
	if !ok {
		return nil, errorf("table %q: %w", name, kv.ErrTableNotFound)
	}
	return &Table{s: s, t: t}, nil
}

// Regions implements kv.Admin: the regions of a table in key order. Rows
// is the entry count of the region's files as of the last flush or
// compaction (0 before the first flush); Bytes the size of its files, which
// both children of a split count until compaction rewrites them.
func (s *Store) Regions(ctx context.Context, name string) ([]kv.RegionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkLocked(); err != nil {
		return nil, err
	}
	t, ok := s.tables[name]
	if !ok {
		return nil, errorf("table %q: %w", name, kv.ErrTableNotFound)
	}
	out := make([]kv.RegionInfo, 0, len(t.regions))
	for _, r := range t.regions {
		n := 0
		for _, fs := range r.state.files {
			n += len(fs)
		}
		out = append(out, kv.RegionInfo{ID: r.id, Start: slices.Clone(r.start), End: slices.Clone(r.end),
			Rows: r.rows.Load(), Bytes: r.bytes(), Reads: r.reads.Total(), Writes: r.writes.Total(),
			ReadRate: r.reads.Rate(now), WriteRate: r.writes.Rate(now), Files: n})
	}
	return out, nil
}

// Metrics returns engine-wide counters.
func (s *Store) Metrics() Metrics {
	hits, misses, used := s.cache.Stats()
	m := Metrics{MemtableBytes: s.memBytes.Load(), CacheHits: hits, CacheMisses: misses, CacheBytes: used,
		Flushes: s.flushes.Load(), Compactions: s.compactions.Load(), WALSyncs: s.walSyncs.Load(), Files: s.liveFiles.Load(),
		PrefetchedBytes: s.warm.bytes.Load()}
	if rc := s.rc.Load(); rc != nil {
		rc.metrics(&m)
	}
	return m
}

// Close stops background work, syncs and closes the WAL and closes the
// files. Memtables are not flushed: the WAL holds them. Afterwards every
// method returns kv.ErrClosed; open iterators may still be drained only if
// they read nothing more from files (their files are closed).
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return kv.ErrClosed
	}
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	if rc := s.rc.Load(); rc != nil {
		rc.close()
	}
	close(s.stop)
	s.bg.Wait()
	s.commitMu.Lock()
	err := s.wal.Close()
	s.commitMu.Unlock()
	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.mu.Lock()
	var files []*fileMeta
	for _, t := range s.tables {
		for _, r := range t.regions {
			for _, fs := range r.state.files {
				files = append(files, fs...)
			}
		}
	}
	s.tables, s.byID = map[string]*table{}, map[uint64]*table{}
	s.mu.Unlock()
	for _, f := range files {
		s.unref(f)
	}
	s.unlockDir()
	if err != nil {
		return errorf("close WAL: %w", err)
	}
	return nil
}
