package slt

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := `# comment
hash-threshold 8

statement ok
CREATE TABLE t (a INT PRIMARY KEY, b TEXT)

skipif postgresql
statement error duplicate
INSERT INTO t VALUES (1, 'x'),
  (1, 'y')

query IT rowsort lbl
SELECT a, b FROM t
----
1
x

onlyif widesql
query I nosort
SELECT count(*) FROM t
----
3 values hashing to 0123456789abcdef0123456789abcdef

halt
`
	recs, err := parse(strings.Split(src, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("got %d records, want 6", len(recs))
	}
	if r := recs[0]; r.Kind != HashThreshold || r.Threshold != 8 {
		t.Errorf("record 0: %+v", r)
	}
	if r := recs[2]; !r.WantError || r.ErrorText != "duplicate" || r.SQL != "INSERT INTO t VALUES (1, 'x'),\n  (1, 'y')" ||
		r.Runs("postgresql") || !r.Runs("widesql") {
		t.Errorf("record 2: %+v", r)
	}
	if r := recs[3]; r.Types != "IT" || r.Sort != RowSort || r.Label != "lbl" || strings.Join(r.Expected, ",") != "1,x" {
		t.Errorf("record 3: %+v", r)
	}
	if r := recs[4]; r.ExpectedCount != 3 || r.ExpectedHash != "0123456789abcdef0123456789abcdef" || r.Runs("postgresql") {
		t.Errorf("record 4: %+v", r)
	}
	if recs[5].Kind != Halt {
		t.Errorf("record 5: %+v", recs[5])
	}

	// valuesort, an empty result block, and skipif/onlyif stacking on one record.
	recs, err = parse(strings.Split("skipif widesql\nskipif sqlite\nquery II valuesort\nSELECT 1, 2\n----\n\nonlyif a\nonlyif b\nstatement ok\nX", "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := recs[0]; r.Sort != ValueSort || r.Expected != nil || r.ExpectedHash != "" || r.Runs("widesql") || r.Runs("sqlite") || !r.Runs("postgresql") {
		t.Errorf("valuesort record: %+v", r)
	}
	if r := recs[1]; !r.Runs("a") || !r.Runs("b") || r.Runs("widesql") || len(r.SkipIf) != 0 {
		t.Errorf("onlyif record: %+v", r)
	}
	for _, bad := range []string{
		"query X\nSELECT 1\n----\n1", "statement maybe\nSELECT 1", "query I\nSELECT 1", "bogus",
		"query I bogussort\nSELECT 1\n----\n1", "query\nSELECT 1\n----", "hash-threshold x", "hash-threshold -1",
		"skipif\nstatement ok\nSELECT 1", "statement ok\n", "query I nosort\n----\n1",
	} {
		if _, err := parse(strings.Split(bad, "\n")); err == nil {
			t.Errorf("parse(%q) succeeded, want an error", bad)
		}
	}
}

func TestValues(t *testing.T) {
	r := &Record{Types: "IRT", Sort: RowSort}
	got := values(r, [][]string{{"2", "1.5", "b\x01"}, {"1", "NULL", "(empty)"}})
	want := []string{"1", "NULL", "(empty)", "2", "1.500", "b@"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("values = %q, want %q", got, want)
	}
	if h := hash([]string{"1"}); h != "b026324c6904b2a9cb4b88d6d61c81d1" { // md5("1\n")
		t.Errorf("hash = %s", h)
	}
}
