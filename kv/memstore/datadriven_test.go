package memstore

import (
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/internal/kvtest"
)

// TestDataDriven runs the kv conformance suite (kv/internal/kvtest) on the
// testdata files that every engine shares; memstore's output is the
// reference, rewritten with -rewrite.
func TestDataDriven(t *testing.T) {
	kvtest.Run(t, "testdata", kvtest.Harness{
		Open:        func(*testing.T) kv.Store { return New() },
		ErrorPrefix: "memstore: ",
		Rewrite:     true,
	})
}
