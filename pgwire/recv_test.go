package pgwire

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestFrontendReader reads one stream of frontend messages with
// frontendReader and with pgproto3.Backend, whose Receive it replaces,
// and wants the same messages and the same errors: Bind and Execute
// decoded into reused structs, well-formed and malformed, the other
// messages, one larger than the read buffer, and the stream read whole,
// one byte at a time and in halves.
func TestFrontendReader(t *testing.T) {
	enc := func(msgs ...pgproto3.FrontendMessage) []byte {
		var b []byte
		for _, m := range msgs {
			var err error
			if b, err = m.Encode(b); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	// raw frames a message body by hand, for malformed ones.
	raw := func(typ byte, body ...byte) []byte {
		b := []byte{typ, 0, 0, 0, 0}
		binary.BigEndian.PutUint32(b[1:], uint32(4+len(body)))
		return append(b, body...)
	}
	big := strings.Repeat("x", 3*readBufSize)
	good := enc(
		&pgproto3.Parse{Name: "s", Query: "SELECT $1, $2", ParameterOIDs: []uint32{23, 25}},
		&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{[]byte("1"), nil, {}}},
		&pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{},
		&pgproto3.Sync{},
		&pgproto3.Bind{DestinationPortal: "p1", PreparedStatement: "s", ParameterFormatCodes: []int16{1, 0},
			Parameters: [][]byte{{0, 0, 0, 7}, []byte("abc")}, ResultFormatCodes: []int16{1, 0, 1}},
		&pgproto3.Execute{Portal: "p1", MaxRows: 10},
		&pgproto3.Bind{PreparedStatement: "s", ResultFormatCodes: []int16{1}},
		&pgproto3.Bind{DestinationPortal: "p1", PreparedStatement: "s", ParameterFormatCodes: []int16{1},
			Parameters: [][]byte{[]byte(big)}},
		&pgproto3.Execute{Portal: "p1"},
		&pgproto3.Query{String: "SELECT '" + big + "'"},
		&pgproto3.Close{ObjectType: 'S', Name: "s"},
		&pgproto3.Flush{},
		&pgproto3.CopyData{Data: []byte("1\t2\n")},
		&pgproto3.CopyDone{},
		&pgproto3.CopyFail{Message: "no"},
		&pgproto3.PasswordMessage{Password: "pw"},
	)
	streams := map[string][]byte{
		"good": append(good, enc(&pgproto3.Terminate{})...),
		// Each ends its stream: a reader stops at its first error.
		"bind without names":        raw('B', 's'),
		"bind with few parameters":  raw('B', 0, 's', 0, 0, 0, 0, 2, 0, 0, 0, 1, 'x'),
		"bind, parameter too long":  raw('B', 0, 's', 0, 0, 0, 0, 1, 0, 0, 0, 9, 'x', 0, 0),
		"bind, negative length":     raw('B', 0, 's', 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0, 0),
		"bind without result count": raw('B', 0, 's', 0, 0, 0, 0, 0),
		"bind, short result codes":  raw('B', 0, 's', 0, 0, 0, 0, 0, 0, 2, 0, 1),
		"bind, short format codes":  raw('B', 0, 's', 0, 0, 3, 0, 1),
		"execute without name end":  raw('E', 'p'),
		"execute without max rows":  raw('E', 'p', 0, 0, 0),
		"unknown type":              raw('Z'),
		"short length":              {'S', 0, 0, 0, 3},
		"truncated body":            raw('Q', 'S', 'E', 'L')[:7],
		"too long":                  raw('Q', make([]byte, 2000)...),
	}
	for name, stream := range streams {
		readers := map[string]func() io.Reader{
			"whole":  func() io.Reader { return bytes.NewReader(stream) },
			"bytes":  func() io.Reader { return iotest.OneByteReader(bytes.NewReader(stream)) },
			"halves": func() io.Reader { return iotest.HalfReader(bytes.NewReader(stream)) },
		}
		for how, rd := range readers {
			t.Run(name+"/"+how, func(t *testing.T) {
				want := pgproto3.NewBackend(rd(), io.Discard)
				want.SetMaxBodyLen(1000 + 3*readBufSize)
				got := newFrontendReader(rd())
				got.SetMaxBodyLen(1000 + 3*readBufSize)
				if name == "too long" {
					want.SetMaxBodyLen(1000)
					got.SetMaxBodyLen(1000)
				}
				for i := 0; ; i++ {
					wm, werr := want.Receive()
					gm, gerr := got.Receive()
					if fmt.Sprint(werr) != fmt.Sprint(gerr) {
						t.Fatalf("message %d: error %v, want %v", i, gerr, werr)
					}
					if werr != nil {
						if name == "good" {
							t.Fatalf("message %d: %v", i, werr)
						}
						return
					}
					if !sameMessage(wm, gm) {
						t.Fatalf("message %d: got %#v, want %#v", i, gm, wm)
					}
					if _, ok := wm.(*pgproto3.Terminate); ok {
						return
					}
				}
			})
		}
	}
}

// sameMessage compares two decoded messages; an empty slice and nil are
// the same (pgproto3 makes empty result format codes, frontendReader
// leaves them nil: no reader tells them apart).
func sameMessage(a, b pgproto3.FrontendMessage) bool {
	ab, aok := a.(*pgproto3.Bind)
	bb, bok := b.(*pgproto3.Bind)
	if !aok || !bok {
		return reflect.DeepEqual(a, b)
	}
	same := func(x, y []int16) bool { return len(x) == len(y) && (len(x) == 0 || reflect.DeepEqual(x, y)) }
	if ab.DestinationPortal != bb.DestinationPortal || ab.PreparedStatement != bb.PreparedStatement ||
		!same(ab.ParameterFormatCodes, bb.ParameterFormatCodes) || !same(ab.ResultFormatCodes, bb.ResultFormatCodes) ||
		len(ab.Parameters) != len(bb.Parameters) {
		return false
	}
	for i := range ab.Parameters {
		if (ab.Parameters[i] == nil) != (bb.Parameters[i] == nil) || !bytes.Equal(ab.Parameters[i], bb.Parameters[i]) {
			return false
		}
	}
	return true
}

// TestFrontendReaderBuffered checks buffered, which tells conn.serve
// whether the next Receive can wait on the socket (and so needs the idle
// deadline armed): true only while a whole message is in the buffer.
func TestFrontendReaderBuffered(t *testing.T) {
	var stream []byte
	for _, m := range []pgproto3.FrontendMessage{
		&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{[]byte("1")}},
		&pgproto3.Execute{},
		&pgproto3.Sync{},
		&pgproto3.Query{String: "SELECT 1"},
	} {
		stream, _ = m.Encode(stream)
	}
	// The reader gets the first three messages and half of the fourth.
	cut := len(stream) - 5
	pr, pw := io.Pipe()
	go func() { pw.Write(stream[:cut]) }()
	fr := newFrontendReader(pr)
	if fr.buffered() {
		t.Error("buffered before any read")
	}
	for i, want := range []bool{true, true, false} {
		if _, err := fr.Receive(); err != nil {
			t.Fatal(err)
		}
		if got := fr.buffered(); got != want {
			t.Errorf("after message %d: buffered %v, want %v", i, got, want)
		}
	}
	go func() { pw.Write(stream[cut:]) }()
	if m, err := fr.Receive(); err != nil {
		t.Fatal(err)
	} else if q, ok := m.(*pgproto3.Query); !ok || q.String != "SELECT 1" {
		t.Fatalf("got %#v", m)
	}
	if fr.buffered() {
		t.Error("buffered after the last message")
	}
}
