package exec_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/pgwire"
)

// TestPortalRelease checks the reuse of released portals
// (pgwire.PortalReleaser): a released portal becomes its statement's spare
// for the next Bind, which must see its own parameters, result formats and
// rows, and must not disturb another portal of the statement still open;
// a portal is reused only after Release, never after Close alone; a
// cursor statement's portal, whose parameters the cursor keeps, is not
// reused.
func TestPortalRelease(t *testing.T) {
	ctx := context.Background()
	c := memSessionClient(t)
	for _, q := range []string{
		"CREATE TABLE rl (a INT, b INT, v TEXT, PRIMARY KEY (a, b))",
		"INSERT INTO rl SELECT g / 10, g % 10, 'v' || g FROM generate_series(0, 99) g",
	} {
		if _, _, _, err := c.run(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	bind := func(p pgwire.Prepared, formats []int16, args ...any) pgwire.Portal {
		t.Helper()
		raw := make([][]byte, len(args))
		for i, a := range args {
			if a != nil {
				raw[i] = []byte(fmt.Sprint(a))
			}
		}
		pt, err := p.Bind(ctx, raw, nil, formats)
		if err != nil {
			t.Fatal(err)
		}
		return pt
	}
	// rows drains pt and returns its rows (values joined by commas, a
	// binary value in hex) and its tag; it leaves pt open.
	rows := func(pt pgwire.Portal) string {
		t.Helper()
		var out []string
		for {
			vals, err := pt.Next(ctx)
			if errors.Is(err, io.EOF) {
				return strings.Join(out, " ") + " / " + pt.Tag()
			}
			if err != nil {
				return "error: " + err.Error()
			}
			var r []string
			for _, v := range vals {
				r = append(r, fmt.Sprintf("%q", v))
			}
			out = append(out, strings.Join(r, ","))
		}
	}
	release := func(pt pgwire.Portal) {
		pt.Close()
		pt.(pgwire.PortalReleaser).Release()
	}
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %s, want %s", what, got, want)
		}
	}

	get := exec.MustPrepare(t, c.s, "SELECT v, b FROM rl WHERE a = $1 AND b = $2")
	p1 := bind(get, nil, 1, 2)
	check("p1", rows(p1), `"v12","2" / SELECT 1`)
	p1.Close()
	p2 := bind(get, nil, 3, 4)
	if p2 == p1 {
		t.Fatal("a portal closed but not released was reused")
	}
	release(p1)
	// p2 stays open while the released p1 is bound again.
	p3 := bind(get, []int16{1}, 5, 6)
	if p3 != p1 {
		t.Error("the released portal was not reused")
	}
	check("p3 formats", fmt.Sprint(p3.ResultFormats()), "[1 1]")
	check("p3 binary", rows(p3), `"v56","\x00\x00\x00\x06" / SELECT 1`)
	check("p2 after p3", rows(p2), `"v34","4" / SELECT 1`)
	release(p3)
	release(p2) // the statement has a spare already: p2 is dropped
	p4 := bind(get, nil, 7, nil)
	if p4 != p3 {
		t.Error("the spare was not reused")
	}
	check("p4 NULL key", rows(p4), ` / SELECT 0`)
	release(p4)
	p5 := bind(get, nil, 9, 9)
	check("p5", rows(p5), `"v99","9" / SELECT 1`)
	check("p5 text formats", fmt.Sprint(p5.ResultFormats()), "[0 0]")
	release(p5)
	// A failed Bind leaves the spare alone.
	if _, err := get.Bind(ctx, [][]byte{[]byte("x"), []byte("1")}, nil, nil); err == nil {
		t.Fatal("Bind of a bad integer succeeded")
	}
	check("after a failed bind", rows(bind(get, nil, 0, 1)), `"v1","1" / SELECT 1`)

	// A cursor keeps the parameters of the portal that declared it.
	if _, _, _, err := c.run(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	decl := exec.MustPrepare(t, c.s, "DECLARE cur CURSOR FOR SELECT v FROM rl WHERE a = $1 AND b = $2")
	pd := bind(decl, nil, 4, 2)
	check("declare", rows(pd), ` / DECLARE CURSOR`)
	release(pd)
	// Another Bind of the statement, not run: its parameters would
	// overwrite the cursor's if the declaring portal had been reused.
	pd2 := bind(decl, nil, 9, 9)
	if pd2 == pd {
		t.Error("a cursor statement's portal was reused")
	}
	release(pd2)
	_, got, _, err := c.run(ctx, "FETCH ALL FROM cur")
	if err != nil {
		t.Fatal(err)
	}
	check("fetch", fmt.Sprint(got), "[[v42]]")
	if _, _, _, err := c.run(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
}
