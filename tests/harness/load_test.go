package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestDataset(t *testing.T) {
	d := newDataset(2500)
	if d.perTenant != 1000 || d.fullTenants() != 2 {
		t.Fatalf("dataset(2500) = %+v, %d full tenants", d, d.fullTenants())
	}
	tn, id, grp, val, payload := d.row(0)
	if tn != 1 || id != 1 {
		t.Errorf("row 0 key = (%d, %d)", tn, id)
	}
	if tn, id, _, _, _ = d.row(2499); tn != 3 || id != 500 {
		t.Errorf("row 2499 key = (%d, %d), want (3, 500)", tn, id)
	}
	if grp < 0 || grp >= groups || val < 0 || val >= 1_000_000 || len(payload) != 64 {
		t.Errorf("row 0 = grp %d val %d payload %q", grp, val, payload)
	}
	_, _, g2, v2, p2 := d.row(0)
	if g2 != grp || v2 != val || p2 != payload {
		t.Error("rows are not deterministic")
	}
	// About 1% of rows match the filtered scan.
	big := newDataset(100_000)
	if c := big.filteredCount(); c < 800 || c > 1200 {
		t.Errorf("filteredCount = %d of 100,000, want about 1,000", c)
	}
	if small := newDataset(10); small.perTenant != 10 || small.fullTenants() != 1 {
		t.Errorf("dataset(10) = %+v", small)
	}
}

func TestTableDDL(t *testing.T) {
	pg := tableDDL("kv", false, true)
	if pg != "CREATE TABLE kv (tenant INT, id BIGINT, grp INT, val INT, payload TEXT, PRIMARY KEY (tenant, id))" {
		t.Errorf("PostgreSQL DDL = %s", pg)
	}
	if ws := tableDDL("kv", true, true); !strings.Contains(ws, "d.grp INT, d.val INT, p.payload TEXT") {
		t.Errorf("widesql DDL = %s", ws)
	}
	if ws := tableDDL("kv", true, false); ws != pg {
		t.Errorf("widesql DDL without families = %s", ws)
	}
}

func TestInsertSQL(t *testing.T) {
	want := "INSERT INTO kv (tenant, id, grp, val, payload) VALUES ($1,$2,$3,$4,$5),($6,$7,$8,$9,$10)"
	if got := insertSQL("kv", 2); got != want {
		t.Errorf("insertSQL = %s", got)
	}
}

func TestLoaderPlan(t *testing.T) {
	for _, c := range []struct {
		l    loader
		n    int
		want string
	}{
		// COPY: one contiguous share per connection, one statement each.
		{loader{copy: true, copyRows: 1_000_000, conns: 2}, 1000, "[[{0 500}] [{500 1000}]]"},
		// A share above copyRows goes as several statements.
		{loader{copy: true, copyRows: 300, conns: 2}, 1001, "[[{0 300} {300 500}] [{500 800} {800 1001}]]"},
		{loader{copy: true, copyRows: 10, conns: 3}, 2, "[[] [{0 1}] [{1 2}]]"},
		// INSERT: batches dealt round-robin in key order.
		{loader{batch: 400, conns: 2}, 1000, "[[{0 400} {800 1000}] [{400 800}]]"},
	} {
		if got := fmt.Sprint(c.l.plan(c.n)); got != c.want {
			t.Errorf("%+v.plan(%d) = %s, want %s", c.l, c.n, got, c.want)
		}
		total := 0
		for _, spans := range c.l.plan(c.n) {
			for _, sp := range spans {
				total += sp.hi - sp.lo
			}
		}
		if total != c.n {
			t.Errorf("%+v.plan(%d) covers %d rows", c.l, c.n, total)
		}
	}
}

func TestProfileFile(t *testing.T) {
	for name, want := range map[string]string{
		"point Get, -M prepared, 16 clients":                          "point-get-m-prepared-16-clients.pprof",
		"bulk load of 1,000,000 rows, COPY":                           "bulk-load-of-1-000-000-rows-copy.pprof",
		"filtered full scan, val < 10000 (9830 rows)":                 "filtered-full-scan-val-10000-9830-rows.pprof",
		"growth: point Get on 10,000,000 rows, -M prepared, 1 client": "growth-point-get-on-10-000-000-rows-m-prepared-1-client.pprof",
	} {
		if got := profileFile(name); got != want {
			t.Errorf("profileFile(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestScripts(t *testing.T) {
	d := newDataset(100_000)
	if got := pointGetScript("kv", d); !strings.Contains(got, `\set r random(0, 99999)`) ||
		!strings.Contains(got, `\set i :r % 1000 + 1`) || !strings.Contains(got, "FROM kv WHERE tenant = :t AND id = :i;") {
		t.Errorf("point get script:\n%s", got)
	}
	if got := multiGetScript(d); strings.Count(got, `\set i`) != 10 || !strings.Contains(got, "id IN (:i0, :i1") {
		t.Errorf("multi-get script:\n%s", got)
	}
	if got := rangeScript(d); !strings.Contains(got, `\set i random(1, 901)`) || !strings.Contains(got, "ORDER BY id;") {
		t.Errorf("range script:\n%s", got)
	}
}

func TestFindPGToolsMissing(t *testing.T) {
	_, err := findPGTools(t.TempDir())
	if err == nil {
		t.Fatal("found PostgreSQL in an empty directory")
	}
	for _, want := range []string{"missing initdb, postgres, pgbench", "apt-get install -y postgresql-15"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
