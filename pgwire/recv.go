package pgwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"
)

// frontendReader reads the frontend messages that follow startup. It is
// pgproto3.Backend's Receive (same messages, same errors, the same
// contract: a message and the bytes it holds are valid until the next
// call), with the two messages of every prepared request, Bind and
// Execute, decoded into reused structs: a request allocates nothing to
// be read. Every other message is decoded by pgproto3's own Decode.
type frontendReader struct {
	r          io.Reader
	buf        []byte
	rp, wp     int // read and write positions in buf
	maxBodyLen int
	authType   uint32

	// A message whose header was read but not its body (the read failed):
	// the next call reads the body, as pgproto3 does.
	partial bool
	msgType byte
	bodyLen int

	bind     pgproto3.Bind
	bindArgs [][]byte // bind.Parameters' array, reused
	bindFmts []int16  // bind's format codes' array, reused
	execute  pgproto3.Execute

	parse     pgproto3.Parse
	describe  pgproto3.Describe
	close     pgproto3.Close
	sync      pgproto3.Sync
	query     pgproto3.Query
	terminate pgproto3.Terminate
	flush     pgproto3.Flush
	copyData  pgproto3.CopyData
	copyDone  pgproto3.CopyDone
	copyFail  pgproto3.CopyFail
	funcCall  pgproto3.FunctionCall
}

// readBufSize is the read buffer kept between messages (pgproto3's too);
// a larger message gets a buffer of its own, dropped once consumed.
const readBufSize = 8192

func newFrontendReader(r io.Reader) *frontendReader {
	return &frontendReader{r: r, buf: make([]byte, readBufSize)}
}

// SetMaxBodyLen bounds a message body; 0 means no bound.
func (fr *frontendReader) SetMaxBodyLen(n int) { fr.maxBodyLen = n }

// SetAuthType sets what a 'p' message is (pgproto3.Backend.SetAuthType).
func (fr *frontendReader) SetAuthType(authType uint32) error {
	switch authType {
	case pgproto3.AuthTypeOk, pgproto3.AuthTypeCleartextPassword, pgproto3.AuthTypeMD5Password,
		pgproto3.AuthTypeSCMCreds, pgproto3.AuthTypeGSS, pgproto3.AuthTypeGSSCont, pgproto3.AuthTypeSSPI,
		pgproto3.AuthTypeSASL, pgproto3.AuthTypeSASLContinue, pgproto3.AuthTypeSASLFinal:
		fr.authType = authType
		return nil
	}
	return fmt.Errorf("authType not recognized: %d", authType)
}

// next returns the next n bytes of the stream, valid until the next call.
func (fr *frontendReader) next(n int) ([]byte, error) {
	if fr.rp == fr.wp {
		if len(fr.buf) != readBufSize {
			fr.buf = make([]byte, readBufSize) // a large message's buffer is not kept
		}
		fr.rp, fr.wp = 0, 0
	}
	if fr.wp-fr.rp >= n {
		b := fr.buf[fr.rp : fr.rp+n : fr.rp+n]
		fr.rp += n
		return b, nil
	}
	if len(fr.buf) < n {
		big := make([]byte, n)
		fr.wp, fr.rp = copy(big, fr.buf[fr.rp:fr.wp]), 0
		fr.buf = big
	}
	need := n - (fr.wp - fr.rp)
	if len(fr.buf)-fr.wp < need {
		fr.wp, fr.rp = copy(fr.buf, fr.buf[fr.rp:fr.wp]), 0
	}
	got, err := io.ReadAtLeast(fr.r, fr.buf[fr.wp:], need)
	fr.wp += got
	if err != nil {
		return nil, err
	}
	b := fr.buf[fr.rp : fr.rp+n : fr.rp+n]
	fr.rp += n
	return b, nil
}

// buffered reports whether the next message is already in the buffer
// whole: Receive then returns it without reading the socket.
func (fr *frontendReader) buffered() bool {
	n := fr.wp - fr.rp
	if fr.partial {
		return n >= fr.bodyLen
	}
	return n >= 5 && n-5 >= int(int32(binary.BigEndian.Uint32(fr.buf[fr.rp+1:])))-4
}

