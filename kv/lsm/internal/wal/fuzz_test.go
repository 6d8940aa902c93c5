package wal

import (
	"bytes"
	"errors"
	"testing"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// FuzzReplay replays arbitrary bytes as a segment, last and then not last.
// It must never panic; it returns records that re-encode to exactly the
// valid prefix (for a segment that is not the last: everything but a zero
// tail), or a *CorruptionError.
func FuzzReplay(f *testing.F) {
	a, b := appendFrame(nil, []byte("alpha")), appendFrame(nil, nil)
	f.Add([]byte{})
	f.Add(a)
	f.Add(append(append([]byte{}, a...), b...))
	f.Add(append(append([]byte{}, a...), b[:3]...))
	f.Add(append(append([]byte{}, a...), make([]byte, 64)...))
	f.Add(append(append(append([]byte{}, a...), 1, 2, 3, 4, 5, 6, 7, 8), a...))
	f.Add([]byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		m := vfs.NewMem()
		writeRaw(t, m, "", SegmentName(1), data)
		check := func(wantAll bool) {
			var reenc []byte
			lastValid, err := Replay(m, "", 0, func(seg uint64, rec []byte) error {
				if seg == 1 {
					reenc = appendFrame(reenc, rec)
				}
				return nil
			})
			if err != nil {
				var ce *CorruptionError
				if !errors.As(err, &ce) || ce.Offset < 0 || ce.Offset >= int64(len(data)) {
					t.Fatalf("Replay error %v", err)
				}
				return
			}
			valid := data[:lastValid]
			if wantAll {
				// Not the last segment: all of it, or a zero tail.
				valid = data[:len(reenc)]
				if !allZero(data[len(reenc):]) {
					t.Fatalf("non-last segment replayed %d of %d bytes, rest not zeros", len(reenc), len(data))
				}
			}
			if !bytes.Equal(reenc, valid) {
				t.Fatalf("records re-encode to %d bytes, valid prefix is %d", len(reenc), len(valid))
			}
		}
		check(false)
		writeRaw(t, m, "", SegmentName(2), nil) // segment 1 is no longer last
		check(true)
	})
}
