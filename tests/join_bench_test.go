package tests

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BenchmarkJoin10Tables times the ten-table comma joins of
// testdata/sql/joins.sql (chain, star on keys, star on a non-key column)
// over pgx against a fresh widesql server, or against PostgreSQL with
// WIDESQL_TEST_PG set, on the file's 12-row tables and on 1,000-row ones.
// Every run's row count is checked against a Go model of the join first.
//
//	go test ./tests/ -run '^$' -bench Join10Tables
func BenchmarkJoin10Tables(b *testing.B) {
	for _, n := range []int{12, 1000} {
		conn := benchConn(b)
		tables := join10Tables(n)
		for k, rows := range tables {
			benchExec(b, conn, fmt.Sprintf("CREATE TABLE j%d (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))", k))
			for i := 0; i < len(rows); i += 500 {
				var vals []string
				for _, r := range rows[i:min(i+500, len(rows))] {
					vals = append(vals, fmt.Sprintf("(%d, %d, '%s')", r.id, r.nxt, r.tag))
				}
				benchExec(b, conn, fmt.Sprintf("INSERT INTO j%d VALUES %s", k, strings.Join(vals, ", ")))
			}
		}
		for _, q := range join10Queries(tables) {
			b.Run(fmt.Sprintf("%s/rows=%d", q.name, n), func(b *testing.B) {
				ctx := context.Background()
				if got := benchCountRows(b, conn, q.sql); got != q.want {
					b.Fatalf("%s returned %d rows, the model says %d", q.name, got, q.want)
				}
				b.ResetTimer()
				for b.Loop() {
					rows, err := conn.Query(ctx, q.sql)
					if err != nil {
						b.Fatal(err)
					}
					for rows.Next() {
					}
					if rows.Close(); rows.Err() != nil {
						b.Fatal(rows.Err())
					}
				}
			})
		}
	}
}

type join10Row struct {
	id, nxt int
	tag     string
}

// join10Tables builds the data of joins.sql's ten-table section with ids
// 1..n: table jK holds every id but those with (id + K) % 11 = 0, nxt =
// (id * (2K + 1) + K) % n + 1, and tag = the K-th letter and the id.
func join10Tables(n int) [10][]join10Row {
	var t [10][]join10Row
	for k := range t {
		for id := 1; id <= n; id++ {
			if (id+k)%11 != 0 {
				t[k] = append(t[k], join10Row{id, (id*(2*k+1)+k)%n + 1, fmt.Sprintf("%c%d", 'a'+k, id)})
			}
		}
	}
	return t
}

type join10Query struct {
	name, sql string
	want      int // result rows, from a nested-loop model over the Go data
}

// join10Queries returns the three queries of joins.sql with their row
// counts computed from t.
func join10Queries(t [10][]join10Row) []join10Query {
	from := "j0, j1, j2, j3, j4, j5, j6, j7, j8, j9"
	var chain, star, starNonKey []string
	for k := 1; k < 10; k++ {
		chain = append(chain, fmt.Sprintf("j%d.nxt = j%d.id", k-1, k))
		col := "id"
		if k%2 == 1 {
			col = "nxt"
		}
		star = append(star, fmt.Sprintf("j%d.id = j0.%s", k, col))
		starNonKey = append(starNonKey, fmt.Sprintf("j%d.nxt = j0.nxt", k))
	}

	byID := make([]map[int]join10Row, 10)
	nxtCount := make([]map[int]int, 10)
	for k := range t {
		byID[k], nxtCount[k] = map[int]join10Row{}, map[int]int{}
		for _, r := range t[k] {
			byID[k][r.id] = r
			nxtCount[k][r.nxt]++
		}
	}
	var nChain, nStar, nStarNonKey int
	for _, r := range t[0] {
		cur, ok := r.nxt, true
		for k := 1; k < 10 && ok; k++ {
			var next join10Row
			next, ok = byID[k][cur]
			cur = next.nxt
		}
		if ok {
			nChain++
		}
		ok = true
		for k := 1; k < 10; k++ {
			key := r.id
			if k%2 == 1 {
				key = r.nxt
			}
			if _, found := byID[k][key]; !found {
				ok = false
			}
		}
		if ok {
			nStar++
		}
		product := 1
		for k := 1; k < 10; k++ {
			product *= nxtCount[k][r.nxt]
		}
		nStarNonKey += product
	}
	return []join10Query{
		{"chain", "SELECT j0.id, j5.id, j9.id, j0.tag || j3.tag || j6.tag || j9.tag FROM " + from + " WHERE " + strings.Join(chain, " AND ") + " ORDER BY j0.id", nChain},
		{"star", "SELECT j0.id, j1.tag, j8.tag, j9.tag FROM " + from + " WHERE " + strings.Join(star, " AND ") + " ORDER BY j0.id", nStar},
		{"star-nonkey", "SELECT j0.id, j5.id FROM " + from + " WHERE " + strings.Join(starNonKey, " AND "), nStarNonKey},
	}
}

func benchExec(b *testing.B, conn *pgx.Conn, sql string) {
	b.Helper()
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
	}
}

func benchCountRows(b *testing.B, conn *pgx.Conn, sql string) int {
	b.Helper()
	rows, err := conn.Query(context.Background(), sql)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if rows.Close(); rows.Err() != nil {
		b.Fatal(rows.Err())
	}
	return n
}

// benchConn connects to an empty database: a new widesql server (started
// like startServer, which takes a *testing.T), or a new database on the
// PostgreSQL of -pg / WIDESQL_TEST_PG, dropped at the end.
func benchConn(b *testing.B) *pgx.Conn {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := ""
	if *pgURL == "" {
		url = "postgres://anyone@" + startBenchServer(b) + "/anything?sslmode=disable"
	} else {
		admin, err := pgx.Connect(ctx, *pgURL)
		if err != nil {
			b.Fatal(err)
		}
		defer admin.Close(ctx)
		var r [6]byte
		rand.Read(r[:])
		name := "widesql_bench_" + hex.EncodeToString(r[:])
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			admin, err := pgx.Connect(context.Background(), *pgURL)
			if err != nil {
				b.Errorf("dropping %s: %v", name, err)
				return
			}
			defer admin.Close(context.Background())
			if _, err := admin.Exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
				b.Errorf("dropping %s: %v", name, err)
			}
		})
		cfg := admin.Config()
		url = fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable", cfg.User, cfg.Host+":"+strconv.Itoa(int(cfg.Port)), name)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// startBenchServer starts serverBin on a random loopback port with a fresh
// data directory and returns its address; a cleanup stops it with SIGTERM.
func startBenchServer(b *testing.B) string {
	b.Helper()
	cmd := exec.Command(serverBin, "--addr", "127.0.0.1:0", "--data", b.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting widesql: %v", err)
	}
	addrc := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listeningRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addrc <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr) // a line over the scanner's limit: drain the rest
	}()
	b.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() {
			<-copied // Wait closes the pipe: read it to the end first
			done <- cmd.Wait()
		}()
		select {
		case err := <-done:
			if err != nil {
				b.Errorf("widesql did not exit cleanly: %v", err)
			}
		case <-time.After(shutdownTimeout):
			cmd.Process.Kill()
			<-done
			b.Errorf("widesql did not exit within %v of SIGTERM", shutdownTimeout)
		}
	})
	select {
	case addr := <-addrc:
		return addr
	case <-time.After(startTimeout):
		b.Fatalf("widesql printed no `msg=listening addr=` line within %v", startTimeout)
		return ""
	}
}
