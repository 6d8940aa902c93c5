package main

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
)

// servePprof serves Go's profiles (/debug/pprof/...) on addr, for
// `go tool pprof http://ADDR/debug/pprof/profile?seconds=30`. It is meant
// for loopback: the profiles show query text and data.
func servePprof(addr string, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// The mutex and block profiles record nothing unless asked to; with
	// profiling on, sample them lightly so /debug/pprof/mutex and
	// /debug/pprof/block can show contention and waits on a loaded server.
	runtime.SetMutexProfileFraction(100)
	runtime.SetBlockProfileRate(100_000) // about one event per 100µs blocked
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	log.Info("pprof listening", "addr", ln.Addr().String())
	go func() {
		if err := http.Serve(ln, mux); err != nil {
			log.Warn("pprof server stopped", "err", err)
		}
	}()
	return nil
}
