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
// A merge of several inputs is called directly too (mergingIter's
// methods, not the interface's), and reports the shared length it
// tracks (iter.go).
type cellSource struct {
	it      internalIter  // always set: seeks and errors go through it
	sst     *sstable.Iter // non-nil: it is sstIter{sst}
	m       *mergingIter  // non-nil: it is m
	run     *runIter      // non-nil: it is run
	runSh   int           // with run: what run.nextShared last reported
	stepped bool          // the last move was Next (sst's or m's) from a key of the row
}

func sourceOf(it internalIter) cellSource {
	switch c := it.(type) {
	case sstIter:
		return cellSource{it: it, sst: c.it}
	case *mergingIter:
		return cellSource{it: it, m: c}
	case *runIter:
		return cellSource{it: it, run: c}
	}
	return cellSource{it: it}
}

func (s *cellSource) valid() bool {
	if s.sst != nil {
		return s.sst.Valid()
	}
	if s.m != nil {
		return s.m.err == nil && len(s.m.h) > 0
	}
	if s.run != nil {
		return s.run.Valid()
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
	if s.run != nil {
		return s.run.cur.Key()
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
	if s.run != nil {
		return s.run.cur.Value()
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
		return s.sst.SharedAfterNext()
	}
	if s.m != nil {
		return s.m.shared
	}
	return s.runSh
}

// next moves to the next entry; the current one must be of the row.
func (s *cellSource) next() {
	switch {
	case s.sst != nil:
		s.sst.Next()
		s.stepped = true
	case s.m != nil:
		s.m.Next()
		s.stepped = true
	case s.run != nil:
		_, s.runSh = s.run.nextShared()
		s.stepped = true
	default:
		s.it.Next()
	}
}

// seekForward moves to the first entry >= k, above the current key.
func (s *cellSource) seekForward(k []byte) {
	s.stepped = false
	seekForward(s.it, k)
}
