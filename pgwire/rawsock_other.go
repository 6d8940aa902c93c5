//go:build !linux

package pgwire

import "net"

// newRawSocket returns nc: raw socket I/O (rawsock.go), and with it the
// busy poll, is Linux only.
func newRawSocket(nc net.Conn, _ *busyPoll) net.Conn { return nc }
