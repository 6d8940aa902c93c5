package keyenc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

func TestValueRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 20000; iter++ {
		typ := keyTypes[r.IntN(len(keyTypes))]
		d := randDatum(r, typ)
		enc := AppendValue(nil, d, typ)
		back, err := DecodeValue(enc, typ)
		if err != nil || back.K != typ.Kind || types.Compare(back, d) != 0 {
			t.Fatalf("%s %v -> % x -> %v, %v", typ, d, enc, back, err)
		}
	}
	if n := len(AppendValue(nil, types.NewInt(types.Int8, -1), types.TInt8)); n != 1 {
		t.Errorf("-1 takes %d bytes", n)
	}
	if b := AppendValue(nil, types.NewFloat(math.Copysign(0, -1)), types.TFloat8); b[0] != 0x80 {
		t.Errorf("-0 lost its sign: % x", b)
	}
}

func TestDecodeValueCorrupt(t *testing.T) {
	for _, c := range []struct {
		b []byte
		t types.T
	}{
		{nil, types.TBool},
		{[]byte{2}, types.TBool},
		{nil, types.TInt4},
		{[]byte{0x80}, types.TInt8},
		{[]byte{2, 0}, types.TInt8},
		{AppendValue(nil, types.NewInt(types.Int8, 1<<40), types.TInt8), types.TInt4},
		{AppendValue(nil, types.NewInt(types.Int8, 1<<20), types.TInt8), types.TInt2},
		{[]byte{1, 2, 3}, types.TFloat8},
	} {
		if _, err := DecodeValue(c.b, c.t); pgerror.CodeOf(err) != pgerror.CodeDataCorrupted {
			t.Errorf("DecodeValue(% x, %s) = %v, want XX001", c.b, c.t, err)
		}
	}
}

// FuzzDecodeValue checks that DecodeValue never panics.
func FuzzDecodeValue(f *testing.F) {
	f.Add(uint8(3), []byte{0x81, 0x01})
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		typ := keyTypes[int(which)%len(keyTypes)]
		if d, err := DecodeValue(b, typ); err == nil {
			_ = AppendValue(nil, d, typ)
		}
	})
}
