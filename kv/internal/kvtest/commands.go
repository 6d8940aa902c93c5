package kvtest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// Harness adapts an engine to the suite.
type Harness struct {
	// Open returns a new, empty store.
	Open func(t *testing.T) kv.Store
	// Command runs an engine-specific command (flush, restart, ...) on the
	// current store and returns the store to use from then on; handled is
	// false for a command it does not know.
	Command func(s kv.Store, cmd string) (next kv.Store, out string, err error, handled bool)
	// AfterApply, if set, runs after every successful apply and returns the
	// store to use from then on: a mode that, for instance, flushes or
	// restarts after each write must not change any result.
	AfterApply func(s kv.Store) (kv.Store, error)
	// ErrorPrefix is the engine's error prefix ("memstore: "), stripped
	// from messages so that engines compare equal.
	ErrorPrefix string
	// IgnoreStats drops the "stats" lines of reads from the comparison:
	// they count work done, which differs between engines.
	IgnoreStats bool
	// Rewrite lets -rewrite rewrite the expected output (one engine only).
	Rewrite bool
}

// Run runs every testdata/*.txt file of dir against fresh stores of h.
func Run(t *testing.T, dir string, h Harness) {
	walkTestdata(t, dir, func(t *testing.T, path string) {
		s := h.Open(t)
		defer func() {
			if s != nil {
				s.Close()
			}
		}()
		runDataDriven(t, path, func(tc *testCase) string {
			out, err := h.run(t, &s, tc)
			if err != nil {
				out += formatError(err, h.ErrorPrefix)
			}
			if h.IgnoreStats {
				out, tc.expected = dropStats(out), dropStats(tc.expected)
				if tc.expected == "" {
					tc.expected = "ok"
				}
			}
			return out
		}, h.Rewrite)
	})
}

func (h *Harness) run(t *testing.T, s *kv.Store, tc *testCase) (string, error) {
	cmd := strings.Fields(tc.cmd)[0]
	if h.Command != nil {
		if next, out, err, ok := h.Command(*s, cmd); ok {
			*s = next
			return out, err
		}
	}
	out, err := runCommand(*s, tc)
	if err == nil && cmd == "apply" && h.AfterApply != nil {
		*s, err = h.AfterApply(*s)
	}
	return out, err
}

// args splits "cmd word key=value ..." into the command, its positional
// words and its key=value options.
func args(line string) (cmd string, words []string, opts map[string]string) {
	fields := strings.Fields(line)
	opts = map[string]string{}
	for _, f := range fields[1:] {
		if k, v, ok := strings.Cut(f, "="); ok {
			opts[k] = v
		} else {
			words = append(words, f)
		}
	}
	return fields[0], words, opts
}

func runCommand(s kv.Store, tc *testCase) (string, error) {
	ctx := context.Background()
	cmd, words, opts := args(tc.cmd)
	name := ""
	if len(words) > 0 && words[0] != `""` {
		name = words[0]
	}
	switch cmd {
	case "create":
		return "", s.CreateTable(ctx, name, parseSpec(opts))
	case "setfamilies", "split", "regions":
		return runAdmin(ctx, s, cmd, name, opts)
	case "drop":
		return "", s.DropTable(ctx, name)
	case "list":
		names, err := s.ListTables(ctx)
		if err != nil {
			return "", err
		}
		return "[" + strings.Join(names, " ") + "]", nil
	case "close":
		return "", s.Close()
	case "apply":
		tbl, err := s.Table(ctx, name)
		if err != nil {
			return "", err
		}
		batch, err := parseBatch(tc.input)
		if err != nil {
			return "", err
		}
		return "", tbl.Apply(ctx, batch)
	case "read", "dump":
		tbl, err := s.Table(ctx, name)
		if err != nil {
			return "", err
		}
		var flags []string
		if len(words) > 1 {
			flags = words[1:]
		}
		rs, ro, err := parseRead(opts, flags)
		if cmd == "dump" {
			ro.MaxVersions = 1 << 20
		}
		if err != nil {
			return "", err
		}
		return formatRead(tbl.Read(ctx, rs, ro), cmd == "read")
	}
	return "", fmt.Errorf("unknown command %q", cmd)
}

