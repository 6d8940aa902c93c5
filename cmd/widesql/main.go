// Command widesql serves SQL over the PostgreSQL wire protocol on a
// wide-column store. It wires flags to a store, the SQL engine and the
// pgwire server; it holds no logic of its own.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire"
)

const usage = `widesql: SQL over the PostgreSQL wire protocol on a wide-column store.

Usage:
  widesql [flags]

Connect with any PostgreSQL client, for example:
  psql -h 127.0.0.1 -p 5433 -U anyone -d anything

Flags:
`

func main() {
	fs := flag.NewFlagSet("widesql", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:5433", "address to listen on (host:port; port 0 picks a free one)")
	data := fs.String("data", "./widesql-data", "directory for the server's data")
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(os.Stderr, "widesql: bad --log-level %q\n", *level)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))
	if err := run(*addr, *data, log); err != nil {
		log.Error("widesql stopped", "err", err)
		os.Exit(1)
	}
}

func run(addr, dataDir string, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	dir, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	// The durable engine (WAL, sorted files) is the next step; until it
	// lands the store is in memory and nothing survives a restart.
	log.Warn("storage is in memory: data does not survive a restart", "data", dir)
	store := memstore.New()
	defer store.Close()

	eng, err := exec.Open(ctx, store, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := pgwire.NewServer(eng, pgwire.WithLogger(log))
	log.Info("listening", "addr", ln.Addr().String(), "data", dir)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ctx, ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}
