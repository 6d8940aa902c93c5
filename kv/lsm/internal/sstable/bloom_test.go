package sstable

import (
	"fmt"
	"testing"
)

func TestBloom(t *testing.T) {
	for _, bits := range []int{5, 10, 20} {
		t.Run(fmt.Sprint(bits), func(t *testing.T) {
			var entries []kv
			const rows = 20_000
			for row := range rows {
				rk := fmt.Appendf(nil, "user%08d", row*2) // odd rows are absent
				for q := range 3 {
					entries = append(entries, kv{cellKey(rk, []byte("f"), []byte{byte('a' + q)}, 1, 1, 1), []byte("v")})
				}
			}
			f, _ := writeTable(t, entries, WriterOptions{BloomBitsPerKey: bits, BloomKey: rowOf})
			r := openTable(t, f, nil)
			defer r.Close()
			for row := range rows {
				if !r.MayContain(fmt.Appendf(nil, "user%08d", row*2)) {
					t.Fatalf("false negative for row %d", row*2)
				}
			}
			fp := 0
			for row := range rows {
				if r.MayContain(fmt.Appendf(nil, "user%08d", row*2+1)) {
					fp++
				}
			}
			rate := float64(fp) / rows
			// Theory for k = 0.69*bits: 5 → 9.2%, 10 → 0.82%, 20 → 0.0067%.
			want := map[int]float64{5: 0.12, 10: 0.0125, 20: 0.001}[bits]
			t.Logf("bits/key %d: false positive rate %.4f%%, bloom block %d bytes", bits, 100*rate, len(r.bloom))
			if rate > want {
				t.Fatalf("false positive rate %.4f > %.4f", rate, want)
			}
			// Three cells a row add the row once.
			if wantLen := rows*bits/8 + 1; len(r.bloom) > wantLen+8 {
				t.Fatalf("bloom block %d bytes, want about %d", len(r.bloom), wantLen)
			}
		})
	}
}

func TestBloomDisabled(t *testing.T) {
	f, _ := writeTable(t, []kv{{[]byte("a"), nil}}, WriterOptions{BloomBitsPerKey: -1})
	r := openTable(t, f, nil)
	defer r.Close()
	if len(r.bloom) != 0 || !r.MayContain([]byte("zzz")) {
		t.Fatal("disabled bloom must answer true")
	}
}
