package exec

import (
	"bytes"
	"encoding/binary"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// PostgreSQL's binary COPY format, as pgx's CopyFrom sends it: a header
// (signature, flags, extension), then per row a 16-bit field count and
// each field as a 32-bit length (-1 for NULL) and its binary value; a
// field count of -1 ends the data.

var copySignature = []byte("PGCOPY\n\xff\r\n\x00")

// binaryReader splits binary COPY input into rows.
type binaryReader struct {
	buf    []byte // input not yet returned as rows
	own    []byte // buf's storage when it is not a borrowed chunk
	header bool   // the header has been read
	ended  bool   // the trailer has been read
	vals   [][]byte
}

// add appends a chunk of input. When nothing is pending, buf borrows the
// chunk instead of copying it (most rows are read straight from the
// message); the caller must call keep before the chunk goes.
func (r *binaryReader) add(data []byte) {
	if len(r.buf) == 0 {
		r.buf = data[:len(data):len(data)] // an append never writes into it
		return
	}
	r.buf = append(r.buf, data...)
}

// keep copies the rest of a borrowed chunk (a row cut by the chunk's
// end) into the reader's own storage.
func (r *binaryReader) keep() {
	if len(r.buf) == 0 {
		r.buf = nil
		return
	}
	if len(r.own) > 0 && &r.buf[0] == &r.own[0] {
		return
	}
	r.own = append(r.own[:0], r.buf...)
	r.buf = r.own
}

// next returns the next row's fields (nil for NULL), valid until the next
// call; ok is false when more input is needed or the data ended.
func (r *binaryReader) next(eof bool) (vals [][]byte, ok bool, err error) {
	if !r.header {
		if len(r.buf) < len(copySignature)+8 {
			if eof || len(r.buf) >= len(copySignature) && !bytes.Equal(r.buf[:len(copySignature)], copySignature) {
				return nil, false, pgerror.New(codeBadCopyFormat, "COPY file signature not recognized")
			}
			return nil, false, nil
		}
		if !bytes.Equal(r.buf[:len(copySignature)], copySignature) {
			return nil, false, pgerror.New(codeBadCopyFormat, "COPY file signature not recognized")
		}
		p := len(copySignature)
		flags := binary.BigEndian.Uint32(r.buf[p:])
		if flags&(1<<16) != 0 {
			return nil, false, pgerror.New(codeBadCopyFormat, "invalid COPY file header (WITH OIDS)")
		}
		if flags&0xffff0000 != 0 {
			return nil, false, pgerror.New(codeBadCopyFormat, "unrecognized critical flags in COPY file header")
		}
		ext := int(binary.BigEndian.Uint32(r.buf[p+4:]))
		if len(r.buf) < p+8+ext {
			if eof {
				return nil, false, pgerror.New(codeBadCopyFormat, "invalid COPY file header (wrong length)")
			}
			return nil, false, nil
		}
		r.buf = r.buf[p+8+ext:]
		r.header = true
	}
	if r.ended {
		return nil, false, nil
	}
	if len(r.buf) < 2 {
		if eof && len(r.buf) > 0 {
			return nil, false, pgerror.New(codeBadCopyFormat, "unexpected EOF in COPY data")
		}
		return nil, false, nil
	}
	n := int(int16(binary.BigEndian.Uint16(r.buf)))
	if n == -1 {
		r.ended = true
		return nil, false, nil
	}
	p := 2
	r.vals = r.vals[:0]
	for i := 0; i < n; i++ {
		if len(r.buf) < p+4 {
			return r.short(eof)
		}
		l := int(int32(binary.BigEndian.Uint32(r.buf[p:])))
		p += 4
		if l == -1 {
			r.vals = append(r.vals, nil)
			continue
		}
		if l < 0 {
			return nil, false, pgerror.New(codeBadCopyFormat, "invalid field size")
		}
		if len(r.buf) < p+l {
			return r.short(eof)
		}
		r.vals = append(r.vals, r.buf[p:p+l:p+l])
		p += l
	}
	r.buf = r.buf[p:]
	return r.vals, true, nil
}

func (r *binaryReader) short(eof bool) ([][]byte, bool, error) {
	if eof {
		return nil, false, pgerror.New(codeBadCopyFormat, "unexpected EOF in COPY data")
	}
	return nil, false, nil
}
