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
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire"
)

const usage = `widesql: SQL over the PostgreSQL wire protocol on a wide-column store.

Usage:
  widesql [flags]                 serve
  widesql import --table T FILE   load a CSV file into a table of a running server
  widesql export --table T [FILE] write a table (or --query) out as CSV

Run widesql import -h or widesql export -h for their flags.

Connect with any PostgreSQL client, for example:
  psql -h 127.0.0.1 -p 5433 -U anyone -d anything

Authentication:
  --auth trust (the default) lets every client in as the user it names;
  widesql then refuses to listen on a non-loopback address unless
  --allow-insecure-remote is given. --auth scram requires a password
  (SCRAM-SHA-256) of a role created with CREATE ROLE ... LOGIN PASSWORD.
  The first start with --auth scram and no stored roles needs the first
  superuser: --bootstrap-user (default "widesql") with the password from
  $WIDESQL_PASSWORD or --bootstrap-password; later starts ignore both.

TLS:
  --tls-cert and --tls-key (PEM files) make the server accept TLS
  (sslmode=require); --tls-required refuses clients that do not use it.

Flags:
`

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "import" || os.Args[1] == "export") {
		os.Exit(copyCommand(os.Args[1], os.Args[2:])) // copy.go
	}
	fs := flag.NewFlagSet("widesql", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:5433", "address to listen on (host:port; port 0 picks a free one)")
	data := fs.String("data", "./widesql-data", "directory for the server's data")
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	storeKind := fs.String("store", "disk", "storage engine: disk (durable, under --data) or memory (nothing survives a restart)")
	memtable := fs.Int64("memtable-size", 64<<20, "bytes a region's memtable holds before it is flushed to a sorted file")
	budget := fs.Int64("memory-budget", 256<<20, "bytes all memtables may hold together; writers wait above it")
	share, shareHow := defaultCacheShare() // mem.go
	defRow := rowCacheFor(share)
	defCache := blockCacheFor(share, defRow)
	cache := fs.Int64("block-cache-size", 0, fmt.Sprintf("bytes of decompressed file blocks kept in memory (default: %s; here %s = %d, less the row cache: %d)", cacheDefaultIs, shareHow, share, defCache))
	rowCache := fs.Int64("row-cache-size", 0, fmt.Sprintf("bytes of recently read rows kept in memory to answer repeated point reads (WHERE key = ..., key IN (...)) of unchanged rows; 0 disables it (default: %s; here %d)", rowCacheDefaultIs, defRow))
	memLimit := fs.Int64("memory-limit", 0, "soft limit in bytes for the whole process's Go heap, which makes the GC work harder near it (default: memory-budget + block-cache-size + row-cache-size + 256 MiB; $GOMEMLIMIT wins if set)")
	gcPercent := fs.Int("gc-percent", defaultGCPercent, "heap growth in percent of the live heap before the Go GC runs (GOGC), up to --memory-limit; -1 leaves collection to the memory limit alone ($GOGC wins if set)")
	prefetch := fs.Bool("prefetch-blocks", true, "once no file has been written for a moment, fill the block cache's free room with the files' blocks in the background, never evicting, so that reads of data that fits the cache never wait for a file (false: blocks are cached as reads miss them)")
	noSync := fs.Bool("no-sync", false, "acknowledge writes before they are fsynced (faster; a crash may lose the last acknowledged writes, never half a statement)")
	procs := fs.Int("procs", 0, fmt.Sprintf("Go processors (GOMAXPROCS) the server runs goroutines on (default: %s; here %d; $GOMAXPROCS wins if set)", procsDefaultIs, procsFor(runtime.GOMAXPROCS(0))))
	pprofAddr := fs.String("pprof", "", "serve Go profiles (/debug/pprof/) on this address, e.g. 127.0.0.1:6060 (off by default)")
	var srv serverFlags
	srv.register(fs)
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
	rowSet := false
	fs.Visit(func(f *flag.Flag) { rowSet = rowSet || f.Name == "row-cache-size" })
	if !rowSet {
		*rowCache = defRow
		log.Info("row cache", "bytes", *rowCache, "default", "a quarter of the caches' share: "+shareHow)
	}
	if *cache <= 0 {
		*cache = blockCacheFor(share, *rowCache)
		log.Info("block cache", "bytes", *cache, "default", "the caches' share less the row cache: "+shareHow)
	}
	if *rowCache <= 0 {
		*rowCache = -1 // lsm.Options: negative disables, 0 means the default
	}
	setMemoryLimit(*memLimit, *budget+*cache+max(*rowCache, 0)+256<<20)
	setGCPercent(*gcPercent)
	if *procs < 0 {
		fmt.Fprintf(os.Stderr, "widesql: bad --procs %d (0: the default)\n", *procs)
		os.Exit(2)
	}
	n, how := setProcs(*procs) // procs.go
	log.Info("go processors", "GOMAXPROCS", n, "from", how)
	cfg := config{addr: *addr, data: *data, store: *storeKind, server: srv, opts: lsm.Options{
		MemtableSize: *memtable, MemoryBudget: *budget, BlockCacheSize: *cache, RowCacheSize: *rowCache, PrefetchBlocks: *prefetch, NoSync: *noSync, Logger: log}}
	if err := cfg.server.check(cfg.addr); err != nil {
		fmt.Fprintf(os.Stderr, "widesql: %v\n", err)
		os.Exit(2)
	}
	if *pprofAddr != "" {
		if err := servePprof(*pprofAddr, log); err != nil { // pprof.go
			fmt.Fprintf(os.Stderr, "widesql: --pprof: %v\n", err)
			os.Exit(2)
		}
	}
	if err := run(cfg, log); err != nil {
		log.Error("widesql stopped", "err", err)
		os.Exit(1)
	}
}

