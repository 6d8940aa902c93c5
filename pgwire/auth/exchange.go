package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// ErrAuthFailed is returned by Exchange.Final when the proof does not match
// the verifier: a wrong password, or a mock verifier. The caller reports
// 28P01 naming the user; it never says which of the two it was.
var ErrAuthFailed = errors.New("auth: SCRAM proof does not match")

// Exchange is the server side of one SCRAM-SHA-256 authentication:
//
//	client-first  n,,n=,r=<cnonce>          -> First  -> r=<cnonce><snonce>,s=<salt>,i=<n>
//	client-final  c=biws,r=<nonce>,p=<proof> -> Final -> v=<server signature>
//
// The user name in client-first is ignored (libpq sends it empty); the
// caller chose the verifier by the startup packet's user. An Exchange is
// used by one goroutine.
type Exchange struct {
	v           Verifier
	gs2Header   string
	clientFirst string // client-first-message-bare
	serverFirst string
	nonce       string // the combined nonce
}

// NewExchange starts an exchange against v (a real or a mock verifier).
func NewExchange(v Verifier) *Exchange { return &Exchange{v: v} }

func malformed(detail string) error {
	return pgerror.New(pgerror.CodeProtocolViolation, "malformed SCRAM message").WithDetail("%s", detail)
}

// First handles the SASLInitialResponse data (client-first-message) and
// returns the server-first-message. Errors are 08P01.
func (e *Exchange) First(clientFirst []byte) ([]byte, error) {
	msg := string(clientFirst)
	// gs2-header: cbind-flag "," [authzid] ","
	var rest string
	switch {
	case strings.HasPrefix(msg, "n,"), strings.HasPrefix(msg, "y,"):
		// "y": the client supports channel binding but believes the
		// server does not, which is true: no -PLUS mechanism is offered.
		rest = msg[2:]
	case strings.HasPrefix(msg, "p="):
		return nil, malformed("The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.")
	default:
		return nil, malformed("Unexpected channel-binding flag.")
	}
	if strings.HasPrefix(rest, "a=") {
		return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "client uses authorization identity, but it is not supported")
	}
	if !strings.HasPrefix(rest, ",") {
		return nil, malformed("Comma expected.")
	}
	bare := rest[1:]
	e.gs2Header = msg[:len(msg)-len(bare)]
	attrs := strings.Split(bare, ",")
	if strings.HasPrefix(attrs[0], "m=") {
		return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "client requires an unsupported SCRAM extension")
	}
	if len(attrs) < 2 || !strings.HasPrefix(attrs[0], "n=") || !strings.HasPrefix(attrs[1], "r=") {
		return nil, malformed("Expected user name and nonce attributes.")
	}
	cnonce := attrs[1][2:]
	if cnonce == "" || !printable(cnonce) {
		return nil, malformed("Invalid nonce.")
	}
	snonce := make([]byte, 18)
	rand.Read(snonce)
	e.clientFirst = bare
	e.nonce = cnonce + base64.StdEncoding.EncodeToString(snonce)
	e.serverFirst = "r=" + e.nonce + ",s=" + base64.StdEncoding.EncodeToString(e.v.Salt) + ",i=" + strconv.Itoa(e.v.Iterations)
	return []byte(e.serverFirst), nil
}

// Final handles the SASLResponse data (client-final-message): it checks
// the channel binding, the nonce and, in constant time, the proof, and
// returns the server-final-message. A wrong proof is ErrAuthFailed; a
// malformed message is 08P01.
func (e *Exchange) Final(clientFinal []byte) ([]byte, error) {
	msg := string(clientFinal)
	i := strings.LastIndex(msg, ",p=")
	if i < 0 {
		return nil, malformed("Could not find proof in client-final-message.")
	}
	withoutProof, proofB64 := msg[:i], msg[i+3:]
	attrs := strings.Split(withoutProof, ",")
	if len(attrs) < 2 || !strings.HasPrefix(attrs[0], "c=") || !strings.HasPrefix(attrs[1], "r=") {
		return nil, malformed("Expected channel binding and nonce attributes.")
	}
	cb, err := base64.StdEncoding.DecodeString(attrs[0][2:])
	if err != nil || string(cb) != e.gs2Header {
		return nil, malformed("SCRAM channel binding check failed.")
	}
	if attrs[1][2:] != e.nonce {
		return nil, malformed("Nonce does not match.")
	}
	proof, err := base64.StdEncoding.DecodeString(proofB64)
	if err != nil || len(proof) != keyLen {
		return nil, malformed("Malformed proof in client-final-message.")
	}
	authMessage := e.clientFirst + "," + e.serverFirst + "," + withoutProof
	clientSig := hmacSHA256(e.v.StoredKey, authMessage)
	clientKey := make([]byte, keyLen)
	for j := range clientKey {
		clientKey[j] = proof[j] ^ clientSig[j]
	}
	got := sha256.Sum256(clientKey)
	if subtle.ConstantTimeCompare(got[:], e.v.StoredKey) != 1 {
		return nil, ErrAuthFailed
	}
	serverSig := hmac.New(sha256.New, e.v.ServerKey)
	serverSig.Write([]byte(authMessage))
	return []byte("v=" + base64.StdEncoding.EncodeToString(serverSig.Sum(nil))), nil
}

// printable reports whether s is printable ASCII without ',' (RFC 5802's
// nonce syntax).
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e || s[i] == ',' {
			return false
		}
	}
	return true
}
