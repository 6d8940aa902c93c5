package lsm

import (
	"bytes"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// famInfo is a family of a table as the read and compaction paths need it.
type famInfo struct {
	name        string
	esc         []byte // ikey.AppendEscaped(name): the family slot of its keys
	maxVersions int    // >= 1
	ttl         time.Duration
	compression string
	bloom       string // "" or "row": a rowkey filter per file; "none"
	idx         int    // position in the table's sorted family list
}

// visibility decides, entry by entry in key order over one row, which cells
// are live at snapshot seq snap (Bigtable semantics, with tombstones ordered
// by sequence number rather than timestamp):
//
//   - a Set (ts, seq) is visible iff seq <= snap and no tombstone with seq'
//     in (seq, snap] covers it: DeleteRow the row, DeleteFamily the family,
//     DeleteCells the column with ts in [start, end);
//   - among visible Sets of one (column, ts) the highest seq wins;
//   - only the family's newest MaxVersions visible versions are live;
//   - cells older than the family's TTL are not live.
//
// Tombstones sort before what they cover (see ikey), so one forward pass
// suffices. Family and column changes are detected on the escaped key parts,
// which the state copies (the source's keys are only valid until it moves).
type visibility struct {
	snap    uint64
	fams    []famInfo // all families of the table, sorted by name
	nowUS   int64     // for TTL; microseconds
	noLimit bool      // ignore MaxVersions (the write path's row reads)
	// known is what the state holds of the last entry: sameFam (famBuf
	// is its family), sameCol (colBuf its qualifier too), or 0. A byte
	// beside noLimit: the rowIterator, which embeds the state, stays
	// within its allocation size class.
	known uint8

	rowDel uint64
	fam    *famInfo // nil: a family not in fams
	famBuf []byte
	famDel uint64
	colBuf []byte
	colDel []delRange
	colGen uint64 // counts columns: bumped at each row, family and column change (never 0 once a column is seen)
	lastTS int64  // ts of the last visible version of the column; -1 none
	liveN  int    // visible versions of the column so far
}

// How much of its key an entry is known to share with the one before it
// in the row (stepIn): nothing, the family, or the family and qualifier.
const (
	sameFam = 1
	sameCol = 2
)

type delRange struct {
	start, end int64 // end 0 = unbounded
	seq        uint64
}

// verdict is visibility's decision on one entry.
type verdict uint8

const (
	hidden    verdict = iota // a Set that is not visible at snap
	live                     // a visible, live Set
	shadowed                 // visible but beyond MaxVersions or expired
	tombstone                // a tombstone with seq <= snap (applied)
	newer                    // seq > snap
)

// resetRow starts a new row. It keeps the family last seen (famBuf, fam):
// rows of a scan mostly start in the family the previous row ended in,
// and the family lookup is then skipped. Everything a family change resets
// is reset here too.
func (v *visibility) resetRow() {
	v.colGen++ // a first column with the previous one's qualifier is another column
	v.rowDel, v.famDel = 0, 0
	v.colBuf = v.colBuf[:0]
	v.colDel = v.colDel[:0]
	v.lastTS, v.liveN = -1, 0
	v.known = 0
}

func (v *visibility) findFamily(esc []byte) *famInfo {
	for i := range v.fams {
		if bytes.Equal(v.fams[i].esc, esc) {
			return &v.fams[i]
		}
	}
	return nil
}

// step classifies the entry p with value val. p must belong to the row of
// the previous calls since resetRow.
func (v *visibility) step(p *ikey.Parsed, val []byte) (verdict, error) {
	return v.stepIn(p, val, 0)
}

// newColumn is stepIn's common case, decided without its bookkeeping for
// tombstones: a Set of a new column in the family of the entry before it
// (same == sameFam, and the state holds that entry's family and column),
// visible at snap and above the family's tombstones, in a known family
// without TTL. Such a Set is the column's first visible version, live
// (MaxVersions >= 1; its timestamp is not lastTS, -1 for a new column).
// It reports false, changing nothing, for any other entry: the caller
// then calls stepIn, which decides it the same way.
func (v *visibility) newColumn(p *ikey.Parsed, same int) bool {
	if same != sameFam || v.known != sameCol || p.Kind != ikey.KindSet || p.Seq > v.snap ||
		p.Seq <= v.famDel || v.fam == nil || v.fam.ttl != 0 || eqShort(p.Qualifier, v.colBuf) {
		return false
	}
	v.colBuf = copyShort(v.colBuf, p.Qualifier)
	v.colGen++
	v.colDel, v.lastTS, v.liveN = v.colDel[:0], p.TS, 1
	return true
}

// stepIn is step for an entry whose family (same >= sameFam), or family
// and qualifier (same >= sameCol), are those of the entry before it in
// the row: the comparisons with the state are skipped where the state
// holds that entry's (v.known). The caller knows it from the block's
// prefix compression (collectOf).
func (v *visibility) stepIn(p *ikey.Parsed, val []byte, same int) (verdict, error) {
	same = min(same, int(v.known))
	if p.Kind == ikey.KindDeleteRow {
		v.known = 0 // it leaves famBuf and colBuf as they were
		if p.Seq > v.snap {
			return newer, nil
		}
		v.rowDel = max(v.rowDel, p.Seq)
		v.famDel = max(v.famDel, p.Seq)
		return tombstone, nil
	}
	if same < sameFam && !eqShort(p.Family, v.famBuf) {
		v.famBuf = append(v.famBuf[:0], p.Family...)
		v.fam = v.findFamily(p.Family)
		v.famDel = v.rowDel
		v.colBuf = v.colBuf[:0]
		v.colGen++ // the family's tombstones and its first column, even an empty qualifier
		v.colDel, v.lastTS, v.liveN = v.colDel[:0], -1, 0
	}
	if p.Kind == ikey.KindDeleteFamily {
		v.known = sameFam // colBuf is not its qualifier
		if p.Seq > v.snap {
			return newer, nil
		}
		v.famDel = max(v.famDel, p.Seq)
		return tombstone, nil
	}
	if same < sameCol && !eqShort(p.Qualifier, v.colBuf) {
		v.colBuf = copyShort(v.colBuf, p.Qualifier)
		v.colGen++
		v.colDel, v.lastTS, v.liveN = v.colDel[:0], -1, 0
	}
	v.known = sameCol
	if p.Seq > v.snap {
		return newer, nil
	}
	if p.Kind == ikey.KindDeleteCells {
		start, end, err := ikey.DecodeRange(val)
		if err != nil {
			return hidden, err
		}
		if end >= int64(kv.MaxTimestamp) {
			end = 0
		}
		v.colDel = append(v.colDel, delRange{start: start, end: end, seq: p.Seq})
		return tombstone, nil
	}
	if p.Seq <= v.famDel || p.TS == v.lastTS {
		return hidden, nil
	}
	for _, d := range v.colDel {
		if d.seq > p.Seq && p.TS >= d.start && (d.end == 0 || p.TS < d.end) {
			return hidden, nil
		}
	}
	v.lastTS = p.TS
	v.liveN++
	if v.fam == nil {
		return shadowed, nil
	}
	if !v.noLimit && v.liveN > v.fam.maxVersions {
		return shadowed, nil
	}
	if v.fam.ttl > 0 && p.TS < v.nowUS-v.fam.ttl.Microseconds() {
		return shadowed, nil
	}
	return live, nil
}

// eqShort is bytes.Equal for key components, mostly a few bytes long:
// a loop here beats the call into the runtime's compare, and a new
// column's qualifier mostly differs from the last one in its first byte.
func eqShort(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// copyShort is append(dst[:0], src...) for key components: a qualifier
// is mostly a few bytes, copied here without the call to memmove.
func copyShort(dst, src []byte) []byte {
	if cap(dst) < len(src) || len(src) > 16 {
		return append(dst[:0], src...)
	}
	dst = dst[:len(src)]
	for i := range src {
		dst[i] = src[i]
	}
	return dst
}
