package lsm

import (
	"cmp"
	"slices"
	"sync/atomic"
	"time"
)

// Block-cache warming (Options.PrefetchBlocks). Once the store has been
// quiet for warmQuiet (no file written), the background goroutine fills
// the block cache's free room with the blocks of the files it holds, in
// steps of warmStepBytes between its flushes and compactions, each file
// read sequentially in large pieces (sstable.Reader.Warm). It never
// evicts a block, so it only ever uses memory the cache was given and
// nothing had claimed; each file is warmed once. A point read of a table
// whose decompressed blocks fit the cache then never pays a miss (a
// pread, a checksum and a decompression of a whole block for one row):
// at 10^7 rows of the benchmark table that was two thirds of a point
// Get's time while the cache filled at the rate reads missed it.

const (
	// warmQuiet is how long no file may have been written, and writes
	// may not have come faster than warmBusyRate, before warming
	// begins: a bulk load's flushes and compactions replace their
	// files within seconds, and warming those would be wasted.
	warmQuiet = 500 * time.Millisecond
	// warmBusyRate is the write rate, in entries (cells and tombstones)
	// per second, above which the store is loading, not quiet.
	warmBusyRate = 20000
	// warmStepBytes is what one background pass warms at most before
	// the next pass lets a pending flush or compaction go first.
	warmStepBytes = 32 << 20
	// warmMinRoomDiv: warming waits while the cache's free room is
	// below 1/warmMinRoomDiv of its capacity.
	warmMinRoomDiv = 64
)

// warmState is the warmer's memory; only the background goroutine uses
// it, but for bytes.
type warmState struct {
	fileGen uint64    // nextFileNum at the last look
	seq     uint64    // lastSeq at the last look
	at      time.Time // the last look
	changed time.Time // when the store was last seen busy (warmQuiet)
	// done holds the files warmed to their end (or given up on after an
	// error); next where a file cut short goes on.
	done map[uint64]struct{}
	next map[uint64]int
	// settled is the fileGen at which a step last found nothing left
	// to warm, or the cache full: until a file is written, there is
	// nothing to do.
	settled uint64
	// bytes counts the bytes cached by warming, in all (Metrics).
	bytes atomic.Int64
}

// warmCache runs one warming step if the store is quiet and the cache
// has room. It reports whether files are left to warm that the step's
// budget did not reach, so the caller comes back at once.
func (s *Store) warmCache() (more bool) {
	if !s.opts.PrefetchBlocks {
		return false
	}
	w := &s.warm
	s.mu.Lock()
	gen := s.nextFileNum
	s.mu.Unlock()
	now, seq := time.Now(), s.lastSeq.Load()
	busy := gen != w.fileGen || w.changed.IsZero() ||
		float64(seq-w.seq) > warmBusyRate*now.Sub(w.at).Seconds()
	w.fileGen, w.seq, w.at = gen, seq, now
	if busy {
		w.changed = now
		return false
	}
	if now.Sub(w.changed) < warmQuiet || gen == w.settled {
		return false
	}
	if s.cache.Room() < s.cache.Capacity()/warmMinRoomDiv {
		w.settled = gen
		return false
	}
	files := s.warmCandidates()
	defer func() {
		for _, f := range files {
			s.unref(f)
		}
	}()
	budget := int64(warmStepBytes)
	for i, f := range files {
		if budget <= 0 || s.stopping() {
			return i < len(files)
		}
		next, cached, full, err := f.reader.Warm(w.next[f.num], budget)
		budget -= cached
		w.bytes.Add(cached)
		switch {
		case err != nil:
			// A read will meet the same damage and report it.
			s.opts.Logger.Warn("lsm: warming the block cache", "file", fileName(f.num), "err", err)
			w.done[f.num] = struct{}{}
			delete(w.next, f.num)
		case next >= f.reader.Blocks():
			w.done[f.num] = struct{}{}
			delete(w.next, f.num)
		default:
			w.next[f.num] = next
		}
		if full {
			break
		}
	}
	w.settled = gen
	return false
}

// warmCandidates returns the live files not warmed yet, each with a
// reference the caller drops, in table, region, family and age order, and
// forgets the files it remembered that are gone.
func (s *Store) warmCandidates() []*fileMeta {
	w := &s.warm
	if w.done == nil {
		w.done, w.next = make(map[uint64]struct{}), make(map[uint64]int)
	}
	live := make(map[uint64]struct{}, len(w.done))
	var files []*fileMeta
	s.mu.Lock()
	tables := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	slices.SortFunc(tables, func(a, b *table) int { return cmp.Compare(a.id, b.id) })
	for _, t := range tables {
		for _, r := range t.regions {
			for _, fs := range r.state.files {
				for _, f := range fs {
					if _, seen := live[f.num]; seen {
						continue // shared by split regions
					}
					live[f.num] = struct{}{}
					if _, ok := w.done[f.num]; ok {
						continue
					}
					f.refs.Add(1)
					files = append(files, f)
				}
			}
		}
	}
	s.mu.Unlock()
	for num := range w.done {
		if _, ok := live[num]; !ok {
			delete(w.done, num)
		}
	}
	for num := range w.next {
		if _, ok := live[num]; !ok {
			delete(w.next, num)
		}
	}
	return files
}
