package lsm

import (
	"bytes"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// flushDropShadowed enables flushDrop; tests turn it off to get a flush
// that writes every memtable entry (the reference) and benchmarks to
// compare both.
var flushDropShadowed = true

// flushDrop decides which entries of an immutable memtable a flush may
// leave out of the files: the cell versions no read at a current or future
// snapshot can see. A hot row collects hundreds of versions of a column in
// a memtable; without this they all land in the first file and every read
// of the row steps or seeks past them until a compaction drops them.
//
// It is visibility (the rules every read applies) run over the memtable
// alone at smin, the oldest open snapshot, exactly as compaction runs it
// over a store's files (writeCompaction), and it drops the Sets visibility
// calls hidden (covered by a tombstone, or an older write of the same
// timestamp) or shadowed (beyond the family's MaxVersions, or past its
// TTL). It keeps every tombstone, every live Set and every entry above
// smin. Why that is safe with only the memtable in view:
//
//   - Every snapshot a read may use, now or later, is >= smin: smin is the
//     minimum of the registered snapshots and of visibleSeq, new reads take
//     visibleSeq, and visibleSeq only grows.
//   - A dropped entry e has e.seq <= smin (entries above smin are newer,
//     never dropped). What hides or shadows it within the memtable at smin
//     holds at every snapshot S >= smin whatever the files hold: a
//     tombstone with seq in (e.seq, smin] applies at S too; a newer write
//     of e's timestamp stays visible at S (a tombstone that later deletes
//     it deletes e too, having a larger seq and the same timestamp); the
//     MaxVersions versions newer than e visible at smin stay visible at S
//     (a later DeleteCells that would delete some of them without e is
//     preceded by prepare's GC tombstone, which deletes e: see prepare.go;
//     compaction relies on the same rule); TTL expiry only grows with the
//     clock. Entries outside the memtable only add shadowing: the files
//     of the region hold flushed entries, all older by seq than the
//     memtable's, so their tombstones cannot delete a memtable version;
//     a bulk-ingested file's cells may be newer (ingest.go: keys carry
//     the builder's start seq) but it holds no tombstones, and its Sets
//     are more versions, which can only push e further beyond
//     MaxVersions or hide it by timestamp.
//   - Dropping e changes no other entry's verdict at any S >= smin: a
//     hidden Set leaves visibility's state alone; a shadowed one is
//     counted in liveN and sets lastTS, but every version after it in
//     key order (an older timestamp, or e's timestamp with a lower seq)
//     is then beyond MaxVersions, or past the TTL, or covered by the same
//     tombstone, with or without e.
//   - Tombstones are kept: files below may hold cells they delete.
//     DeleteRow tombstones go, as before, into every family's file.
//
// The files' key bounds, bloom filters, entry counts (fileMeta.entries,
// the region's row estimate) come from the writer's Add calls, so they
// describe what was written. A family whose entries are all dropped gets
// no file.
type flushDrop struct {
	vis visibility
	row []byte // the escaped row of the last entry
}

func newFlushDrop(fams []famInfo, smin uint64) *flushDrop {
	d := &flushDrop{vis: visibility{snap: smin, fams: fams, nowUS: int64(kv.Now())}}
	d.vis.resetRow()
	return d
}

// keep reports whether the flush writes the memtable entry p with value
// val. Entries come in key order.
func (d *flushDrop) keep(p *ikey.Parsed, val []byte) (bool, error) {
	if !bytes.Equal(p.Row, d.row) {
		d.row = append(d.row[:0], p.Row...)
		d.vis.resetRow()
	}
	v, err := d.vis.step(p, val)
	if err != nil {
		return false, err
	}
	return v != hidden && v != shadowed, nil
}
