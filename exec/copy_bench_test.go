package exec_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/pgwire"
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
	dir := b.TempDir()
	store, err := lsm.Open(dir, lsm.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	eng, err := exec.Open(ctx, store, nil)
	if err != nil {
		b.Fatal(err)
	}
	sess, err := eng.NewSession(ctx, map[string]string{"user": "bench", "database": "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	c := &sessionClient{s: sess}
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
		if n, err := copyIn(ctx, sess, fmt.Sprintf("COPY kv%d (tenant, id, grp, val, payload) FROM STDIN (FORMAT binary)", it), data); err != nil || n != benchCopyRows {
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
		dst = fmt.Appendf(dst, "%016x%016x%016x%016x", h, h*3, h*5, h*7)
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
