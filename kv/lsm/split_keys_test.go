package lsm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestSplitKeys checks kv.Splitter on lsm: the keys are strictly
// increasing, strictly inside the span and at most n-1; over skewed data
// (many small rows, then few large ones) the pieces hold about equal
// bytes, also after a region split (shared files count once) and when
// weighing one family; an empty table, a table mostly in memtables and
// a MinPieceBytes above the data give no keys; a dropped table is an
// error.
func TestSplitKeys(t *testing.T) {
	s := mustOpen(t, vfs.NewMem())
	defer s.Close()
	ctx := context.Background()
	spec := kv.TableSpec{Families: []kv.Family{{Name: "f", Compression: "none"}, {Name: "g", Compression: "none"}}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	sp := tbl.(kv.Splitter)
	if keys, err := sp.SplitKeys(ctx, kv.KeyRange{}, 8, kv.SplitOptions{}); err != nil || keys != nil {
		t.Fatalf("empty table: %q, %v", keys, err)
	}

	// 8000 rows "a..." with 20-byte values, then 400 rows "b..." with
	// 2000-byte values: about a third of the bytes in the first 95% of
	// the keys. Family g only in the "a" rows, 200 bytes each.
	size := map[string]int64{} // rowkey -> bytes of f and g
	sizeF := map[string]int64{}
	var batch []kv.RowMutation
	add := func(key string, n int, g bool) {
		rm := kv.RowMutation{Key: []byte(key), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("v"), Timestamp: 1000, Value: bytes.Repeat([]byte{'x'}, n)}}}
		// A cell on disk: its value, rowkey, family, qualifier, the
		// 17-byte trailer and about 4 bytes of lengths.
		cell := int64(len(key) + 3 + 2 + 2 + 17 + 4)
		size[key] += int64(n) + cell
		sizeF[key] += int64(n) + cell
		if g {
			rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.SetCell, Family: "g", Qualifier: []byte("w"), Timestamp: 1000, Value: bytes.Repeat([]byte{'y'}, 200)})
			size[key] += 200 + cell
		}
		batch = append(batch, rm)
		if len(batch) == 200 {
			if err := tbl.Apply(ctx, batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	for i := range 8000 {
		add(fmt.Sprintf("a%06d", i), 20, true)
	}
	for i := range 400 {
		add(fmt.Sprintf("b%06d", i), 2000, false)
	}
	if err := tbl.Apply(ctx, batch); err != nil {
		t.Fatal(err)
	}
	// Unflushed, most of the data is in memtables: no keys.
	if s.Metrics().Files == 0 {
		if keys, err := sp.SplitKeys(ctx, kv.KeyRange{}, 8, kv.SplitOptions{}); err != nil || keys != nil {
			t.Errorf("table in memtables: %q, %v", keys, err)
		}
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	// check returns the keys for span and n and verifies their shape and
	// the balance of the pieces (by the bytes in sizes).
	check := func(what string, span kv.KeyRange, n int, opts kv.SplitOptions, sizes map[string]int64) [][]byte {
		t.Helper()
		keys, err := sp.SplitKeys(ctx, span, n, opts)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(keys) > n-1 {
			t.Fatalf("%s: %d keys for n=%d", what, len(keys), n)
		}
		for i, k := range keys {
			if len(k) == 0 || (span.Start != nil && bytes.Compare(k, span.Start) <= 0) || (span.End != nil && bytes.Compare(k, span.End) >= 0) {
				t.Fatalf("%s: key %q outside %q..%q", what, k, span.Start, span.End)
			}
			if i > 0 && bytes.Compare(keys[i-1], k) >= 0 {
				t.Fatalf("%s: keys not increasing: %q", what, keys)
			}
		}
		if len(keys) < n-1 {
			t.Errorf("%s: %d keys for n=%d", what, len(keys), n)
		}
		pieces := make([]int64, len(keys)+1)
		var total int64
		for k, b := range sizes {
			kb := []byte(k)
			if (span.Start != nil && bytes.Compare(kb, span.Start) < 0) || (span.End != nil && bytes.Compare(kb, span.End) >= 0) {
				continue
			}
			i := 0
			for i < len(keys) && bytes.Compare(kb, keys[i]) >= 0 {
				i++
			}
			pieces[i] += b
			total += b
		}
		share := total / int64(len(pieces))
		for i, p := range pieces {
			// Block and key overheads, and memtable bytes spread
			// evenly, allow some slack; interpolating rowkeys would
			// leave the "b" rows in one piece of n.
			if p < share*6/10 || p > share*14/10 {
				t.Errorf("%s: piece %d holds %d bytes, an equal share is %d (pieces %v)", what, i, p, share, pieces)
			}
		}
		return keys
	}
	check("whole table", kv.KeyRange{}, 8, kv.SplitOptions{}, size)
	check("n=2", kv.KeyRange{}, 2, kv.SplitOptions{}, size)
	check("span", kv.KeyRange{Start: []byte("a004000"), End: []byte("b000200")}, 5, kv.SplitOptions{}, size)
	check("span from", kv.KeyRange{Start: []byte("a007000")}, 4, kv.SplitOptions{}, size)
	check("family f", kv.KeyRange{}, 6, kv.SplitOptions{Families: []string{"f"}}, sizeF)
	if keys, _ := sp.SplitKeys(ctx, kv.KeyRange{}, 1, kv.SplitOptions{}); keys != nil {
		t.Errorf("n=1: %q", keys)
	}
	if keys, _ := sp.SplitKeys(ctx, kv.KeyRange{Start: []byte("c")}, 4, kv.SplitOptions{}); keys != nil {
		t.Errorf("span past the data: %q", keys)
	}
	if keys, _ := sp.SplitKeys(ctx, kv.KeyRange{}, 8, kv.SplitOptions{MinPieceBytes: 1 << 30}); keys != nil {
		t.Errorf("MinPieceBytes above the data: %q", keys)
	}
	var total int64
	for _, b := range size {
		total += b
	}
	if keys, _ := sp.SplitKeys(ctx, kv.KeyRange{}, 8, kv.SplitOptions{MinPieceBytes: total / 3}); len(keys) == 0 || len(keys) > 2 {
		t.Errorf("MinPieceBytes of a third of the data: %q", keys)
	}

	// Regions split off share the files: each counts its part once.
	if err := s.Split(ctx, "t", [][]byte{[]byte("a002000"), []byte("b000100")}); err != nil {
		t.Fatal(err)
	}
	check("after a split", kv.KeyRange{}, 8, kv.SplitOptions{}, size)
	check("after a split, span", kv.KeyRange{Start: []byte("a001000"), End: []byte("b000300")}, 6, kv.SplitOptions{}, size)

	if err := s.DropTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.SplitKeys(ctx, kv.KeyRange{}, 8, kv.SplitOptions{}); !errors.Is(err, kv.ErrTableNotFound) {
		t.Errorf("dropped table: %v", err)
	}
}

// TestRowOfSeparator checks the rowkey taken from index separators,
// whole keys and shortened ones.
func TestRowOfSeparator(t *testing.T) {
	for _, c := range []struct{ sep, row string }{
		{"abc\x00\x01f\x00\x01q\x00\x01", "abc"},
		{"a\x00\xffb\x00\x01f", "a\x00b"},
		{"abd", "abd"},
		{"ab\x00\x02", "ab\x00"},
		{"ab\x00", "ab\x00"},
	} {
		if got := rowOfSeparator([]byte(c.sep)); string(got) != c.row {
			t.Errorf("rowOfSeparator(%q) = %q, want %q", c.sep, got, c.row)
		}
	}
}
