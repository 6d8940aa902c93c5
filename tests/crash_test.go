package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestCrashSQL inserts rows into widesql over pgx, one statement at a time
// from a few connections, recording each acknowledged id; kills the server
// with SIGKILL mid-stream; restarts it on the same --data directory and
// requires every acknowledged row to be there (and nothing never attempted).
// Several rounds, then a clean shutdown.
func TestCrashSQL(t *testing.T) {
	if *pgURL != "" {
		t.Skip("kills the server: widesql only")
	}
	rounds, writers := 4, 3
	if testing.Short() {
		rounds = 2
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	dir := t.TempDir()
	ctx := context.Background()

	acked := map[int64]bool{}     // every INSERT that returned success
	attempted := map[int64]bool{} // every INSERT sent
	var nextID atomic.Int64
	for round := range rounds + 1 {
		s := startDiskServer(t, dir)
		conn := connectTo(t, s)
		if round == 0 {
			if _, err := conn.Exec(ctx, "CREATE TABLE crash (id INT PRIMARY KEY, v TEXT)"); err != nil {
				t.Fatal(err)
			}
		}
		checkCrashRows(t, conn, acked, attempted, round)
		conn.Close(ctx)
		if round == rounds {
			s.terminate(t) // the last restart ends cleanly
			break
		}

		var (
			mu sync.Mutex
			wg sync.WaitGroup
		)
		for range writers {
			c := connectTo(t, s)
			wg.Go(func() {
				defer c.Close(context.Background())
				for {
					id := nextID.Add(1)
					mu.Lock()
					attempted[id] = true
					mu.Unlock()
					if _, err := c.Exec(ctx, "INSERT INTO crash VALUES ($1, $2)", id, fmt.Sprintf("row %d", id)); err != nil {
						return // the server is gone
					}
					mu.Lock()
					acked[id] = true
					mu.Unlock()
				}
			})
		}
		time.Sleep(time.Duration(300+rng.IntN(700)) * time.Millisecond)
		s.kill(t)
		wg.Wait()
		t.Logf("round %d: killed the server; %d inserts acknowledged so far", round, len(acked))
	}
	if len(acked) == 0 {
		t.Fatal("no insert was ever acknowledged")
	}
}

// checkCrashRows requires every acknowledged id in table crash, with its
// value, and no id that was never sent.
func checkCrashRows(t *testing.T, conn *pgx.Conn, acked, attempted map[int64]bool, round int) {
	t.Helper()
	ctx := context.Background()
	var count int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM crash").Scan(&count); err != nil {
		t.Fatalf("round %d: count after restart: %v", round, err)
	}
	rows, err := conn.Query(ctx, "SELECT id, v FROM crash ORDER BY id")
	if err != nil {
		t.Fatalf("round %d: select after restart: %v", round, err)
	}
	present := map[int64]bool{}
	for rows.Next() {
		var id int64
		var v string
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		if v != fmt.Sprintf("row %d", id) || !attempted[id] || present[id] {
			t.Fatalf("round %d: unexpected row (%d, %q) after restart", round, id, v)
		}
		present[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("round %d: select after restart: %v", round, err)
	}
	if count != int64(len(present)) {
		t.Errorf("round %d: count(*) = %d but SELECT returned %d rows", round, count, len(present))
	}
	lost := 0
	for id := range acked {
		if !present[id] {
			lost++
			if lost <= 10 {
				t.Errorf("round %d: acknowledged row %d is lost", round, id)
			}
		}
	}
	if lost > 0 {
		t.Fatalf("round %d: %d of %d acknowledged rows lost", round, lost, len(acked))
	}
}

func connectTo(t *testing.T, s *server) *pgx.Conn {
	t.Helper()
	host, port, err := net.SplitHostPort(s.addr)
	if err != nil {
		t.Fatal(err)
	}
	tg := target{host: host, port: port, user: "anyone", database: "anything"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, tg.url())
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return conn
}

// startDiskServer starts widesql on the disk engine with data in dir (kept
// across restarts). Unlike startServer it does not require a clean exit: the
// test kills it. A cleanup kills it if the test left it running.
func startDiskServer(t *testing.T, dir string) *server {
	t.Helper()
	s := launchServer(t, "--data", dir, "--store=disk")
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			s.cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("widesql output:\n%s", s.log.String())
		}
	})
	s.awaitListening(t)
	return s
}

// terminate sends SIGTERM and requires a clean exit within shutdownTimeout.
func (s *server) terminate(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	select {
	case <-s.done:
		if s.err != nil {
			t.Errorf("widesql did not exit cleanly on SIGTERM: %v", s.err)
		}
	case <-time.After(shutdownTimeout):
		t.Errorf("widesql did not exit within %v of SIGTERM", shutdownTimeout)
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *server) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	<-s.done
}
