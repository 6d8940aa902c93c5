package auth

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// pgPencil is PostgreSQL 15's verifier of the password "pencil".
const pgPencil = "SCRAM-SHA-256$4096:78aqRHmP0VXnqjpLMrXnjg==$" +
	"pru7cxKuc/FazoXK/+Rs+LPFl+1/h60pKj0DtEYr0Vw=:GcjUYYDfVlhT5Ax4GPYCbt5lZ/wXTE2eB/zxMsNJc4s="

// client is a SCRAM-SHA-256 client per RFC 5802, written from the RFC
// rather than from the server code.
type client struct {
	password, cnonce, gs2 string
	clientFirstBare       string
	authMessage           string
	salted                []byte
}

func (c *client) first() string {
	c.clientFirstBare = "n=,r=" + c.cnonce
	return c.gs2 + c.clientFirstBare
}

func (c *client) final(serverFirst string) string {
	var nonce, salt string
	iter := 0
	for _, a := range strings.Split(serverFirst, ",") {
		switch {
		case strings.HasPrefix(a, "r="):
			nonce = a[2:]
		case strings.HasPrefix(a, "s="):
			salt = a[2:]
		case strings.HasPrefix(a, "i="):
			for _, d := range a[2:] {
				iter = iter*10 + int(d-'0')
			}
		}
	}
	s, _ := base64.StdEncoding.DecodeString(salt)
	c.salted, _ = pbkdf2.Key(sha256.New, c.password, s, iter, 32)
	withoutProof := "c=" + base64.StdEncoding.EncodeToString([]byte(c.gs2)) + ",r=" + nonce
	c.authMessage = c.clientFirstBare + "," + serverFirst + "," + withoutProof
	clientKey := mac(c.salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	sig := mac(stored[:], c.authMessage)
	proof := make([]byte, len(clientKey))
	for i := range proof {
		proof[i] = clientKey[i] ^ sig[i]
	}
	return withoutProof + ",p=" + base64.StdEncoding.EncodeToString(proof)
}

func (c *client) serverSignature() string {
	return "v=" + base64.StdEncoding.EncodeToString(mac(mac(c.salted, "Server Key"), c.authMessage))
}

func mac(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// run performs a whole exchange of password against v.
func run(t *testing.T, v Verifier, password, gs2 string) error {
	t.Helper()
	c := &client{password: password, cnonce: "rOprNGfwEbeRWgbNEkqO", gs2: gs2}
	x := NewExchange(v)
	sf, err := x.First([]byte(c.first()))
	if err != nil {
		return err
	}
	if !strings.HasPrefix(string(sf), "r="+c.cnonce) {
		t.Fatalf("server-first %q does not extend the client nonce", sf)
	}
	final, err := x.Final([]byte(c.final(string(sf))))
	if err != nil {
		return err
	}
	if string(final) != c.serverSignature() {
		t.Fatalf("server-final %q, want %q", final, c.serverSignature())
	}
	return nil
}

func TestExchange(t *testing.T) {
	v := NewVerifier("correct horse")
	if err := run(t, v, "correct horse", "n,,"); err != nil {
		t.Fatalf("right password: %v", err)
	}
	if err := run(t, v, "correct horse", "y,,"); err != nil {
		t.Fatalf("right password, y flag: %v", err)
	}
	if err := run(t, v, "wrong horse", "n,,"); !errors.Is(err, ErrAuthFailed) {
		t.Fatalf("wrong password: %v, want ErrAuthFailed", err)
	}
	if err := run(t, MockVerifier("ghost", []byte("secret")), "", "n,,"); !errors.Is(err, ErrAuthFailed) {
		t.Fatalf("mock verifier: %v, want ErrAuthFailed", err)
	}
	pg, ok := ParseVerifier(pgPencil)
	if !ok {
		t.Fatal("PostgreSQL's verifier does not parse")
	}
	if err := run(t, pg, "pencil", "n,,"); err != nil {
		t.Fatalf("PostgreSQL's verifier: %v", err)
	}
	if pg.String() != pgPencil {
		t.Fatalf("round trip: %s", pg.String())
	}
}

func TestVerifierFormat(t *testing.T) {
	v := NewVerifier("pw")
	s := v.String()
	if !strings.HasPrefix(s, "SCRAM-SHA-256$4096:") || strings.Contains(s, "pw$") {
		t.Fatalf("verifier %q", s)
	}
	if w, ok := ParseVerifier(s); !ok || w.String() != s {
		t.Fatalf("round trip of %q: %v %v", s, w, ok)
	}
	if NewVerifier("pw").String() == s {
		t.Fatal("two verifiers of one password share a salt")
	}
	for _, bad := range []string{"pw", "SCRAM-SHA-256$4096:c2FsdA==$abc=:def=", "SCRAM-SHA-256$x:c2FsdA==$" + strings.Repeat("A", 44) + ":" + strings.Repeat("A", 44), "md5abc"} {
		if _, ok := ParseVerifier(bad); ok {
			t.Errorf("%q parsed as a verifier", bad)
		}
	}
}

func TestExchangeMalformed(t *testing.T) {
	v := NewVerifier("pw")
	for _, first := range []string{"", "x,,n=,r=abc", "p=tls-server-end-point,,n=,r=abc", "n,,r=abc", "n,,n=,r="} {
		if _, err := NewExchange(v).First([]byte(first)); err == nil {
			t.Errorf("client-first %q accepted", first)
		}
	}
	x := NewExchange(v)
	sf, err := x.First([]byte("n,,n=,r=abc"))
	if err != nil {
		t.Fatal(err)
	}
	nonce := strings.SplitN(string(sf), ",", 2)[0][2:]
	proof := base64.StdEncoding.EncodeToString(make([]byte, 32))
	for _, final := range []string{
		"c=biws,r=" + nonce,                  // no proof
		"c=eSws,r=" + nonce + ",p=" + proof,  // channel binding differs from client-first
		"c=biws,r=" + nonce + "x,p=" + proof, // nonce differs
		"c=biws,r=" + nonce + ",p=" + "AAAA", // short proof
	} {
		_, err := x.Final([]byte(final))
		if pgerror.CodeOf(err) != pgerror.CodeProtocolViolation {
			t.Errorf("client-final %q: %v, want 08P01", final, err)
		}
	}
}
