// Package auth holds SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL uses
// it: the stored verifier format, shared by the engine that stores role
// passwords and the wire server that checks them, and the server side of
// one authentication exchange. It is a leaf package: it imports nothing of
// widesql but pgerror.
//
// A verifier is PostgreSQL's text form
//
//	SCRAM-SHA-256$<iterations>:<base64 salt>$<base64 StoredKey>:<base64 ServerKey>
//
// where SaltedPassword = PBKDF2-HMAC-SHA-256(password, salt, iterations),
// ClientKey = HMAC(SaltedPassword, "Client Key"), StoredKey = SHA-256(ClientKey)
// and ServerKey = HMAC(SaltedPassword, "Server Key"). Neither key lets anyone
// log in without the password; the password itself is never stored.
package auth

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// Mechanism is the SASL mechanism name widesql offers. SCRAM-SHA-256-PLUS
// (channel binding) is not offered.
const Mechanism = "SCRAM-SHA-256"

// DefaultIterations is PostgreSQL's scram_iterations default.
const DefaultIterations = 4096

const (
	saltLen = 16 // PostgreSQL's SCRAM_DEFAULT_SALT_LEN
	keyLen  = sha256.Size
)

// Verifier is a parsed SCRAM-SHA-256 verifier.
type Verifier struct {
	Iterations int
	Salt       []byte
	StoredKey  []byte
	ServerKey  []byte
}

// NewVerifier derives a verifier for password with a fresh random salt and
// DefaultIterations.
func NewVerifier(password string) Verifier {
	salt := make([]byte, saltLen)
	rand.Read(salt)
	return deriveVerifier(password, salt, DefaultIterations)
}

func deriveVerifier(password string, salt []byte, iterations int) Verifier {
	salted, err := pbkdf2.Key(sha256.New, password, salt, iterations, keyLen)
	if err != nil {
		panic(fmt.Sprintf("auth: pbkdf2: %v", err)) // only for invalid parameters, which are constants here
	}
	clientKey := hmacSHA256(salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	return Verifier{Iterations: iterations, Salt: salt, StoredKey: stored[:], ServerKey: hmacSHA256(salted, "Server Key")}
}

// String returns the verifier in PostgreSQL's text form.
func (v Verifier) String() string {
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("%s$%d:%s$%s:%s", Mechanism, v.Iterations, b64(v.Salt), b64(v.StoredKey), b64(v.ServerKey))
}

// ParseVerifier parses PostgreSQL's text form of a verifier. ok is false
// when s is not a well-formed SCRAM-SHA-256 verifier (CREATE ROLE then
// treats the text as a plain password, as PostgreSQL does).
func ParseVerifier(s string) (v Verifier, ok bool) {
	rest, found := strings.CutPrefix(s, Mechanism+"$")
	if !found {
		return Verifier{}, false
	}
	iterSalt, keys, found := strings.Cut(rest, "$")
	if !found {
		return Verifier{}, false
	}
	iter, salt, found1 := strings.Cut(iterSalt, ":")
	stored, server, found2 := strings.Cut(keys, ":")
	if !found1 || !found2 {
		return Verifier{}, false
	}
	n, err := strconv.Atoi(iter)
	if err != nil || n <= 0 {
		return Verifier{}, false
	}
	dec := base64.StdEncoding.DecodeString
	v.Iterations = n
	var e1, e2, e3 error
	v.Salt, e1 = dec(salt)
	v.StoredKey, e2 = dec(stored)
	v.ServerKey, e3 = dec(server)
	if e1 != nil || e2 != nil || e3 != nil || len(v.Salt) == 0 || len(v.StoredKey) != keyLen || len(v.ServerKey) != keyLen {
		return Verifier{}, false
	}
	return v, true
}

// MockVerifier returns a verifier for a role that cannot log in (unknown,
// NOLOGIN, without a password): the exchange runs as for a real role, with
// a salt derived from the user name and secret, so that a client cannot
// tell a missing role from a wrong password. No password matches it.
func MockVerifier(user string, secret []byte) Verifier {
	salt := hmacSHA256(secret, "salt:"+user)[:saltLen]
	key := hmacSHA256(secret, "key:"+user)
	return Verifier{Iterations: DefaultIterations, Salt: salt, StoredKey: key, ServerKey: key}
}

func hmacSHA256(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}