// setMemoryLimit gives the Go runtime a soft heap limit so that resident
// memory follows the configured memtable and cache sizes instead of
// growing to twice the live heap (GOGC's default). GOMEMLIMIT, when set,
// takes precedence.
func setMemoryLimit(limit, def int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if limit <= 0 {
		limit = def
	}
	debug.SetMemoryLimit(limit)
}

// defaultGCPercent lets the heap grow to five times the live heap between
// collections, where Go's default is twice: the memory limit above, not
// GOGC, is what bounds the server's memory. On a small live heap (a
// server with a cold cache, or little data) GOGC=100 collected every few
// hundred milliseconds under a point-query load, and each mark phase takes
// a P for itself, which on a 2-core machine showed in the p99 latency.
// With a large live heap the memory limit triggers collection first and
// this setting does not matter.
const defaultGCPercent = 400

// setGCPercent sets the GC's heap growth target unless GOGC is set.
func setGCPercent(pct int) {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(pct)
}

type config struct {
	addr, data, store string
	server            serverFlags // server_flags.go
	opts              lsm.Options
}

func run(cfg config, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	dir, err := filepath.Abs(cfg.data)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	var store kv.Store
	switch cfg.store {
	case "disk":
		s, err := lsm.Open(dir, cfg.opts)
		if err != nil {
			return err
		}
		store = s
	case "memory":
		log.Warn("storage is in memory: data does not survive a restart")
		store = memstore.New()
	default:
		return fmt.Errorf("unknown --store %q (disk or memory)", cfg.store)
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("closing the store", "err", err)
		}
	}()

	eng, err := exec.Open(ctx, store, log)
	if err != nil {
		return err
	}
	// Sorts, aggregations and joins over work_mem spill here.
	tmp := filepath.Join(dir, "tmp")
	if err := os.RemoveAll(tmp); err != nil { // leftovers of a crash
		return fmt.Errorf("temporary directory: %w", err)
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return fmt.Errorf("temporary directory: %w", err)
	}
	eng.SetTempDir(tmp)
	srvOpts, err := cfg.server.options(ctx, eng, log) // server_flags.go
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	srv := pgwire.NewServer(eng, append(srvOpts, pgwire.WithLogger(log))...)
	log.Info("listening", "addr", ln.Addr().String(), "data", dir, "store", cfg.store)

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
