//go:build linux

package pgwire

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawSocket is a TCP or Unix socket whose reads and writes enter the
// kernel without the Go scheduler's syscall bookkeeping
// (entersyscall/exitsyscall). The socket is non-blocking (Go's poller set
// it so), so a read or write never blocks in the kernel: it returns
// EAGAIN and the goroutine waits in the poller as net.Conn's would, with
// the same deadlines. Why: on a request/response connection every read
// and write through syscall.Syscall wakes the runtime's sysmon thread when
// the server was idle, a futex wake and a thread that then polls every
// 20 µs; with one client that was a quarter of the server's CPU samples,
// and going around it took a point Get from 48 to 30 µs of server CPU
// (see docs/BENCHMARKS.md, round 12).
type rawSocket struct {
	net.Conn
	rc syscall.RawConn
}

// newRawSocket wraps nc when it is a plain socket; anything else (a TLS
// connection, a test pipe) is returned as it is. nc must come from a
// net.Listener, whose sockets Go makes non-blocking: a blocking file
// descriptor would hold its thread and P inside the kernel.
func newRawSocket(nc net.Conn) net.Conn {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	return &rawSocket{Conn: nc, rc: rc}
}

func (s *rawSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := 0
	var errno syscall.Errno
	err := s.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case 0:
				n = int(r)
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // nothing to read yet: wait in the poller
			default:
				errno = e
			}
			return true
		}
	})
	if err != nil || errno != 0 {
		return 0, s.opError("read", err, errno)
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (s *rawSocket) Write(p []byte) (int, error) {
	done := 0
	var errno syscall.Errno
	err := s.rc.Write(func(fd uintptr) bool {
		for done < len(p) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[done])), uintptr(len(p)-done))
			switch e {
			case 0:
				done += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // the send buffer is full: wait in the poller
			default:
				errno = e
				return true
			}
		}
		return true
	})
	if err != nil || errno != 0 {
		return done, s.opError("write", err, errno)
	}
	return done, nil
}

// opError is the error net.Conn's Read or Write would return: a
// *net.OpError holding the poller's error (a deadline, a closed
// connection) or the system call's.
func (s *rawSocket) opError(op string, err error, errno syscall.Errno) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		err = oe.Err // RawConn's own "raw-read"/"raw-write" wrapping
	}
	if err == nil {
		err = os.NewSyscallError(op, errno)
	}
	return &net.OpError{Op: op, Net: s.LocalAddr().Network(), Source: s.LocalAddr(), Addr: s.RemoteAddr(), Err: err}
}
