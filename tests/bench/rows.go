package bench

import (
	"math/rand/v2"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// Family is the one column family of the benchmark table (widesql's
// default family).
const Family = "d"

// FixtureRows is the number of rows preloaded for the read benchmarks.
const FixtureRows = 100_000

// RowsPerUser is how many consecutive rows share a user_id in the fixture.
const RowsPerUser = 100

// CellTimestamp is the version every benchmark cell is written at.
const CellTimestamp kv.Timestamp = 1_767_225_600_000_000 // 2026-01-01

var baseMicros = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

// Qualifiers of the three value cells: column ids as uvarints, as widesql's
// executor writes them.
var (
	QualInt    = []byte{3}
	QualDouble = []byte{4}
	QualText   = []byte{5}
)

// AppendKey appends the rowkey of (user_id BIGINT, ts TIMESTAMP DESC).
func AppendKey(dst []byte, user, tsMicros int64) []byte {
	dst = keyenc.AppendKey(dst, types.NewInt(types.Int8, user), types.TInt8, false)
	return keyenc.AppendKey(dst, types.NewTimestamp(tsMicros), types.TTimestamp, true)
}

// AppendFixtureKey appends the rowkey of fixture row i. Rows of one user
// sort newest first, so key order is not i order within a user; every key
// of a row i < FixtureRows-RowsPerUser has at least RowsPerUser rows at or
// after it.
func AppendFixtureKey(dst []byte, i int) []byte {
	return AppendKey(dst, int64(i/RowsPerUser), baseMicros+int64(i%RowsPerUser)*1_000_000)
}

// words is the vocabulary of the text column.
var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot",
	"golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november",
	"oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor"}

// RowMaker builds rows of the benchmark table, reusing its buffers: a row
// returned by Make is valid until the next call to Reset.
type RowMaker struct {
	rng  *rand.Rand
	buf  []byte
	rows []kv.Row
	cell []kv.Cell
}

// NewRowMaker returns a RowMaker whose values come from seed.
func NewRowMaker(seed uint64) *RowMaker {
	return &RowMaker{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Reset forgets the rows made so far and recycles their memory.
func (m *RowMaker) Reset() {
	m.buf, m.rows, m.cell = m.buf[:0], m.rows[:0], m.cell[:0]
}

// Rows returns the rows made since the last Reset.
func (m *RowMaker) Rows() []kv.Row { return m.rows }

// Make appends a row with the given key (copied) and three cells: an
// integer, a double and a text of about 20 characters, value-encoded as
// widesql's executor encodes them.
func (m *RowMaker) Make(key []byte) {
	// When append moves an arena, rows made earlier keep the old array.
	start := len(m.buf)
	m.buf = append(m.buf, key...)
	k := m.buf[start:len(m.buf):len(m.buf)]

	vi := len(m.buf)
	m.buf = keyenc.AppendValue(m.buf, types.NewInt(types.Int4, m.rng.Int64N(100_000)), types.TInt4)
	vd := len(m.buf)
	m.buf = keyenc.AppendValue(m.buf, types.NewFloat(m.rng.Float64()*1000), types.TFloat8)
	vt := len(m.buf)
	m.buf = append(m.buf, words[m.rng.IntN(len(words))]...)
	m.buf = append(m.buf, ' ')
	m.buf = append(m.buf, words[m.rng.IntN(len(words))]...)
	m.buf = append(m.buf, ' ')
	m.buf = append(m.buf, words[m.rng.IntN(len(words))]...)
	end := len(m.buf)

	c := len(m.cell)
	m.cell = append(m.cell,
		kv.Cell{Family: Family, Qualifier: QualInt, Timestamp: CellTimestamp, Value: m.buf[vi:vd:vd]},
		kv.Cell{Family: Family, Qualifier: QualDouble, Timestamp: CellTimestamp, Value: m.buf[vd:vt:vt]},
		kv.Cell{Family: Family, Qualifier: QualText, Timestamp: CellTimestamp, Value: m.buf[vt:end:end]},
	)
	m.rows = append(m.rows, kv.Row{Key: k, Cells: m.cell[c : c+3 : c+3]})
}

// RandomKey appends a rowkey drawn uniformly from a large key space (for
// writes that land all over the table).
func (m *RowMaker) RandomKey(dst []byte) []byte {
	return AppendKey(dst, m.rng.Int64N(1_000_000_000), baseMicros+m.rng.Int64N(365*86400)*1_000_000)
}

// IntN returns a random int in [0, n) from the maker's source.
func (m *RowMaker) IntN(n int) int { return m.rng.IntN(n) }
