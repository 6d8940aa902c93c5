package compat

import "testing"

func TestPgDDL(t *testing.T) {
	got := pgDDL("CREATE TABLE t (a TEXT, d.b INT, m.c_2 DOUBLE PRECISION,f.x TEXT, PRIMARY KEY (a))")
	want := "CREATE TABLE t (a TEXT, b INT, c_2 DOUBLE PRECISION,x TEXT, PRIMARY KEY (a))"
	if got != want {
		t.Errorf("pgDDL = %q, want %q", got, want)
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ client, in, want string }{
		{"psql", "Time: 0.146 ms\n", "Time: N ms\n"},
		{"psql", "List of relations\nSchema|Name|Type|Owner\npublic|t|table|alice\n(1 row)\nx|y|z|w\n",
			"List of relations\nSchema|Name|Type|Owner\npublic|t|table|<owner>\n(1 row)\nx|y|z|w\n"},
		{"jdbc", "row CARDINALITY=Float:0.0 PAGES=Integer:1 FILTER_CONDITION=null",
			"row CARDINALITY=<stat> PAGES=<stat> FILTER_CONDITION=null"},
		{"jdbc", `row REMARKS=String:rowkey (tenant, seq); families d (kind), m (note) TYPE_CAT=String:`,
			`row REMARKS=null TYPE_CAT=String:`},
		{"jdbc", `row REMARKS=String:my events\nrowkey (tenant, seq DESC) TYPE_CAT=String:`,
			`row REMARKS=String:my events TYPE_CAT=String:`},
		{"jdbc", `row REMARKS=String:Sales By Region TYPE_CAT=String:`,
			`row REMARKS=String:Sales By Region TYPE_CAT=String:`},
		{"pgx", "Time: 0.146 ms\n", "Time: 0.146 ms\n"},
	} {
		if got := normalize(tc.client, tc.in); got != tc.want {
			t.Errorf("normalize(%s, %q) =\n%q, want\n%q", tc.client, tc.in, got, tc.want)
		}
	}
}

func TestDiff(t *testing.T) {
	a := "## a\n1\n2\n## b\nx\n"
	b := "## a\n1\n3\n## b\nx\n"
	if got, want := firstDifference(a, b), "a"; got != want {
		t.Errorf("firstDifference = %q, want %q", got, want)
	}
	if got := firstDifference(a, a); got != "" {
		t.Errorf("firstDifference of equal transcripts = %q", got)
	}
	want := "  ## a\n  1\n- 2\n+ 3\n  ## b\n  x\n  \n"
	if got := unifiedDiff(a, b); got != want {
		t.Errorf("unifiedDiff =\n%s\nwant\n%s", got, want)
	}
	if got := hasError("## s\nerror 42P01 no\n"); got != "error 42P01 no" {
		t.Errorf("hasError = %q", got)
	}
}
