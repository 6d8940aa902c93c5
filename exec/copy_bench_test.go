package exec_test

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// benchCopyRows is the rows of one COPY in BenchmarkCopyIngest.
const benchCopyRows = 100_000

// BenchmarkCopyIngest is the harness's bulk load in process: autocommit
// COPY FROM STDIN in binary format (as pgx CopyFrom sends it) of the kv
// table (tests/harness/load.go: two families, a 64-character payload),
// rows in key order, fed in 64 KiB chunks; each op is one COPY of
// benchCopyRows rows into a new table. It reports CPU time and allocations per row
// (the store does not fsync: the CPU cost is the subject).
func BenchmarkCopyIngest(b *testing.B) {
	ctx := context.Background()
	c := newTestSession(b, openLSMEngine(b, lsm.Options{NoSync: true}))
	var data []byte
	var ms0, ms1 runtime.MemStats
	var cpu0 int64
	var mallocs uint64
	b.ResetTimer()
	for it := range b.N {
		b.StopTimer()
		// A table per COPY, as the harness loads a fresh one: no
		// compaction of earlier loads runs meanwhile.
		if _, err := c.Exec(ctx, fmt.Sprintf("CREATE TABLE kv%d (tenant INT, id BIGINT, d.grp INT, d.val INT, p.payload TEXT, PRIMARY KEY (tenant, id))", it)); err != nil {
			b.Fatal(err)
		}
		data = copyBinaryRows(data[:0], it*benchCopyRows, benchCopyRows)
		runtime.ReadMemStats(&ms0)
		c0 := cpuTime()
		b.StartTimer()
		if n, err := copyIn(ctx, c.s, fmt.Sprintf("COPY kv%d (tenant, id, grp, val, payload) FROM STDIN (FORMAT binary)", it), data); err != nil || n != benchCopyRows {
			b.Fatalf("COPY: %d rows, %v", n, err)
		}
		b.StopTimer()
		cpu0 += int64(cpuTime() - c0)
		runtime.ReadMemStats(&ms1)
		mallocs += ms1.Mallocs - ms0.Mallocs
		b.StartTimer()
	}
	rows := float64(b.N) * benchCopyRows
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rows, "ns/row")
	b.ReportMetric(float64(cpu0)/rows, "cpu-ns/row")
	b.ReportMetric(float64(mallocs)/rows, "allocs/row")
}

// copyBinaryRows appends binary COPY data of n rows of the kv table,
// starting at row lo, shaped as the harness's rows.
func copyBinaryRows(dst []byte, lo, n int) []byte {
	dst = append(dst, "PGCOPY\n\xff\r\n\x00"...)
	dst = binary.BigEndian.AppendUint32(dst, 0)
	dst = binary.BigEndian.AppendUint32(dst, 0)
	for i := lo; i < lo+n; i++ {
		h := uint64(i) * 0x9e3779b97f4a7c15
		dst = binary.BigEndian.AppendUint16(dst, 5)
		dst = binary.BigEndian.AppendUint32(dst, 4)
		dst = binary.BigEndian.AppendUint32(dst, uint32(i/1000+1))
		dst = binary.BigEndian.AppendUint32(dst, 8)
		dst = binary.BigEndian.AppendUint64(dst, uint64(i%1000+1))
		dst = binary.BigEndian.AppendUint32(dst, 4)
		dst = binary.BigEndian.AppendUint32(dst, uint32(h%100))
		dst = binary.BigEndian.AppendUint32(dst, 4)
		dst = binary.BigEndian.AppendUint32(dst, uint32(h>>16%1_000_000))
		dst = binary.BigEndian.AppendUint32(dst, 64)
		for _, x := range [4]uint64{h, h * 3, h * 5, h * 7} { // %016x each, without fmt's cost
			var be [8]byte
			binary.BigEndian.PutUint64(be[:], x)
			dst = hex.AppendEncode(dst, be[:])
		}
	}
	return binary.BigEndian.AppendUint16(dst, 0xffff)
}

// copyIn runs a COPY FROM STDIN statement with data sent in 64 KiB
// chunks, as a client's CopyData messages, and returns its row count.
func copyIn(ctx context.Context, sess pgwire.Session, sql string, data []byte) (n int64, err error) {
	stmts, err := sess.Parse(ctx, sql)
	if err != nil {
		return 0, err
	}
	sess.StartQuery(1)
	defer func() {
		if err != nil {
			sess.StatementFailed()
		}
		if endErr := sess.EndQuery(ctx, err != nil); err == nil && endErr != nil {
			err = endErr
		}
	}()
	prep, err := sess.Prepare(ctx, stmts[0], nil)
	if err != nil {
		return 0, err
	}
	p, err := prep.(pgwire.CopyPreparer).BindCopy(ctx, nil, nil)
	if err != nil {
		return 0, err
	}
	defer p.Close()
	for len(data) > 0 {
		k := min(len(data), 64<<10)
		if err := p.CopyData(ctx, data[:k]); err != nil {
			return 0, err
		}
		data = data[k:]
	}
	if err := p.CopyDone(ctx); err != nil {
		return 0, err
	}
	_, err = fmt.Sscanf(p.Tag(), "COPY %d", &n)
	return n, err
}

