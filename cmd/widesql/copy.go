package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// The import and export subcommands: clients of a running server that
// stream a file through COPY FROM STDIN / TO STDOUT.

const importUsage = `Usage:
  widesql import --table TABLE [flags] FILE

Loads FILE (CSV by default; - is standard input) into TABLE of a running
widesql server with COPY ... FROM STDIN. The load is one statement: bad
data loads nothing and reports its line.

Flags:
`

const exportUsage = `Usage:
  widesql export (--table TABLE | --query 'SELECT ...') [flags] [FILE|-]

Writes a table or a query's rows (CSV by default) to FILE or standard
output with COPY ... TO STDOUT.

Flags:
`

// copyFlags are the flags import and export share.
type copyFlags struct {
	addr, user, database, password, sslmode string
	table, columns, format, delimiter, null string
	header                                  bool
	nullSet                                 bool
}

func (c *copyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.addr, "addr", "127.0.0.1:5433", "address of the widesql server (host:port)")
	fs.StringVar(&c.user, "user", defaultUser(), "user name")
	fs.StringVar(&c.database, "database", "widesql", "database name")
	fs.StringVar(&c.password, "password", "", "password (default $PGPASSWORD)")
	fs.StringVar(&c.sslmode, "sslmode", "prefer", "TLS: disable, prefer, require, verify-ca or verify-full")
	fs.StringVar(&c.table, "table", "", "table name")
	fs.StringVar(&c.columns, "columns", "", "comma-separated column list (default: all columns, in order)")
	fs.StringVar(&c.format, "format", "csv", "data format: csv or text")
	fs.BoolVar(&c.header, "header", false, "the first line holds the column names")
	fs.StringVar(&c.delimiter, "delimiter", "", "column delimiter (default , for csv, tab for text)")
	fs.Func("null", "the string that stands for NULL (default empty for csv, \\N for text)", func(s string) error {
		c.null, c.nullSet = s, true
		return nil
	})
}

