package lsm

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
	"github.com/widesql/widesql/kv/lsm/internal/wal"
)

// ErrLocked is wrapped by Open's error when another process (or another
// Store of this process) has the directory open.
var ErrLocked = vfs.ErrLocked

// lockName is the lock file of a store directory.
const lockName = "LOCK"

// lockDir takes the directory lock when the FS supports locks.
func (s *Store) lockDir() error {
	l, ok := s.fs.(vfs.Locker)
	if !ok {
		return nil
	}
	c, err := l.Lock(path.Join(s.dir, lockName))
	if err != nil {
		return errorf("open %s: %w", s.dir, err)
	}
	s.lock = c
	return nil
}

func (s *Store) unlockDir() {
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
}

// Open opens the store in dir, creating it if it does not exist. It locks
// the directory (a LOCK file, flock on the OS): a second Open of the same
// directory fails with an error wrapping ErrLocked until Close. An
// existing store is recovered: the manifest names the live files, and the
// WAL segments holding unflushed batches are replayed into memtables (a
// torn tail of the last segment is cut off). A missing or corrupt file is
// an error naming it.
func Open(dir string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	s := &Store{
		dir: dir, opts: opts, fs: opts.FS,
		cache:       sstable.NewCache(opts.BlockCacheSize),
		tables:      map[string]*table{},
		byID:        map[uint64]*table{},
		snapshots:   map[uint64]int{},
		walSizes:    map[uint64]int64{},
		nextFileNum: 1, nextRegionID: 1, nextTableID: 1,
		work: make(chan struct{}, 1),
		stop: make(chan struct{}),
	}
	s.cond = sync.NewCond(&s.mu)
	if err := s.fs.MkdirAll(s.walDir()); err != nil {
		return nil, errorf("open %s: %w", dir, err)
	}
	// New directories are durable only once their parents are synced.
	for _, d := range []string{path.Dir(dir), dir, s.walDir()} {
		if err := s.fs.SyncDir(d); err != nil {
			return nil, errorf("open %s: sync %s: %w", dir, d, err)
		}
	}
	if err := s.lockDir(); err != nil {
		return nil, err
	}
	m, _, err := readCurrent(s.fs, dir)
	if err != nil {
		s.unlockDir()
		return nil, err
	}
	walMin := uint64(1)
	if m != nil {
		if err := s.load(m); err != nil {
			s.closeFiles()
			s.unlockDir()
			return nil, err
		}
		walMin = m.WALMin
	}
	last, err := s.replay(walMin)
	if err != nil {
		s.closeFiles()
		s.unlockDir()
		return nil, err
	}
	s.walSeg.Store(last + 1)
	s.wal, err = wal.Create(wal.Options{FS: s.fs, Dir: s.walDir(), NoSync: opts.NoSync, Preallocate: opts.WALPreallocate}, last+1)
	if err != nil {
		s.closeFiles()
		s.unlockDir()
		return nil, errorf("open %s: create WAL: %w", dir, err)
	}
	s.visibleSeq.Store(s.lastSeq.Load())
	s.manifestMu.Lock()
	err = s.saveManifest()
	s.manifestMu.Unlock()
	if err != nil {
		s.wal.Close()
		s.closeFiles()
		s.unlockDir()
		return nil, err
	}
	s.removeOrphans()
	s.bg.Add(1)
	go s.background()
	return s, nil
}

