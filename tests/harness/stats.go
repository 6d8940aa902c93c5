package main

import (
	"bufio"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// median returns the median of xs (the mean of the middle two for an even
// count), or NaN for none. xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// percentile returns the nearest-rank p-th percentile (0 < p <= 100) of
// sorted, or NaN when sorted is empty. sorted must be in ascending order.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}

// ratio returns widesql/postgres, or NaN when either is not a positive
// finite number.
func ratio(widesql, postgres float64) float64 {
	if !(postgres > 0) || !(widesql >= 0) || math.IsInf(postgres, 0) || math.IsInf(widesql, 0) {
		return math.NaN()
	}
	return widesql / postgres
}

// advantage orients a widesql/PostgreSQL ratio so that above 1 always means
// widesql did better: the ratio itself when higher is better, its inverse
// when lower is better.
func advantage(r float64, higherBetter bool) float64 {
	if higherBetter || math.IsNaN(r) {
		return r
	}
	if r == 0 {
		return math.Inf(1)
	}
	return 1 / r
}

// pgbenchLatencies reads a pgbench per-transaction log (-l) and returns the
// latencies of its completed transactions in milliseconds, unsorted. Each
// line is "client_id transaction_no time script_no time_epoch time_us ...",
// where time is the latency in microseconds; lines whose time is not a
// number (skipped or failed transactions) are left out.
func pgbenchLatencies(r io.Reader) ([]float64, error) {
	var out []float64
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			continue
		}
		us, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			continue
		}
		out = append(out, us/1000)
	}
	return out, sc.Err()
}

// humanBytes formats n bytes in MiB (or KiB for small values).
func humanBytes(n int64) string {
	if n < 1<<20 {
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// formatNumber formats v with about three significant digits and thousands
// separators, e.g. 56512.3 -> "56,512", 1.2345 -> "1.23", 0.01234 -> "0.0123".
func formatNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	a := math.Abs(v)
	var s string
	switch {
	case a >= 1000:
		s = strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	case a >= 100:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1 || a == 0:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	default:
		d := int(-math.Floor(math.Log10(a))) + 2
		s = strconv.FormatFloat(v, 'f', d, 64)
	}
	return groupThousands(s)
}

// groupThousands inserts commas into the integer part of a formatted number.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + frac
}