// Receive returns the next frontend message.
func (fr *frontendReader) Receive() (pgproto3.FrontendMessage, error) {
	if !fr.partial {
		hdr, err := fr.next(5)
		if err != nil {
			return nil, eofIsUnexpected(err)
		}
		fr.msgType = hdr[0]
		n := int(int32(binary.BigEndian.Uint32(hdr[1:])))
		if n < 4 {
			return nil, fmt.Errorf("invalid message length: %d", n)
		}
		fr.bodyLen = n - 4
		if fr.maxBodyLen > 0 && fr.bodyLen > fr.maxBodyLen {
			return nil, &pgproto3.ExceededMaxBodyLenErr{MaxExpectedBodyLen: fr.maxBodyLen, ActualBodyLen: fr.bodyLen}
		}
		fr.partial = true
	}
	var msg pgproto3.FrontendMessage
	switch fr.msgType {
	case 'B':
		msg = &fr.bind
	case 'C':
		msg = &fr.close
	case 'D':
		msg = &fr.describe
	case 'E':
		msg = &fr.execute
	case 'F':
		msg = &fr.funcCall
	case 'f':
		msg = &fr.copyFail
	case 'd':
		msg = &fr.copyData
	case 'c':
		msg = &fr.copyDone
	case 'H':
		msg = &fr.flush
	case 'P':
		msg = &fr.parse
	case 'p':
		switch fr.authType {
		case pgproto3.AuthTypeSASL:
			msg = &pgproto3.SASLInitialResponse{}
		case pgproto3.AuthTypeSASLContinue, pgproto3.AuthTypeSASLFinal:
			msg = &pgproto3.SASLResponse{}
		case pgproto3.AuthTypeGSS, pgproto3.AuthTypeGSSCont:
			msg = &pgproto3.GSSResponse{}
		default:
			msg = &pgproto3.PasswordMessage{}
		}
	case 'Q':
		msg = &fr.query
	case 'S':
		msg = &fr.sync
	case 'X':
		msg = &fr.terminate
	default:
		return nil, fmt.Errorf("unknown message type: %c", fr.msgType)
	}
	body, err := fr.next(fr.bodyLen)
	if err != nil {
		return nil, eofIsUnexpected(err)
	}
	fr.partial = false
	switch fr.msgType {
	case 'B':
		if fr.decodeBind(body) {
			return msg, nil
		}
	case 'E':
		if fr.decodeExecute(body) {
			return msg, nil
		}
	}
	// pgproto3's Decode, and its error for a malformed body.
	if err := msg.Decode(body); err != nil {
		return nil, err
	}
	return msg, nil
}

func eofIsUnexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// decodeBind decodes a well-formed Bind into fr.bind, reusing its
// arrays and its names' strings; it returns false for a malformed one
// (pgproto3's Decode then reports it).
func (fr *frontendReader) decodeBind(src []byte) bool {
	m := &fr.bind
	portal, rest, ok := cstring(src)
	if !ok {
		return false
	}
	stmt, rest, ok := cstring(rest)
	if !ok {
		return false
	}
	pfmts, rest, ok := fr.formats(rest, 0)
	if !ok {
		return false
	}
	if len(rest) < 2 {
		return false
	}
	nargs := int(binary.BigEndian.Uint16(rest))
	rest = rest[2:]
	args := fr.bindArgs[:0]
	for range nargs {
		if len(rest) < 4 {
			return false
		}
		n := int(int32(binary.BigEndian.Uint32(rest)))
		rest = rest[4:]
		if n == -1 {
			args = append(args, nil)
			continue
		}
		if n < 0 || len(rest) < n {
			return false
		}
		args = append(args, rest[:n:n])
		rest = rest[n:]
	}
	fr.bindArgs = args
	rfmts, _, ok := fr.formats(rest, len(pfmts))
	if !ok {
		return false
	}
	if string(portal) != m.DestinationPortal {
		m.DestinationPortal = string(portal)
	}
	if string(stmt) != m.PreparedStatement {
		m.PreparedStatement = string(stmt)
	}
	m.ParameterFormatCodes = pfmts
	m.Parameters = nil
	if nargs > 0 {
		m.Parameters = args
	}
	m.ResultFormatCodes = rfmts
	return true
}

// formats decodes a count and that many format codes into fr.bindFmts
// after its first at entries.
func (fr *frontendReader) formats(src []byte, at int) ([]int16, []byte, bool) {
	if len(src) < 2 {
		return nil, nil, false
	}
	n := int(binary.BigEndian.Uint16(src))
	src = src[2:]
	if len(src) < 2*n {
		return nil, nil, false
	}
	if n == 0 {
		return nil, src, true
	}
	f := fr.bindFmts[:at]
	for i := range n {
		f = append(f, int16(binary.BigEndian.Uint16(src[2*i:])))
	}
	fr.bindFmts = f
	return f[at : at+n : at+n], src[2*n:], true
}

// decodeExecute decodes a well-formed Execute into fr.execute, reusing
// its portal name's string.
func (fr *frontendReader) decodeExecute(src []byte) bool {
	name, rest, ok := cstring(src)
	if !ok || len(rest) < 4 {
		return false
	}
	m := &fr.execute
	if string(name) != m.Portal {
		m.Portal = string(name)
	}
	m.MaxRows = binary.BigEndian.Uint32(rest)
	return true
}

// cstring splits a NUL-terminated string off src.
func cstring(src []byte) ([]byte, []byte, bool) {
	i := bytes.IndexByte(src, 0)
	if i < 0 {
		return nil, nil, false
	}
	return src[:i], src[i+1:], true
}
