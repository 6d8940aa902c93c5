//go:build linux

package pgwire

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
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
// (see docs/BENCHMARKS.md, round 12). A read that finds nothing may poll
// the socket before it waits (busypoll.go).
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
	poll            *busyPoll // nil: never poll (busypoll.go)
	closeOnce       sync.Once
}

// rawOp is one Read's or Write's state: its buffer, the bytes done and
// the system call's error. A Read's op also keeps its wait for the busy
// poll: when it first found nothing to read, whether that wait teaches
// the poll budget, and whether polling caught the message.
type rawOp struct {
	buf     []byte
	n       int
	errno   syscall.Errno
	poll    *busyPoll
	waitAt  time.Time // zero until a read found nothing
	counted bool
	caught  bool
	polled  time.Duration // how long the poll ran (tests)
}

// newRawSocket wraps nc when it is a plain socket; anything else (a TLS
// connection, a test pipe) is returned as it is. nc must come from a
// net.Listener, whose sockets Go makes non-blocking: a blocking file
// descriptor would hold its thread and P inside the kernel.
// poll is the server's busy polling, or nil for none.
func newRawSocket(nc net.Conn, poll *busyPoll) net.Conn {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	s := &rawSocket{Conn: nc, rc: rc, poll: poll}
	s.readFn, s.writeFn = s.rd.read, s.wr.write
	poll.opened()
	return s
}

// Close closes the socket; the first call also stops counting it as a
// connection the busy poll waits for.
func (s *rawSocket) Close() error {
	s.closeOnce.Do(s.poll.closed)
	return s.Conn.Close()
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
// is nothing to read. The first time it finds nothing it may poll the
// socket first (busypoll.go).
func (o *rawOp) read(fd uintptr) bool {
	n, e := rawRW(syscall.SYS_READ, fd, o.buf)
	if e == syscall.EAGAIN && o.waitAt.IsZero() && o.poll != nil {
		n, e = o.pollRead(fd)
	}
	if e == syscall.EAGAIN {
		return false
	}
	if e == 0 {
		o.n = n
	}
	o.errno = e
	return true
}

// pollRead starts the op's wait: when the busy poll lets it, it reads
// again until a message comes, the budget is spent or another connection
// gets work.
func (o *rawOp) pollRead(fd uintptr) (int, syscall.Errno) {
	o.waitAt = time.Now()
	budget, counted, poll := o.poll.begin()
	o.counted = counted
	if !poll {
		return 0, syscall.EAGAIN
	}
	defer o.poll.end()
	for {
		o.polled = time.Since(o.waitAt)
		if o.polled >= budget || !o.poll.idle() {
			return 0, syscall.EAGAIN
		}
		n, e := rawRW(syscall.SYS_READ, fd, o.buf)
		if e != syscall.EAGAIN {
			o.caught = true
			return n, e
		}
	}
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
	s.rd = rawOp{buf: p, poll: s.poll}
	s.poll.enter()
	err := s.rc.Read(s.readFn)
	s.poll.leave()
	n, errno := s.rd.n, s.rd.errno
	if s.rd.counted && err == nil && errno == 0 && n > 0 {
		// Only a message teaches the budget: not a hang-up, not an error.
		s.poll.learn(time.Since(s.rd.waitAt), s.rd.caught)
	}
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
