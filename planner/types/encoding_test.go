package types

import "testing"

func TestCheckUTF8(t *testing.T) {
	for _, c := range []struct {
		in, msg string // msg "": accepted
	}{
		{"", ""},
		{"plain", ""},
		{"grüße, 日本, 🙂", ""},
		{"a\x00b", `invalid byte sequence for encoding "UTF8": 0x00`},
		{"ok\xff", `invalid byte sequence for encoding "UTF8": 0xff`},
		{"a\xc3\x28b", `invalid byte sequence for encoding "UTF8": 0xc3 0x28`},
		{"\xe2\x82", `invalid byte sequence for encoding "UTF8": 0xe2 0x82`}, // truncated: what is left
		{"é\xf0\x9f\x99", `invalid byte sequence for encoding "UTF8": 0xf0 0x9f 0x99`},
		{"\xed\xa0\x80", `invalid byte sequence for encoding "UTF8": 0xed 0xa0 0x80`}, // a surrogate
	} {
		err := CheckUTF8([]byte(c.in))
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("CheckUTF8(%q) = %v, want nil", c.in, err)
		case c.msg != "" && (err == nil || err.Error() != c.msg):
			t.Errorf("CheckUTF8(%q) = %v, want %q", c.in, err, c.msg)
		}
	}
}
