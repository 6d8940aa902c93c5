package sqlparse

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// TestLargeErrorIsFast guards the error-position mapping against quadratic
// behaviour on long statements.
func TestLargeErrorIsFast(t *testing.T) {
	q := "select " + strings.Repeat("a + ", 20000) + " from"
	start := time.Now()
	_, err := Parse(q)
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.CodeSyntaxError || pe.Position != len(q)-3 {
		t.Fatalf("got %v (%+v)", err, pe)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestPGTypeUnknown(t *testing.T) {
	_, _, err := PGType(types.NewFieldType(mysql.TypeYear))
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.CodeFeatureNotSupported || !strings.Contains(pe.Message, "year") {
		t.Fatalf("got %v", err)
	}
}
