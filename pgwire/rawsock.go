//go:build linux

package pgwire

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
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
	// One read and one write at a time, each with its state in the
	// struct and its callback bound once: a closure per call, with its
	// captured results, cost three allocations per Read or Write, where
	// net.Conn's cost none. The mutexes keep net.Conn's promise that
	// Read and Write may be called from several goroutines.
	rmu, wmu        sync.Mutex
	rd, wr          rawOp
	readFn, writeFn func(fd uintptr) bool
}

// rawOp is one Read's or Write's state: its buffer, the bytes done and
// the system call's error.
type rawOp struct {
	buf   []byte
	n     int
	errno syscall.Errno
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
	s := &rawSocket{Conn: nc, rc: rc}
	s.readFn, s.writeFn = s.rd.read, s.wr.write
	return s
}

// rawRW makes one read or write system call (trap) of b on fd, again
// when a signal interrupted it.
func rawRW(trap, fd uintptr, b []byte) (int, syscall.Errno) {
	for {
		r, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if e != syscall.EINTR {
			return int(r), e
		}
	}
}

// read is RawConn.Read's callback: false (wait in the poller) while there
// is nothing to read.
func (o *rawOp) read(fd uintptr) bool {
	n, e := rawRW(syscall.SYS_READ, fd, o.buf)
	if e == syscall.EAGAIN {
		return false
	}
	if e == 0 {
		o.n = n
	}
	o.errno = e
	return true
}

// write is RawConn.Write's callback: false (wait in the poller) while the
// send buffer is full.
func (o *rawOp) write(fd uintptr) bool {
	for o.n < len(o.buf) {
		n, e := rawRW(syscall.SYS_WRITE, fd, o.buf[o.n:])
		switch e {
		case 0:
			o.n += n
		case syscall.EAGAIN:
			return false
		default:
			o.errno = e
			return true
		}
	}
	return true
}

func (s *rawSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.rmu.Lock()
	defer s.rmu.Unlock()
	s.rd = rawOp{buf: p}
	err := s.rc.Read(s.readFn)
	n, errno := s.rd.n, s.rd.errno
	s.rd.buf = nil // keep no caller's buffer
	if err != nil || errno != 0 {
		return 0, s.opError("read", err, errno)
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (s *rawSocket) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.wr = rawOp{buf: p}
	err := s.rc.Write(s.writeFn)
	done, errno := s.wr.n, s.wr.errno
	s.wr.buf = nil
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
