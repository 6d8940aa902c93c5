package pgwire_test

import (
	"bufio"
	"encoding/binary"
	"fmt"

	"io"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// The wire request benchmarks run the whole server, exec over an
// in-memory store, behind a loopback socket, and drive it as pgbench -M
// prepared does: after one Parse of a named statement, each request is
// Bind, Describe (portal), Execute and Sync in one write, answered up to
// ReadyForQuery. The client sends pre-encoded requests and only frames the
// reply, so allocations per op are (almost all) the server's. They measure
// the protocol path above the store: message decoding, portal and
// statement handling, binding, row encoding and the reply's write.

type wireBench struct {
	nc net.Conn
	rd *bufio.Reader
}

func startWireBench(b *testing.B, setup ...string) *wireBench {
	b.Helper()
	return startWireBenchAt(b, serveExec(b), setup...)
}

// startWireBenchAt is startWireBench with the server at addr.
func startWireBenchAt(b *testing.B, addr string, setup ...string) *wireBench {
	b.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { nc.Close() }) // before the server's shutdown (cleanups run last first)
	w := &wireBench{nc: nc, rd: bufio.NewReaderSize(nc, 64<<10)}
	start, _ := (&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "bench", "database": "bench"}}).Encode(nil)
	w.roundTrip(b, start)
	for _, q := range setup {
		msg, _ := (&pgproto3.Query{String: q}).Encode(nil)
		w.roundTrip(b, msg)
	}
	return w
}

// roundTrip writes req and reads the reply up to ReadyForQuery, returning
// the number of DataRows. An ErrorResponse fails the benchmark.
func (w *wireBench) roundTrip(b *testing.B, req []byte) int {
	if _, err := w.nc.Write(req); err != nil {
		b.Fatal(err)
	}
	var hdr [5]byte
	rows := 0
	for {
		if _, err := io.ReadFull(w.rd, hdr[:]); err != nil {
			b.Fatal(err)
		}
		n := int(binary.BigEndian.Uint32(hdr[1:])) - 4
		switch hdr[0] {
		case 'E':
			body := make([]byte, n)
			io.ReadFull(w.rd, body)
			b.Fatalf("error response: %q", body)
		case 'D':
			rows++
		}
		if _, err := w.rd.Discard(n); err != nil {
			b.Fatal(err)
		}
		if hdr[0] == 'Z' {
			return rows
		}
	}
}

func encodeAll(msgs ...pgproto3.FrontendMessage) []byte {
	var buf []byte
	for _, m := range msgs {
		var err error
		if buf, err = m.Encode(buf); err != nil {
			panic(err)
		}
	}
	return buf
}

// kvTable is the harness's table shape, 10,000 rows.
var kvTable = []string{
	"CREATE TABLE kv (tenant INT, id BIGINT, grp INT, val INT, payload TEXT, PRIMARY KEY (tenant, id))",
	"INSERT INTO kv SELECT g / 100 + 1, g % 100 + 1, g % 10, g, md5(g::text) || md5((g+1)::text) FROM generate_series(0, 9999) g",
}

// ycsbTable is YCSB's usertable, 2,000 rows of ten 100-byte fields.
var ycsbTable = []string{
	"CREATE TABLE usertable (YCSB_KEY VARCHAR(64) PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT, FIELD2 TEXT, FIELD3 TEXT, " +
		"FIELD4 TEXT, FIELD5 TEXT, FIELD6 TEXT, FIELD7 TEXT, FIELD8 TEXT, FIELD9 TEXT)",
	"INSERT INTO usertable SELECT 'user' || lpad(g::text, 8, '0'), f, f, f, f, f, f, f, f, f, f " +
		"FROM (SELECT g, repeat(md5(g::text), 4) || 'abcd' AS f FROM generate_series(0, 1999) g) s",
}

// benchWire prepares sql as statement "s" over the kv table and runs
// requests Bind(params(i)), Describe portal, Execute, Sync, as pgbench -M
// prepared does. resultFormats are the Bind's.
func benchWire(b *testing.B, sql string, resultFormats []int16, params func(i int) [][]byte) {
	benchWireOn(b, kvTable, sql, true, resultFormats, params)
}