// parseSpec parses families=a,b versions=a:3,b:2 ttl=a:1h
// compression=a:zstd bloom=a:none split=k1,k2.
func parseSpec(opts map[string]string) kv.TableSpec {
	var spec kv.TableSpec
	if opts["families"] != "" {
		for _, f := range strings.Split(opts["families"], ",") {
			spec.Families = append(spec.Families, kv.Family{Name: f})
		}
	}
	perFamily := func(opt string, set func(f *kv.Family, v string)) {
		for _, fv := range strings.Split(opts[opt], ",") {
			f, v, _ := strings.Cut(fv, ":")
			for i := range spec.Families {
				if spec.Families[i].Name == f {
					set(&spec.Families[i], v)
				}
			}
		}
	}
	perFamily("versions", func(f *kv.Family, v string) { f.MaxVersions, _ = strconv.Atoi(v) })
	perFamily("ttl", func(f *kv.Family, v string) { f.TTL, _ = time.ParseDuration(v) })
	perFamily("compression", func(f *kv.Family, v string) { f.Compression = v })
	perFamily("bloom", func(f *kv.Family, v string) { f.Bloom = v })
	if v := opts["split"]; v != "" {
		for _, k := range strings.Split(v, ",") {
			spec.SplitKeys = append(spec.SplitKeys, []byte(k))
		}
	}
	return spec
}

// runAdmin runs the kv.Admin commands:
//
//	setfamilies t families=... (options as for create)
//	split t keys=k1,k2
//	regions t         (the region boundaries, one per line)
//
// Region load is not printed: it depends on the engine and on restarts;
// RunAdmin tests it.
func runAdmin(ctx context.Context, s kv.Store, cmd, name string, opts map[string]string) (string, error) {
	a, ok := s.(kv.Admin)
	if !ok {
		return "", fmt.Errorf("%T is not a kv.Admin", s)
	}
	switch cmd {
	case "setfamilies":
		return "", a.SetFamilies(ctx, name, parseSpec(opts).Families)
	case "split":
		var keys [][]byte
		for _, k := range strings.Split(opts["keys"], ",") {
			keys = append(keys, []byte(k))
		}
		return "", a.Split(ctx, name, keys)
	}
	regions, err := a.Regions(ctx, name)
	var b strings.Builder
	for _, r := range regions {
		fmt.Fprintf(&b, "[%s, %s)\n", r.Start, r.End)
	}
	return b.String(), err
}

// parseBatch parses one RowMutation per line:
//
//	key [require=absent|present[:fam:qual]] mutation; mutation; ...
//
// where fam:qual makes the precondition RequireColumn's;
// with mutations "set fam:qual@ts=value", "del fam:qual[@[start,end)]",
// "delfam fam" and "delrow".
func parseBatch(lines []string) ([]kv.RowMutation, error) {
	var batch []kv.RowMutation
	for _, line := range lines {
		key, rest, _ := strings.Cut(line, " ")
		rm := kv.RowMutation{Key: []byte(key)}
		if key == `""` {
			rm.Key = nil
		}
		if r, ok := strings.CutPrefix(rest, "require="); ok {
			req, after, _ := strings.Cut(r, " ")
			rest = after
			req, col, hasCol := strings.Cut(req, ":")
			if hasCol {
				fam, qual, _ := strings.Cut(col, ":")
				rm.RequireColumn = &kv.Column{Family: fam, Qualifier: []byte(qual)}
			}
			switch req {
			case "absent":
				rm.Require = kv.RequireAbsent
			case "present":
				rm.Require = kv.RequirePresent
			case "none":
			default:
				return nil, fmt.Errorf("bad require %q", req)
			}
		}
		for _, ms := range strings.Split(rest, ";") {
			m, err := parseMutation(strings.TrimSpace(ms))
			if err != nil {
				return nil, err
			}
			rm.Mutations = append(rm.Mutations, m)
		}
		batch = append(batch, rm)
	}
	return batch, nil
}

func parseMutation(s string) (kv.Mutation, error) {
	op, arg, _ := strings.Cut(s, " ")
	switch op {
	case "set":
		addr, val, _ := strings.Cut(arg, "=")
		fam, qual, _ := strings.Cut(addr, ":")
		i := strings.LastIndex(qual, "@")
		if i < 0 {
			return kv.Mutation{}, fmt.Errorf("set needs @ts: %q", s)
		}
		ts, err := strconv.ParseInt(qual[i+1:], 10, 64)
		return kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: []byte(qual[:i]), Timestamp: kv.Timestamp(ts), Value: []byte(val)}, err
	case "del":
		fam, qual, _ := strings.Cut(arg, ":")
		m := kv.Mutation{Kind: kv.DeleteCells, Family: fam, Qualifier: []byte(qual)}
		if i := strings.LastIndex(qual, "@["); i >= 0 {
			m.Qualifier = []byte(qual[:i])
			lo, hi, _ := strings.Cut(strings.TrimSuffix(qual[i+2:], ")"), ",")
			m.Start, m.End = parseTS(lo), parseTS(hi)
		}
		return m, nil
	case "delfam":
		return kv.Mutation{Kind: kv.DeleteFamily, Family: arg}, nil
	case "delrow":
		return kv.Mutation{Kind: kv.DeleteRow}, nil
	}
	return kv.Mutation{}, fmt.Errorf("unknown mutation %q", s)
}

