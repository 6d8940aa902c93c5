package sqlparse

import (
	"strings"
	"testing"
)

// FuzzParameterize checks that Parameterize never panics and that what it
// lifts reads back: the parameterized text lexes, with one parameter per
// literal.
func FuzzParameterize(f *testing.F) {
	for _, s := range []string{
		"SELECT a FROM t WHERE k = 1 AND s IN ('x', 2) AND b BETWEEN 1 AND 2",
		"INSERT INTO t (a, b) VALUES (1 + 2, 'x') RETURNING a",
		"UPDATE t SET a = 5, b = 'y' WHERE k = 1",
		"DELETE FROM t WHERE k = 1;",
		";", "INSERT INTO t VALUES (", "UPDATE t SET", "UPDATE t SET a =",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		pz, ok := Parameterize(sql)
		if !ok {
			return
		}
		toks, err := lex(pz.SQL)
		if err != nil {
			t.Fatalf("%q: parameterized text %q does not lex: %v", sql, pz.SQL, err)
		}
		n := 0
		for _, tk := range toks {
			if tk.kind == tkParam {
				n++
			}
		}
		if n != len(pz.Literals) || !strings.HasSuffix(pz.Key, pz.SQL) {
			t.Fatalf("%q: %d parameters for %d literals in %q", sql, n, len(pz.Literals), pz.SQL)
		}
	})
}