// benchWireOn is benchWire over the table setup creates; without describe
// the requests are Bind, Execute, Sync, as lib/pq sends them for a
// prepared statement.
func benchWireOn(b *testing.B, setup []string, sql string, describe bool, resultFormats []int16, params func(i int) [][]byte) {
	startWireBench(b, setup...).benchPrepared(b, sql, describe, resultFormats, params)
}

// benchPrepared is benchWireOn's part once the connection is set up.
func (w *wireBench) benchPrepared(b *testing.B, sql string, describe bool, resultFormats []int16, params func(i int) [][]byte) {
	w.roundTrip(b, encodeAll(&pgproto3.Parse{Name: "s", Query: sql}, &pgproto3.Sync{}))
	// Pre-encoded requests, so that the client allocates nothing per op.
	reqs := make([][]byte, 997)
	for i := range reqs {
		msgs := []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s", Parameters: params(i), ResultFormatCodes: resultFormats}}
		if describe {
			msgs = append(msgs, &pgproto3.Describe{ObjectType: 'P'})
		}
		reqs[i] = encodeAll(append(msgs, &pgproto3.Execute{}, &pgproto3.Sync{})...)
	}
	rows := 0
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		rows += w.roundTrip(b, reqs[i%len(reqs)])
	}
	b.StopTimer()
	// CPU time (server and client, user and system) per op is steadier
	// than ns/op on a machine shared with other work.
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	if rows == 0 {
		b.Fatal("no rows")
	}
	b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
}

// processCPU is the process's user and system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func args(vals ...int) [][]byte {
	out := make([][]byte, len(vals))
	for i, v := range vals {
		out[i] = []byte(strconv.Itoa(v))
	}
	return out
}

func BenchmarkWirePointGetPrepared(b *testing.B) {
	benchWire(b, "SELECT grp, val, payload FROM kv WHERE tenant = $1 AND id = $2", nil, func(i int) [][]byte {
		return args(i%100+1, i%97+1)
	})
}

func BenchmarkWireMultiGetPrepared(b *testing.B) {
	primes := []int{97, 89, 83, 79, 73, 71, 67, 61, 59, 53}
	benchWire(b, "SELECT tenant, id, grp, val, payload FROM kv WHERE tenant = $1 AND id IN ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
		nil, func(i int) [][]byte {
			vals := []int{i%100 + 1}
			for _, p := range primes {
				vals = append(vals, i%p+1)
			}
			return args(vals...)
		})
}

func BenchmarkWireRangePrepared(b *testing.B) {
	benchWire(b, "SELECT id, grp, val, payload FROM kv WHERE tenant = $1 AND id BETWEEN $2 AND $3 ORDER BY id", nil,
		func(i int) [][]byte { return args(i%100+1, 1, 100) })
}

// BenchmarkWireRangePreparedBinary is the range with binary results, as
// pgx asks for them.
func BenchmarkWireRangePreparedBinary(b *testing.B) {
	benchWire(b, "SELECT id, grp, val, payload FROM kv WHERE tenant = $1 AND id BETWEEN $2 AND $3 ORDER BY id", []int16{1},
		func(i int) [][]byte { return args(i%100+1, 1, 100) })
}

// BenchmarkWireYCSBRead is YCSB's read through lib/pq: SELECT * of one
// row of ten 100-byte TEXT fields.
func BenchmarkWireYCSBRead(b *testing.B) {
	benchWireOn(b, ycsbTable, "SELECT * FROM usertable WHERE YCSB_KEY = $1", false, nil, func(i int) [][]byte {
		return [][]byte{[]byte(fmt.Sprintf("user%08d", i*7%2000))}
	})
}

// BenchmarkWireYCSBScan is YCSB's scan of 100 rows through lib/pq.
func BenchmarkWireYCSBScan(b *testing.B) {
	benchWireOn(b, ycsbTable, "SELECT * FROM usertable WHERE YCSB_KEY >= $1 LIMIT $2", false, nil, func(i int) [][]byte {
		return [][]byte{[]byte(fmt.Sprintf("user%08d", i*7%1900)), []byte("100")}
	})
}