// TestCopyBinaryIngest loads binary COPY rows through the bulk ingest
// path, where integers and text are decoded in place and text fields
// alias the input until their row is stored: text and integer keys and
// values, NULLs, empty and multi-byte text, varchar(n) (the general
// decoder) and rows cut across the 64 KiB input chunks must read back
// as sent; bad fields keep their SQLSTATEs and line numbers.
func TestCopyBinaryIngest(t *testing.T) {
	ctx := context.Background()
	c := newTestSession(t, openLSMEngine(t, lsm.Options{NoSync: true}))
	const ddl = "CREATE TABLE %s (k TEXT, n INT, a.s TEXT, a.v VARCHAR(3), b.b BIGINT, b.h SMALLINT, PRIMARY KEY (k, n))"
	const cols = "(k, n, s, v, b, h)"
	type row struct {
		k    string
		n    int32
		s, v *string
		b    *int64
		h    *int16
	}
	str := func(s string) *string { return &s }
	var rows []row
	for i := range 3000 { // about 200 KiB: rows straddle the chunks
		r := row{k: fmt.Sprintf("key-%04d-ü", i/3), n: int32(i%3 - 1)}
		if i%7 != 0 {
			r.s = str(fmt.Sprintf("value %d: %s", i, strings.Repeat("é", i%50)))
		}
		if i%5 == 0 {
			r.s = str("")
		}
		if i%4 != 0 {
			r.v = str(fmt.Sprint(i % 1000))
		}
		if i%3 != 0 {
			b, h := int64(i)*-1_000_000_007, int16(i-1500)
			r.b, r.h = &b, &h
		}
		rows = append(rows, r)
	}
	field := func(dst []byte, v []byte, null bool) []byte {
		if null {
			return binary.BigEndian.AppendUint32(dst, 0xffffffff)
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v)))
		return append(dst, v...)
	}
	encode := func(rows []row, bad func(i int, dst []byte) []byte) []byte {
		dst := append([]byte("PGCOPY\n\xff\r\n\x00"), 0, 0, 0, 0, 0, 0, 0, 0)
		for i, r := range rows {
			dst = binary.BigEndian.AppendUint16(dst, 6)
			if bad != nil {
				if out := bad(i, dst); out != nil {
					dst = out
					continue
				}
			}
			dst = field(dst, []byte(r.k), false)
			dst = field(dst, binary.BigEndian.AppendUint32(nil, uint32(r.n)), false)
			dst = field(dst, []byte(deref(r.s)), r.s == nil)
			dst = field(dst, []byte(deref(r.v)), r.v == nil)
			var b, h []byte
			if r.b != nil {
				b, h = binary.BigEndian.AppendUint64(nil, uint64(*r.b)), binary.BigEndian.AppendUint16(nil, uint16(*r.h))
			}
			dst = field(dst, b, r.b == nil)
			dst = field(dst, h, r.h == nil)
		}
		return binary.BigEndian.AppendUint16(dst, 0xffff)
	}
	if _, err := c.Exec(ctx, fmt.Sprintf(ddl, "good")); err != nil {
		t.Fatal(err)
	}
	if n, err := copyIn(ctx, c.s, "COPY good "+cols+" FROM STDIN (FORMAT binary)", encode(rows, nil)); err != nil || n != int64(len(rows)) {
		t.Fatalf("COPY: %d rows, %v", n, err)
	}
	_, got, err := c.Query(ctx, "SELECT k, n, s, v, b, h FROM good ORDER BY k, n")
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(rows)
	slices.SortFunc(want, func(x, y row) int { return cmp.Or(strings.Compare(x.k, y.k), cmp.Compare(x.n, y.n)) })
	if len(got) != len(want) {
		t.Fatalf("read %d rows, want %d", len(got), len(want))
	}
	for i, r := range want {
		w := []string{r.k, fmt.Sprint(r.n), nullable(r.s), nullable(r.v), nullable(r.b), nullable(r.h)}
		if !slices.Equal(got[i], w) {
			t.Fatalf("row %d: got %q, want %q", i, got[i], w)
		}
	}

	// Bad input in row 2000 (line 2001): the SQLSTATE of each, and no row
	// stays behind.
	for _, c2 := range []struct {
		name, code string
		bad        func(dst []byte) []byte
	}{
		{"utf8", "22021", func(dst []byte) []byte {
			dst = field(dst, []byte("k"), false)
			dst = field(dst, []byte{0, 0, 0, 1}, false)
			return field(dst, []byte("ok\xff"), false)
		}},
		{"nul", "22021", func(dst []byte) []byte {
			dst = field(dst, []byte("k"), false)
			dst = field(dst, []byte{0, 0, 0, 1}, false)
			return field(dst, []byte("a\x00b"), false) // PostgreSQL's textrecv rejects it
		}},
		{"int4 length", "22P03", func(dst []byte) []byte {
			dst = field(dst, []byte("k"), false)
			return field(dst, []byte{0, 0, 1}, false)
		}},
		{"varchar width", "22001", func(dst []byte) []byte {
			dst = field(dst, []byte("k"), false)
			dst = field(dst, []byte{0, 0, 0, 1}, false)
			dst = field(dst, []byte("s"), false)
			return field(dst, []byte("abcd"), false)
		}},
		{"duplicate", "23505", func(dst []byte) []byte {
			r := rows[1999]
			dst = field(dst, []byte(r.k), false)
			dst = field(dst, binary.BigEndian.AppendUint32(nil, uint32(r.n)), false)
			for range 4 {
				dst = field(dst, nil, true)
			}
			return dst
		}},
	} {
		table := "bad_" + strings.ReplaceAll(c2.name, " ", "_")
		if _, err := c.Exec(ctx, fmt.Sprintf(ddl, table)); err != nil {
			t.Fatal(err)
		}
		data := encode(rows, func(i int, dst []byte) []byte {
			if i != 2000 {
				return nil
			}
			out := c2.bad(dst)
			// Pad a short row to 6 fields, so only the bad field fails.
			for n := countFields(out[len(dst):]); n < 6; n++ {
				out = field(out, nil, true)
			}
			return out
		})
		_, err := copyIn(ctx, c.s, "COPY "+table+" "+cols+" FROM STDIN (FORMAT binary)", data)
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != c2.code || !strings.Contains(pe.Where, "line 2001") {
			t.Errorf("%s: got %v (%+v), want %s at line 2001", c2.name, err, pe, c2.code)
		}
		if _, got, err := c.Query(ctx, "SELECT count(*) FROM "+table); err != nil || got[0][0] != "0" {
			t.Errorf("%s: %v rows left, %v", c2.name, got, err)
		}
	}
}

