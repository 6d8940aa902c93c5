package types

import (
	"errors"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
)

var fuzzTypes = []T{TBool, TInt2, TInt4, TInt8, TFloat8, TText, {Kind: Text, VarChar: true, Width: 4}, TBytea, TTimestamp,
	TFloat4, TNumeric, {Kind: Numeric, Width: 6, Scale: 2}, TDate, TTime, TTimestampTZ, TInterval, TUUID, TJSON, TJSONB,
	{Kind: BPChar, Width: 3}, ArrayOf(TInt4), ArrayOf(TText)}

// FuzzParseText checks that ParseText never panics, that its errors carry
// a SQLSTATE, and that output re-parses to the same value.
func FuzzParseText(f *testing.F) {
	for _, c := range textCases {
		f.Add(uint8(0), c.in)
	}
	f.Add(uint8(8), "294246-12-31 24:00:60.9999999 BC")
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		typ := fuzzTypes[int(which)%len(fuzzTypes)]
		d, err := ParseText(typ, s)
		if err != nil {
			var pe *pgerror.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error without SQLSTATE: %v", err)
			}
			return
		}
		out := AppendText(nil, d)
		back, err := ParseText(typ, string(out))
		if err != nil || Compare(back, d) != 0 {
			t.Fatalf("%s %q -> %q -> %v, %v", typ, s, out, back, err)
		}
		bin := AppendBinary(nil, d, typ)
		if typ.Kind != Text && typ.Kind != BPChar && typ.Kind != Array { // text input is not checked for UTF-8; binary is
			if back, err := DecodeBinary(typ, bin); err != nil || Compare(back, d) != 0 {
				t.Fatalf("%s %q binary -> %v, %v", typ, s, back, err)
			}
		}
	})
}

// FuzzDecodeBinary checks that DecodeBinary never panics.
func FuzzDecodeBinary(f *testing.F) {
	f.Add(uint8(4), []byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		typ := fuzzTypes[int(which)%len(fuzzTypes)]
		if d, err := DecodeBinary(typ, b); err == nil {
			_ = AppendText(nil, d)
		}
	})
}