func parseTS(s string) kv.Timestamp {
	n, _ := strconv.ParseInt(s, 10, 64)
	return kv.Timestamp(n)
}

// parseRead parses keys=a,b ranges=[a,c),[,b) families=a,b columns=a:q,b:r
// versions=N mints=T maxts=T limit=N and the flag reverse.
func parseRead(opts map[string]string, flags []string) (kv.RowSet, kv.ReadOptions, error) {
	var rs kv.RowSet
	var ro kv.ReadOptions
	if v := opts["keys"]; v != "" {
		for _, k := range strings.Split(v, ",") {
			rs.Keys = append(rs.Keys, []byte(k))
		}
	}
	if v := opts["ranges"]; v != "" {
		for _, r := range strings.Split(v, "),") {
			lo, hi, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(r, "["), ")"), ",")
			var kr kv.KeyRange
			if lo != "" {
				kr.Start = []byte(lo)
			}
			if hi != "" {
				kr.End = []byte(hi)
			}
			rs.Ranges = append(rs.Ranges, kr)
		}
	}
	if v := opts["families"]; v != "" {
		ro.Families = strings.Split(v, ",")
	}
	if v := opts["columns"]; v != "" {
		for _, c := range strings.Split(v, ",") {
			f, q, _ := strings.Cut(c, ":")
			ro.Columns = append(ro.Columns, kv.Column{Family: f, Qualifier: []byte(q)})
		}
	}
	ro.MaxVersions, _ = strconv.Atoi(opts["versions"])
	ro.MinTimestamp, ro.MaxTimestamp = parseTS(opts["mints"]), parseTS(opts["maxts"])
	ro.Limit, _ = strconv.ParseInt(opts["limit"], 10, 64)
	for _, f := range flags {
		if f != "reverse" {
			return rs, ro, fmt.Errorf("unknown flag %q", f)
		}
		ro.Reverse = true
	}
	return rs, ro, nil
}

func formatRead(it kv.RowIterator, withStats bool) (string, error) {
	defer it.Close()
	var b strings.Builder
	for it.Next() {
		r := it.Row()
		b.WriteString(string(r.Key) + "\n")
		for _, c := range r.Cells {
			fmt.Fprintf(&b, "  %s:%s@%d=%s\n", c.Family, c.Qualifier, c.Timestamp, c.Value)
		}
	}
	if b.Len() == 0 && !withStats {
		b.WriteString("(empty)\n")
	}
	if withStats {
		st := it.Stats()
		fmt.Fprintf(&b, "stats rows=%d cells=%d\n", st.RowsRead, st.CellsRead)
	}
	return b.String(), it.Err()
}

var sentinels = []struct {
	name string
	err  error
}{
	{"ErrTableExists", kv.ErrTableExists},
	{"ErrTableNotFound", kv.ErrTableNotFound},
	{"ErrFamilyNotFound", kv.ErrFamilyNotFound},
	{"ErrConditionFailed", kv.ErrConditionFailed},
	{"ErrInvalidArgument", kv.ErrInvalidArgument},
	{"ErrClosed", kv.ErrClosed},
}

// formatError prints err with the sentinels it matches, and the index and
// key of a *kv.ConditionError.
func formatError(err error, prefix string) string {
	var matched []string
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			matched = append(matched, s.name)
		}
	}
	msg := err.Error()
	if prefix != "" {
		msg = strings.TrimPrefix(msg, prefix)
	}
	out := fmt.Sprintf("error %v: %v", matched, msg)
	if ce := (*kv.ConditionError)(nil); errors.As(err, &ce) {
		out += fmt.Sprintf("\ncondition failed at index=%d key=%s", ce.Index, ce.Key)
	}
	return out
}

func dropStats(s string) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if !strings.HasPrefix(l, "stats ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
