package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/pgwire"
)

// serverFlags are the flags of the wire server: authentication, TLS and
// connection limits (helper "auth").
type serverFlags struct {
	auth                string
	bootstrapUser       string
	bootstrapPassword   string
	tlsCert, tlsKey     string
	tlsRequired         bool
	allowInsecureRemote bool
	maxConnections      int
	maxMessageSize      int
	busyPoll            time.Duration
}

func (f *serverFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.auth, "auth", "trust", "client authentication: trust (anyone, as any user) or scram (SCRAM-SHA-256 passwords of stored roles)")
	fs.StringVar(&f.bootstrapUser, "bootstrap-user", "widesql", "with --auth scram: the superuser created at the first start, when no role is stored")
	fs.StringVar(&f.bootstrapPassword, "bootstrap-password", "", "the bootstrap superuser's password (prefer $WIDESQL_PASSWORD: flags show in ps)")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "PEM certificate file: enables TLS (sslmode=require); needs --tls-key")
	fs.StringVar(&f.tlsKey, "tls-key", "", "PEM private key file of --tls-cert")
	fs.BoolVar(&f.tlsRequired, "tls-required", false, "refuse clients that do not use TLS (needs --tls-cert)")
	fs.BoolVar(&f.allowInsecureRemote, "allow-insecure-remote", false, "allow --auth trust on a non-loopback --addr (anyone who can reach it gets in as any user)")
	fs.IntVar(&f.maxConnections, "max-connections", pgwire.DefaultMaxConnections, "client connections served at once; one more gets \"sorry, too many clients already\" (0: no limit)")
	fs.DurationVar(&f.busyPoll, "busy-poll", pgwire.DefaultBusyPoll, "longest a connection polls its socket for the client's next message before sleeping, only while every other connection waits too; the time polled adapts to the clients (a pause costs at most one poll), and it saves a sleeping CPU's wake-up per round trip (0: never poll; at most 1ms; Linux, with at least 2 processors)")
	fs.IntVar(&f.maxMessageSize, "max-message-size", pgwire.DefaultMaxMessageSize, "bytes one client message may hold (a query, its parameters, a COPY chunk); a larger one ends its connection (at most 1 GiB)")
}

// check validates the flags before anything is opened.
func (f *serverFlags) check(addr string) error {
	switch f.auth {
	case "trust":
		if !f.allowInsecureRemote && !loopback(addr) {
			return fmt.Errorf("refusing to listen on %s with --auth trust: anyone who can reach it could connect as any user; "+
				"use --auth scram, listen on 127.0.0.1, or pass --allow-insecure-remote", addr)
		}
	case "scram":
	default:
		return fmt.Errorf("unknown --auth %q (trust or scram)", f.auth)
	}
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return errors.New("--tls-cert and --tls-key go together")
	}
	if f.tlsRequired && f.tlsCert == "" {
		return errors.New("--tls-required needs --tls-cert and --tls-key")
	}
	return nil
}

// loopback reports whether addr (host:port) listens on loopback only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false // ":5433" listens on every interface
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// options turns the flags into server options, creating the bootstrap
// superuser under --auth scram when no role is stored yet.
func (f *serverFlags) options(ctx context.Context, eng *exec.Engine, log *slog.Logger) ([]pgwire.Option, error) {
	opts := []pgwire.Option{pgwire.WithMaxConnections(f.maxConnections), pgwire.WithMaxMessageSize(f.maxMessageSize),
		pgwire.WithBusyPoll(f.busyPoll)}
	if f.auth == "scram" {
		pw := os.Getenv("WIDESQL_PASSWORD")
		if f.bootstrapPassword != "" {
			pw = f.bootstrapPassword
		}
		has, err := eng.HasRoles(ctx)
		if err != nil {
			return nil, err
		}
		switch {
		case !has && pw == "":
			return nil, fmt.Errorf("--auth scram: no role is stored yet, so nobody could log in; set $WIDESQL_PASSWORD "+
				"(or --bootstrap-password) to create the superuser %q", f.bootstrapUser)
		case !has:
			if _, err := eng.BootstrapRole(ctx, f.bootstrapUser, pw); err != nil {
				return nil, fmt.Errorf("creating the bootstrap superuser: %w", err)
			}
			log.Info("created the bootstrap superuser", "user", f.bootstrapUser)
		case pw != "":
			log.Info("roles are stored already: the bootstrap password is ignored (use ALTER ROLE)")
		}
		opts = append(opts, pgwire.WithSCRAM(eng))
	}
	if f.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey)
		if err != nil {
			return nil, fmt.Errorf("TLS certificate: %w", err)
		}
		opts = append(opts, pgwire.WithTLS(&tls.Config{Certificates: []tls.Certificate{cert}}, f.tlsRequired))
	}
	return opts, nil
}
