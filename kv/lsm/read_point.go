package lsm

// Point reads of a RowSet with several keys (a multi-get: WHERE pk IN
// (...)) share their file iterators: the keys of one region are read in
// order by iterators that stay open from key to key, so a key in the data
// block the previous key loaded is found without the index search or the
// block cache lookup, and often by stepping forward from the previous
// position (sstable.Iter.SeekGE). Each key still gets its own bloom and key
// range checks, and its own memtable iterators bounded to its row.

// pointIter returns the merging iterator for the point read of the row
// prefix point in region rs: rs's memtables bounded to the row, and the
// files that may hold it, through iterators cached in it.pointFiles
// (opened on first use, kept until the read moves to another region or
// finishes). Release it with releasePoint, not Close.
func (it *rowIterator) pointIter(rs *regionSnap, point []byte) *mergingIter {
	if it.pointRS != rs {
		it.closePointFiles()
		it.pointRS = rs
		n := len(rs.files)
		if cap(it.pointFiles) < n {
			it.pointFiles = make([]internalIter, n)
		}
		it.pointFiles = it.pointFiles[:n]
	}
	m := &it.bufs.point
	rs.initMems(m, point)
	var ph pointHash
	for i, f := range rs.files {
		if !ph.mayHold(f, point) {
			continue
		}
		if it.pointFiles[i] == nil {
			it.pointFiles[i] = sstIter{f.reader.NewIter()}
		}
		m.children = append(m.children, it.pointFiles[i])
	}
	return m
}

// releasePoint ends the point read of m (from pointIter): it closes the
// memtable iterators and keeps the cached file iterators open. It returns
// the first error m met.
func (it *rowIterator) releasePoint(m *mergingIter) error {
	for i := range m.mems {
		m.mems[i].Close()
	}
	clear(m.children)
	clear(m.h[:cap(m.h)])
	m.children, m.h = m.children[:0], m.h[:0]
	err := m.err
	m.err = nil
	return err
}

// closePointFiles closes the cached file iterators, recording the first
// error.
func (it *rowIterator) closePointFiles() {
	for i, c := range it.pointFiles {
		if c == nil {
			continue
		}
		if err := c.Close(); err != nil && it.err == nil {
			it.err = it.wrap(err)
		}
		it.pointFiles[i] = nil
	}
	it.pointFiles = it.pointFiles[:0]
	it.pointRS = nil
}
