//go:build !linux

package pgwire

import "net"

// newRawSocket returns nc: raw socket I/O (rawsock.go) is Linux only.
func newRawSocket(nc net.Conn) net.Conn { return nc }
