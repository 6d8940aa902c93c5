package compat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/lib/pq"
)

// transcript collects what a Go client got, in the format the external
// clients print: "## step" headers, then lines.
type transcript struct {
	b strings.Builder
}

// run prints the step's header and runs body; an error becomes an
// "error SQLSTATE message" line and the scenario goes on.
func (tr *transcript) run(step string, body func() error) {
	tr.printf("## %s", step)
	if err := body(); err != nil {
		tr.printf("error %s", errorText(err))
	}
}

func (tr *transcript) printf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	tr.b.WriteString(strings.ReplaceAll(line, "\n", `\n`))
	tr.b.WriteByte('\n')
}

func (tr *transcript) String() string { return tr.b.String() }

// errorText renders an error as "SQLSTATE first-line-of-message", or the
// Go error when it carries no SQLSTATE.
func errorText(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code + " " + pgErr.Message
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		return string(pqErr.Code) + " " + pqErr.Message
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return "go " + msg
}

// sqlState returns err's SQLSTATE, "none" for nil, or "go" for an error
// that carries none.
func sqlState(err error) string {
	if err == nil {
		return "none"
	}
	code, _, _ := strings.Cut(errorText(err), " ")
	return code
}

// firstDifference returns the name of the first step whose lines differ
// between two transcripts, or "" when they are equal.
func firstDifference(want, got string) string {
	ws, gs := splitSteps(want), splitSteps(got)
	for i := 0; i < len(ws) || i < len(gs); i++ {
		switch {
		case i >= len(ws):
			return gs[i].name + " (only in widesql's transcript)"
		case i >= len(gs):
			return ws[i].name + " (missing from widesql's transcript)"
		case ws[i].name != gs[i].name || ws[i].body != gs[i].body:
			return ws[i].name
		}
	}
	return ""
}

// stepResults lists each step of want with "same" or "differs" (or
// "missing") in got, for the test log.
func stepResults(want, got string) string {
	gs := map[string]string{}
	for _, s := range splitSteps(got) {
		gs[s.name] = s.body
	}
	var b strings.Builder
	for _, s := range splitSteps(want) {
		g, ok := gs[s.name]
		verdict := "same"
		switch {
		case !ok:
			verdict = "MISSING"
		case g != s.body:
			verdict = "DIFFERS"
			if strings.HasPrefix(g, "error ") {
				verdict += ": " + strings.SplitN(g, "\n", 2)[0]
			}
		}
		fmt.Fprintf(&b, "  %-24s %s\n", s.name, verdict)
	}
	return b.String()
}

type step struct{ name, body string }

func splitSteps(tr string) []step {
	var steps []step
	for _, line := range strings.SplitAfter(tr, "\n") {
		if name, ok := strings.CutPrefix(line, "## "); ok {
			steps = append(steps, step{name: strings.TrimSpace(name)})
			continue
		}
		if len(steps) == 0 {
			steps = append(steps, step{name: "(preamble)"})
		}
		steps[len(steps)-1].body += line
	}
	return steps
}

// hasError reports the first error line of a transcript: the scenario must
// run cleanly against PostgreSQL.
func hasError(tr string) string {
	for _, line := range strings.Split(tr, "\n") {
		if strings.HasPrefix(line, "error ") || strings.HasPrefix(line, "fatal ") ||
			strings.Contains(line, ": ERROR:") || strings.HasPrefix(line, "## exit") {
			return line
		}
	}
	return ""
}

// unifiedDiff returns a line diff of a and b with three lines of context,
// "-" for lines only in a (PostgreSQL) and "+" for lines only in b
// (widesql). It is a longest-common-subsequence diff: the transcripts are a
// few hundred lines.
func unifiedDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	n, m := len(al), len(bl)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if al[i] == bl[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		line string
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && al[i] == bl[j]:
			ops = append(ops, op{' ', al[i]})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', al[i]})
			i++
		default:
			ops = append(ops, op{'+', bl[j]})
			j++
		}
	}
	// Print every change with up to three unchanged lines around it.
	const context = 3
	show := make([]bool, len(ops))
	for k := range ops {
		if ops[k].kind != ' ' {
			for c := max(0, k-context); c <= min(len(ops)-1, k+context); c++ {
				show[c] = true
			}
		}
	}
	var out strings.Builder
	for k := range ops {
		if !show[k] {
			continue
		}
		if k > 0 && !show[k-1] && out.Len() > 0 {
			out.WriteString("...\n")
		}
		fmt.Fprintf(&out, "%c %s\n", ops[k].kind, ops[k].line)
	}
	return out.String()
}
