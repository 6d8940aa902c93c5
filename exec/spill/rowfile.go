package spill

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// rowFile is a temporary file of encoded rows: written once, then read
// from the start any number of times.
type rowFile struct {
	f     *os.File
	w     *bufio.Writer
	types []types.T
	buf   []byte // the row being encoded
	val   []byte // the value being encoded
	rows  int64
	bytes int64
}

func newRowFile(dir string, ts []types.T) (*rowFile, error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, ioError(err)
		}
	}
	f, err := os.CreateTemp(dir, "spill-*.rows")
	if err != nil {
		return nil, ioError(err)
	}
	return &rowFile{f: f, w: bufio.NewWriterSize(f, 64<<10), types: ts}, nil
}

func ioError(err error) error {
	return pgerror.Wrap(err, pgerror.CodeIOError, "could not write temporary spill file: "+err.Error())
}

// add appends one row.
func (rf *rowFile) add(row []types.Datum) error {
	b := rf.buf[:0]
	for i, d := range row {
		if d.IsNull() {
			b = append(b, 0)
			continue
		}
		// A value whose kind is not its column's (a plan's type is not
		// always the values' exact kind) is written, and read back, as its
		// own kind.
		t, tag := rf.types[i], byte(1)
		if d.K != t.Kind && d.K != types.Array {
			t, tag = types.T{Kind: d.K}, 2+byte(d.K)
		}
		rf.val = keyenc.AppendValue(rf.val[:0], d, t)
		b = append(b, tag)
		b = binary.AppendUvarint(b, uint64(len(rf.val)))
		b = append(b, rf.val...)
	}
	rf.buf = b
	var hdr [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(hdr[:], uint64(len(b)))
	if _, err := rf.w.Write(hdr[:n]); err != nil {
		return ioError(err)
	}
	if _, err := rf.w.Write(b); err != nil {
		return ioError(err)
	}
	rf.rows++
	rf.bytes += int64(n + len(b))
	return nil
}

// reader finishes writing and returns a reader from the first row.
func (rf *rowFile) reader() (*rowReader, error) {
	if err := rf.w.Flush(); err != nil {
		return nil, ioError(err)
	}
	if _, err := rf.f.Seek(0, io.SeekStart); err != nil {
		return nil, ioError(err)
	}
	return &rowReader{r: bufio.NewReaderSize(rf.f, 64<<10), types: rf.types}, nil
}

// close removes the file.
func (rf *rowFile) close() {
	if rf.f != nil {
		rf.f.Close()
		os.Remove(rf.f.Name())
		rf.f = nil
	}
}

// rowReader decodes rows written by a rowFile.
type rowReader struct {
	r     *bufio.Reader
	types []types.T
	buf   []byte
}

// next returns the next row (a new slice) or io.EOF.
func (rr *rowReader) next() ([]types.Datum, error) {
	n, err := binary.ReadUvarint(rr.r)
	if errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	if err != nil {
		return nil, corrupt(err)
	}
	if cap(rr.buf) < int(n) {
		rr.buf = make([]byte, n)
	}
	b := rr.buf[:n]
	if _, err := io.ReadFull(rr.r, b); err != nil {
		return nil, corrupt(err)
	}
	row := make([]types.Datum, len(rr.types))
	for i, t := range rr.types {
		if len(b) == 0 {
			return nil, corrupt(fmt.Errorf("row ends before column %d", i+1))
		}
		tag := b[0]
		b = b[1:]
		if tag == 0 {
			continue
		}
		if tag > 1 {
			t = types.T{Kind: types.Kind(tag - 2)}
		}
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return nil, corrupt(fmt.Errorf("bad length in column %d", i+1))
		}
		d, err := keyenc.DecodeValue(b[k:k+int(l)], t)
		if err != nil {
			return nil, err
		}
		row[i] = d
		b = b[k+int(l):]
	}
	return row, nil
}

func corrupt(err error) error {
	return pgerror.Wrap(err, pgerror.CodeDataCorrupted, "corrupt temporary spill file: "+err.Error())
}