// load installs the manifest's state and opens its files.
func (s *Store) load(m *manifestData) error {
	s.nextFileNum, s.nextRegionID, s.nextTableID = m.NextFileNum, m.NextRegionID, m.NextTableID
	s.lastSeq.Store(m.LastSeq)
	opened := map[uint64]*fileMeta{}
	for _, mt := range m.Tables {
		t := newTableState(mt.ID, mt.Name, kv.TableSpec{Families: mt.Families})
		for _, mr := range mt.Regions {
			nfam := len(t.families().fams)
			r := newRegion(mr.ID, mr.Start, mr.End, nfam)
			r.flushedSeq, r.rewrite = mr.FlushedSeq, mr.Rewrite
			r.rows.Store(mr.Rows)
			if len(mr.Files) != nfam {
				return errorf("manifest: region %d of %q: %d file lists for %d families: %w", mr.ID, mt.Name, len(mr.Files), nfam, errCorrupt)
			}
			for fi, mfs := range mr.Files {
				for _, mf := range mfs {
					f := opened[mf.Num]
					if f != nil {
						f.refs.Add(1)
					} else {
						var err error
						if f, err = s.openFile(mf); err != nil {
							return errorf("recover: %w", err)
						}
						opened[mf.Num] = f
					}
					r.state.files[fi] = append(r.state.files[fi], f)
				}
			}
			t.regions = append(t.regions, r)
		}
		if len(t.regions) == 0 {
			return errorf("manifest: table %q has no regions: %w", mt.Name, errCorrupt)
		}
		s.tables[t.name], s.byID[t.id] = t, t
	}
	return nil
}

// replay applies the WAL segments from walMin to the memtables, skipping
// entries already in files, cuts a torn tail, and returns the last segment
// number (0 if none).
func (s *Store) replay(walMin uint64) (uint64, error) {
	segs, err := wal.Segments(s.fs, s.walDir())
	if err != nil {
		return 0, errorf("recover: %w", err)
	}
	var last uint64
	if len(segs) > 0 {
		last = segs[len(segs)-1]
	}
	var es []entry
	lastValid, err := wal.Replay(s.fs, s.walDir(), walMin, func(seg uint64, rec []byte) error {
		// The replayed segments' log bytes count towards MaxWALSize
		// while their memtables pin them; a preallocated zero tail
		// and a torn tail (cut below) are not log.
		s.walSizes[seg] += wal.FrameSize(len(rec))
		b, err := decodeBatch(rec)
		if err != nil {
			return fmt.Errorf("%s: %w", path.Join(s.walDir(), wal.SegmentName(seg)), err)
		}
		s.lastSeq.Store(max(s.lastSeq.Load(), b.firstSeq+uint64(b.count())-1))
		t := s.byID[b.tableID]
		if t == nil {
			return nil // dropped table
		}
		arena := make([]byte, 0, len(rec)*2)
		seq := b.firstSeq
		for i := range b.rows {
			r := t.regions[regionFor(t.regions, b.rows[i].key)]
			es, seq = appendEntries(es[:0], &arena, &b.rows[i], seq)
			kept := es[:0]
			for j, e := range es {
				if seq-uint64(len(es))+uint64(j) > r.flushedSeq {
					kept = append(kept, e)
				}
			}
			if len(kept) > 0 {
				s.memBytes.Add(r.state.mem.add(kept, seq-1, seg))
			}
		}
		return nil
	})
	if err != nil {
		var ce *wal.CorruptionError
		if errors.As(err, &ce) {
			return 0, errorf("recover: %w (%w)", err, errCorrupt)
		}
		return 0, errorf("recover: %w", err)
	}
	if last != 0 {
		if err := wal.TruncateSegment(s.fs, s.walDir(), last, lastValid); err != nil {
			return 0, errorf("recover: cut torn WAL tail: %w", err)
		}
	}
	return last, nil
}

// removeOrphans deletes files no manifest lists (left by a crash between
// writing a file and recording it, or before deleting an obsolete one).
func (s *Store) removeOrphans() {
	live := map[uint64]bool{}
	for _, t := range s.tables {
		for _, r := range t.regions {
			for _, fs := range r.state.files {
				for _, f := range fs {
					live[f.num] = true
				}
			}
		}
	}
	names, _ := s.fs.List(s.dir)
	for _, n := range names {
		if num, ok := strings.CutSuffix(n, ".sst"); ok {
			if v, err := strconv.ParseUint(num, 10, 64); err == nil && !live[v] {
				s.fs.Remove(path.Join(s.dir, n))
			}
		}
	}
}

// closeFiles closes every open file (a failed Open).
func (s *Store) closeFiles() {
	for _, t := range s.tables {
		for _, r := range t.regions {
			for _, fs := range r.state.files {
				for _, f := range fs {
					if f.refs.Add(-1) == 0 {
						f.reader.Close()
					}
				}
			}
		}
	}
}
