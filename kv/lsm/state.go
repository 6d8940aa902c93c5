package lsm

import (
	"bytes"
	"path"

	"github.com/widesql/widesql/kv/lsm/internal/wal"
)

func compareBytes(a, b []byte) int { return bytes.Compare(a, b) }

// walMinLocked is the oldest WAL segment still holding unflushed data: the
// first segment of every non-empty memtable, or the current segment.
func (s *Store) walMinLocked() uint64 {
	lo := s.walSeg.Load()
	for _, t := range s.tables {
		for _, r := range t.regions {
			for _, m := range append([]*memtable{r.state.mem}, r.state.imms...) {
				if seg := m.firstWAL.Load(); seg != 0 && seg < lo {
					lo = seg
				}
			}
		}
	}
	return lo
}

// walPinnedLocked returns the bytes of the closed WAL segments that some
// memtable still needs (from walMinLocked up to the current segment); with
// mu held.
func (s *Store) walPinnedLocked() int64 {
	lo := s.walMinLocked()
	var n int64
	for seg, size := range s.walSizes {
		if seg >= lo {
			n += size
		}
	}
	return n
}

// oldestWALRegionLocked returns the region whose mutable memtable holds the
// oldest closed WAL segment (its first entry is in a segment before the
// current one), or nil; with mu held.
func (s *Store) oldestWALRegionLocked() *region {
	var pick *region
	lo := s.walSeg.Load()
	for _, t := range s.tables {
		for _, r := range t.regions {
			if seg := r.state.mem.firstWAL.Load(); seg != 0 && seg < lo {
				pick, lo = r, seg
			}
		}
	}
	return pick
}

// buildManifestLocked captures the current state; with mu held.
func (s *Store) buildManifestLocked() *manifestData {
	m := &manifestData{NextFileNum: s.nextFileNum, NextRegionID: s.nextRegionID, NextTableID: s.nextTableID,
		LastSeq: s.lastSeq.Load(), WALMin: s.walMinLocked()}
	for _, t := range s.tables {
		fs := t.families()
		mt := manifestTable{ID: t.id, Name: t.name, Families: fs.spec}
		for _, r := range t.regions {
			mr := manifestRegion{ID: r.id, Start: r.start, End: r.end, FlushedSeq: r.flushedSeq,
				Rows: r.rows.Load(), Rewrite: r.rewrite, Files: make([][]manifestFile, len(fs.fams))}
			for fi, fs := range r.state.files {
				for _, f := range fs {
					mr.Files[fi] = append(mr.Files[fi], manifestFile{Num: f.num, Smallest: f.smallest,
						Largest: f.largest, Size: f.size, Entries: f.entries, InstallSeq: f.installSeq})
				}
			}
			mt.Regions = append(mt.Regions, mr)
		}
		m.Tables = append(m.Tables, mt)
	}
	return m
}

// saveManifest writes the current state as a new manifest, then deletes the
// previous manifest and the WAL segments no region needs. The caller holds
// manifestMu. A failure fails the store: the on-disk state is then the
// previous manifest plus the WAL, which recovery handles.
func (s *Store) saveManifest() error {
	s.mu.Lock()
	num := s.nextFileNum
	s.nextFileNum++
	m := s.buildManifestLocked()
	s.mu.Unlock()
	if err := writeManifest(s.fs, s.dir, num, m); err != nil {
		s.fail(err)
		return err
	}
	names, _ := s.fs.List(s.dir)
	cur := manifestName(num)
	for _, n := range names {
		if len(n) > 9 && n[:9] == "MANIFEST-" && n != cur {
			s.fs.Remove(path.Join(s.dir, n))
		}
	}
	if err := wal.RemoveBefore(s.fs, s.walDir(), m.WALMin); err != nil {
		s.opts.Logger.Warn("lsm: remove old WAL segments", "err", err)
	}
	s.mu.Lock()
	for seg := range s.walSizes {
		if seg < m.WALMin {
			delete(s.walSizes, seg) // no memtable needs it: not pinned, whether or not removed
		}
	}
	s.mu.Unlock()
	return nil
}

func (s *Store) walDir() string { return path.Join(s.dir, "wal") }
