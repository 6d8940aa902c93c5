package tests

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// writeSelfSignedCert writes a fresh self-signed certificate for
// 127.0.0.1 and its key as PEM files in dir.
func writeSelfSignedCert(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "widesql test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// TestTLS: with --tls-cert/--tls-key, pgx and psql connect with
// sslmode=require over TLS (SCRAM on top); without --tls-required plain
// connections still work, with it they are refused.
func TestTLS(t *testing.T) {
	certFile, keyFile := writeSelfSignedCert(t, t.TempDir())
	s := startAuthServer(t, t.TempDir(), "--store", "memory", "--tls-cert", certFile, "--tls-key", keyFile)

	c := mustPgx(t, authURL(s, "widesql", bootPassword, "sslmode", "require"))
	if _, ok := c.PgConn().Conn().(*tls.Conn); !ok {
		t.Fatalf("sslmode=require connection is a %T, not TLS", c.PgConn().Conn())
	}
	if queryInt(t, c, "SELECT 11") != 11 {
		t.Fatal("query over TLS")
	}
	_, err := authConnect(t, authURL(s, "widesql", "wrong", "sslmode", "require"))
	wantAuthFailed(t, err, "widesql")
	plain := mustPgx(t, authURL(s, "widesql", bootPassword, "sslmode", "disable"))
	if _, ok := plain.PgConn().Conn().(*tls.Conn); ok {
		t.Fatal("sslmode=disable connection uses TLS")
	}

	host, port, _ := net.SplitHostPort(s.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, psqlPath(t), "-h", host, "-p", port, "-U", "widesql", "-d", "db", "-X", "-w",
		"-c", `\conninfo`, "-c", "SELECT 'tls-ok'")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PGPASSWORD="+bootPassword, "PGSSLMODE=require", "PGCONNECT_TIMEOUT=10")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "SSL connection") || !strings.Contains(string(out), "tls-ok") {
		t.Fatalf("psql sslmode=require: %v\n%s", err, out)
	}
}

// TestTLSRequired: --tls-required refuses a client that does not ask for
// TLS with FATAL 28000.
func TestTLSRequired(t *testing.T) {
	if serverBin == "" {
		t.Skip("needs a widesql server")
	}
	certFile, keyFile := writeSelfSignedCert(t, t.TempDir())
	s := launchServer(t, "--data", t.TempDir(), "--store", "memory", "--tls-cert", certFile, "--tls-key", keyFile, "--tls-required")
	t.Cleanup(func() { s.stop(t) })
	s.awaitListening(t)
	mustPgx(t, authURL(s, "anyone", "", "sslmode", "require"))
	_, err := authConnect(t, authURL(s, "anyone", "", "sslmode", "disable"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28000" {
		t.Fatalf("plain connection to --tls-required: %v, want 28000", err)
	}
}

// TestNoTLS: without a certificate, SSLRequest is answered 'N':
// sslmode=require fails on the client side, sslmode=prefer falls back.
func TestNoTLS(t *testing.T) {
	s := startServer(t)
	if _, err := authConnect(t, authURL(s, "anyone", "", "sslmode", "require")); err == nil {
		t.Fatal("sslmode=require succeeded on a server without TLS")
	}
	c := mustPgx(t, authURL(s, "anyone", "", "sslmode", "prefer"))
	if queryInt(t, c, "SELECT 1") != 1 {
		t.Fatal("sslmode=prefer")
	}
}