func defaultUser() string {
	if u := os.Getenv("PGUSER"); u != "" {
		return u
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "widesql"
}

// connect opens a protocol-level connection to the server.
func (c *copyFlags) connect(ctx context.Context) (*pgconn.PgConn, error) {
	host, port, err := net.SplitHostPort(c.addr)
	if err != nil {
		return nil, fmt.Errorf("bad --addr %q: %w", c.addr, err)
	}
	kv := []string{"host=" + connValue(host), "port=" + connValue(port), "user=" + connValue(c.user),
		"dbname=" + connValue(c.database), "sslmode=" + connValue(c.sslmode), "application_name=widesql"}
	if c.password != "" {
		kv = append(kv, "password="+connValue(c.password))
	}
	return pgconn.Connect(ctx, strings.Join(kv, " "))
}

// connValue quotes a keyword/value connection string value.
func connValue(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// options is the COPY option list the flags ask for.
func (c *copyFlags) options() (string, error) {
	f := strings.ToLower(c.format)
	if f != "csv" && f != "text" {
		return "", fmt.Errorf("bad --format %q: csv or text", c.format)
	}
	opts := []string{"FORMAT " + f}
	if c.header {
		opts = append(opts, "HEADER true")
	}
	if c.delimiter != "" {
		d := c.delimiter
		if d == `\t` {
			d = "\t"
		}
		opts = append(opts, "DELIMITER "+quoteLiteral(d))
	}
	if c.nullSet {
		opts = append(opts, "NULL "+quoteLiteral(c.null))
	}
	return "(" + strings.Join(opts, ", ") + ")", nil
}

// target is `table [(columns)]`, quoted.
func (c *copyFlags) target() string {
	var parts []string
	for _, p := range strings.Split(c.table, ".") {
		parts = append(parts, quoteIdent(p))
	}
	s := strings.Join(parts, ".")
	if c.columns != "" {
		var cols []string
		for _, col := range strings.Split(c.columns, ",") {
			cols = append(cols, quoteIdent(strings.TrimSpace(col)))
		}
		s += " (" + strings.Join(cols, ", ") + ")"
	}
	return s
}

func quoteIdent(s string) string   { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// copyCommand runs `widesql import|export args...` and returns the exit
// status.
func copyCommand(name string, args []string) int {
	fs := flag.NewFlagSet("widesql "+name, flag.ContinueOnError)
	var c copyFlags
	c.register(fs)
	query := ""
	usage := importUsage
	if name == "export" {
		fs.StringVar(&query, "query", "", "export the rows of this query instead of a table")
		usage = exportUsage
	}
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "widesql %s: %v\n", name, err)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Where != "" {
			fmt.Fprintf(os.Stderr, "CONTEXT: %s\n", pe.Where) // the line and column, as psql shows it
		}
		return 1
	}
	opts, err := c.options()
	if err != nil {
		return fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if name == "import" {
		if c.table == "" || fs.NArg() != 1 {
			fs.Usage()
			return 2
		}
		if err := runImport(ctx, &c, opts, fs.Arg(0)); err != nil {
			return fail(err)
		}
		return 0
	}
	if (c.table == "") == (query == "") || fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	src := "(" + query + ")"
	if c.table != "" {
		src = c.target()
	}
	out := "-"
	if fs.NArg() == 1 {
		out = fs.Arg(0)
	}
	if err := runExport(ctx, &c, "COPY "+src+" TO STDOUT "+opts, out); err != nil {
		return fail(err)
	}
	return 0
}

func runImport(ctx context.Context, c *copyFlags, opts, file string) error {
	var in io.Reader = os.Stdin
	var size int64
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		in = f
	}
	conn, err := c.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	cr := &countingReader{r: in}
	start := time.Now()
	if isTerminal(os.Stderr) {
		done := make(chan struct{})
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			progress(cr, size, start, done)
		}()
		defer func() { close(done); <-finished }()
	}
	tag, err := conn.CopyFrom(ctx, cr, "COPY "+c.target()+" FROM STDIN "+opts)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	n := tag.RowsAffected()
	fmt.Fprintf(os.Stderr, "\rimported %d rows in %s (%.0f rows/s)\x1b[K\n", n, elapsed.Round(time.Millisecond), float64(n)/max(elapsed.Seconds(), 1e-9))
	return nil
}

func runExport(ctx context.Context, c *copyFlags, sql, file string) error {
	var out io.Writer = os.Stdout
	var f *os.File
	if file != "-" {
		var err error
		if f, err = os.Create(file); err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	conn, err := c.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	start := time.Now()
	tag, err := conn.CopyTo(ctx, out, sql)
	if err != nil {
		return err
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return err
		}
	}
	elapsed := time.Since(start)
	fmt.Fprintf(os.Stderr, "exported %d rows in %s\n", tag.RowsAffected(), elapsed.Round(time.Millisecond))
	return nil
}

// countingReader counts the bytes and lines read through it, for the
// progress bar.
type countingReader struct {
	r            io.Reader
	bytes, lines atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bytes.Add(int64(n))
	c.lines.Add(int64(bytes.Count(p[:n], []byte{'\n'})))
	return n, err
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress redraws a progress line on stderr until done: bytes read of
// the file's size and lines per second (rows, unless values hold
// newlines).
func progress(cr *countingReader, size int64, start time.Time, done <-chan struct{}) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		read, lines := cr.bytes.Load(), cr.lines.Load()
		rate := float64(lines) / max(time.Since(start).Seconds(), 1e-9)
		bar := ""
		if size > 0 {
			const width = 30
			frac := min(float64(read)/float64(size), 1)
			fill := int(frac * width)
			bar = fmt.Sprintf("[%s%s] %3.0f%% ", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), frac*100)
		}
		total := "?"
		if size > 0 {
			total = mib(size)
		}
		fmt.Fprintf(os.Stderr, "\r%s%s / %s  %.0f rows/s\x1b[K", bar, mib(read), total, rate)
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
