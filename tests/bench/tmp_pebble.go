package bench

import (
	_ "github.com/cockroachdb/pebble/v2"
	_ "github.com/widesql/widesql/kv"
)