// countFields counts the length-prefixed fields in b.
func countFields(b []byte) int {
	n := 0
	for len(b) >= 4 {
		l := int32(binary.BigEndian.Uint32(b))
		b = b[4:]
		if l > 0 {
			b = b[l:]
		}
		n++
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// nullable renders *p as the test client does (sqltest: NULL, and
// "(empty)" for an empty string).
func nullable[T any](p *T) string {
	if p == nil {
		return "NULL"
	}
	if s := fmt.Sprint(*p); s != "" {
		return s
	}
	return "(empty)"
}

// TestCopyIngestDuplicateLines checks the line a duplicate key is reported
// at when the COPY's keys span several of the loader's key blocks: a key
// that exists in the table (found when the ingest commits, then looked
// up among the COPY's keys) and a key repeated out of order within the
// COPY (found as it arrives, after indexing every earlier key).
func TestCopyIngestDuplicateLines(t *testing.T) {
	ctx := context.Background()
	c := newTestSession(t, openLSMEngine(t, lsm.Options{NoSync: true}))
	key := func(i int) string { return fmt.Sprintf("%060d", i) } // 30000 keys: about 2 MB
	data := func(ids []int) []byte {
		dst := append([]byte("PGCOPY\n\xff\r\n\x00"), 0, 0, 0, 0, 0, 0, 0, 0)
		for _, i := range ids {
			dst = binary.BigEndian.AppendUint16(dst, 2)
			dst = binary.BigEndian.AppendUint32(dst, 60)
			dst = append(dst, key(i)...)
			dst = binary.BigEndian.AppendUint32(dst, 4)
			dst = binary.BigEndian.AppendUint32(dst, uint32(i))
		}
		return binary.BigEndian.AppendUint16(dst, 0xffff)
	}
	for _, sql := range []string{"CREATE TABLE dl (k TEXT PRIMARY KEY, v INT)", "INSERT INTO dl VALUES ('" + key(25000) + "', 1)"} {
		if _, err := c.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	var ids []int
	for i := range 30000 {
		ids = append(ids, i)
	}
	inTable := slices.Clone(ids)
	inCopy := append(slices.Clone(ids[:25000]), 20000, 25001)
	for _, c2 := range []struct {
		name string
		ids  []int
		dup  int
	}{{"in the table", inTable, 25000}, {"in the COPY", inCopy, 20000}} {
		_, err := copyIn(ctx, c.s, "COPY dl FROM STDIN (FORMAT binary)", data(c2.ids))
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != "23505" || !strings.Contains(pe.Where, "line 25001") ||
			!strings.Contains(pe.Detail, key(c2.dup)) {
			t.Errorf("%s: got %v (%+v), want 23505 for key %d at line 25001", c2.name, err, pe, c2.dup)
		}
	}
	if _, got, err := c.Query(ctx, "SELECT count(*) FROM dl"); err != nil || got[0][0] != "1" {
		t.Errorf("%v rows, %v; want the one inserted", got, err)
	}
}
