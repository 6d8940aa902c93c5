package types

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// CheckUTF8 returns nil when b is text PostgreSQL accepts in a UTF8
// database: valid UTF-8 without a NUL byte (no text value can hold one).
// Otherwise it returns PostgreSQL's 22021 error naming the first bad
// sequence as PostgreSQL does: the bytes of the character its first byte
// announces, as many as are left ("0xc3 0x28"; a NUL is "0x00").
func CheckUTF8(b []byte) error {
	if utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 {
		return nil
	}
	i := 0
	for i < len(b) {
		if b[i] == 0 {
			break
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	n := min(utf8SeqLen(b[i]), len(b)-i)
	var sb strings.Builder
	for j, c := range b[i : i+n] {
		if j > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "0x%02x", c)
	}
	return pgerror.New(codeCharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", sb.String())
}

// utf8SeqLen is the length a UTF-8 sequence starting with c announces
// (PostgreSQL's pg_utf_mblen): 1 for ASCII and for bytes that start none.
func utf8SeqLen(c byte) int {
	switch {
	case c&0xe0 == 0xc0:
		return 2
	case c&0xf0 == 0xe0:
		return 3
	case c&0xf8 == 0xf0:
		return 4
	}
	return 1
}
