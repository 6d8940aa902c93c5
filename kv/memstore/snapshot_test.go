package memstore

import (
	"testing"

	"github.com/widesql/widesql/kv/internal/kvtest"
)

func TestSnapshot(t *testing.T) {
	s := New()
	defer s.Close()
	kvtest.RunSnapshot(t, s, nil)
}
