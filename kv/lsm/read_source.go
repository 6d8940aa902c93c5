package lsm

import "github.com/widesql/widesql/kv/lsm/internal/sstable"

// cellSource is the iterator collectOf reads a row from. A scan whose merge
// has one input left often reads one file; calling it through internalIter
// cost four interface calls per cell (Valid, Key, Value, Next, each
// through sstIter's wrapper). cellSource calls the file's iterator
// directly then: Valid, Key and Value inline, and the branch is the same
// for every cell of a scan.
//
// It also tells how many bytes a file's key shares with the one before it
// (from the block's prefix compression): a key sharing the row prefix is
// in the row, one sharing the family too is in the family, without a
// comparison or a scan of the family.
//
// A run of files is read the same way, through its current file's
// iterator: the run (runIter) is consulted only when that file ends or on
// a seek. A merge of several inputs is called directly too (mergingIter's
// methods, not the interface's), and reports the shared length it
// tracks (iter.go).
type cellSource struct {
	it      internalIter  // always set: seeks and errors go through it
	sst     *sstable.Iter // non-nil: the file read (it is sstIter{sst}, or run's current file)
	m       *mergingIter  // non-nil: it is m
	run     *runIter      // non-nil: it is run
	stepped bool          // the last move was Next (sst's or m's) from a key of the row
}

// init sets s up to read it. Field by field, into a cellSource the caller
// keeps and passes by pointer: a composite literal built on the stack and
// copied (16-byte loads of 8-byte stores) stalled on store forwarding
// once per row.
func (s *cellSource) init(it internalIter) {
	s.it, s.sst, s.m, s.run, s.stepped = it, nil, nil, nil, false
	switch c := it.(type) {
	case sstIter:
		s.sst = c.it
	case *mergingIter:
		s.m = c
	case *runIter:
		s.run = c
		s.runFile()
	}
}

// runFile points sst at the run's current file, or nil when the run is
// not positioned (exhausted, or stopped by an error). Within a file the
// run's state does not change, so sst.Valid is the run's Valid: the run
// is only consulted again when its file ends or it seeks.
func (s *cellSource) runFile() {
	s.sst = nil
	if s.run.Valid() {
		s.sst = s.run.cur
	}
}

func (s *cellSource) valid() bool {
	if s.sst != nil {
		return s.sst.Valid()
	}
	if s.m != nil {
		return s.m.err == nil && len(s.m.h) > 0
	}
	if s.run != nil {
		return false // see runFile
	}
	return s.it.Valid()
}

func (s *cellSource) key() []byte {
	if s.sst != nil {
		return s.sst.Key()
	}
	if s.m != nil {
		return s.m.h[0].key
	}
	return s.it.Key()
}

func (s *cellSource) value() []byte {
	if s.sst != nil {
		return s.sst.Value()
	}
	if s.m != nil {
		return s.m.h[0].value()
	}
	return s.it.Value()
}

// shared returns how many leading bytes the current key is known to
// share with the one before it, a key of the row, or -1.
func (s *cellSource) shared() int {
	if !s.stepped {
		return -1
	}
	if s.sst != nil {
		// In a run's next file, the first entry's is 0 (a restart
		// point): nothing is known shared with the last file's key.
		return s.sst.SharedAfterNext()
	}
	if s.m != nil {
		return s.m.shared
	}
	return -1
}

// next moves to the next entry; the current one must be of the row.
func (s *cellSource) next() {
	switch {
	case s.sst != nil:
		s.stepped = true
		if !s.sst.Next() && s.run != nil {
			s.nextFile()
		}
	case s.m != nil:
		s.m.Next()
		s.stepped = true
	default:
		s.it.Next()
	}
}

// nextFile moves the run on to its next file after the current one ended
// (or stopped with an error, which the run records).
func (s *cellSource) nextFile() {
	r := s.run
	if !r.settle() {
		r.forwardFrom(r.i + 1)
	}
	s.runFile()
}

// seekForward moves to the first entry >= k, above the current key.
func (s *cellSource) seekForward(k []byte) {
	s.stepped = false
	seekForward(s.it, k)
	if s.run != nil {
		s.runFile() // the seek may have closed the file and opened another
	}
}
