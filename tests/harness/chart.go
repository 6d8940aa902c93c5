package main

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// chartBar is one bar: a metric of a workload and widesql's advantage
// (above 1: widesql better, see advantage).
type chartBar struct {
	label string
	adv   float64
}

// chartBars returns one bar per metric measured on both servers; failed
// workloads have no bar (they are in the table as FAILED).
func chartBars(results []result) []chartBar {
	var bars []chartBar
	for _, res := range results {
		if res.pg.err != nil || res.ws.err != nil {
			continue
		}
		for _, m := range res.metrics {
			a := advantage(ratio(res.ws.median(m.name), res.pg.median(m.name)), m.higherBetter)
			if math.IsNaN(a) {
				continue
			}
			bars = append(bars, chartBar{label: res.name + ": " + m.name, adv: a})
		}
	}
	return bars
}

// drawChart draws bars as a horizontal bar chart of log2(advantage) with a
// line at 1.0 (parity) and writes it as a PNG to path. Green bars (right of
// the line) are where widesql did better, red ones where PostgreSQL did.
func drawChart(bars []chartBar, title, path string) error {
	if len(bars) == 0 {
		return fmt.Errorf("no workload measured on both servers: nothing to chart")
	}
	n := len(bars)
	better := make(plotter.Values, n)
	worse := make(plotter.Values, n)
	labels := make([]string, n)
	limit := 1.0
	for i, b := range bars {
		at := n - 1 - i // first workload on top
		v := math.Log2(b.adv)
		v = math.Max(-8, math.Min(8, v)) // clamp to 1/256..256
		if v >= 0 {
			better[at] = v
		} else {
			worse[at] = v
		}
		labels[at] = fmt.Sprintf("%s (%s)", b.label, formatNumber(b.adv))
		limit = math.Max(limit, math.Ceil(math.Abs(v)))
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "widesql advantage over PostgreSQL, log scale (> 1: widesql better; times and latencies inverted)"
	p.X.Min, p.X.Max = -limit, limit
	var ticks []plot.Tick
	for e := -int(limit); e <= int(limit); e++ {
		ticks = append(ticks, plot.Tick{Value: float64(e), Label: tickLabel(e)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	width := vg.Points(9)
	for _, spec := range []struct {
		vals plotter.Values
		c    color.Color
	}{{better, color.RGBA{R: 0x2e, G: 0x8b, B: 0x57, A: 0xff}}, {worse, color.RGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}}} {
		bc, err := plotter.NewBarChart(spec.vals, width)
		if err != nil {
			return err
		}
		bc.Horizontal = true
		bc.Color = spec.c
		bc.LineStyle.Width = 0
		p.Add(bc)
	}
	parity, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(n) - 0.5}})
	if err != nil {
		return err
	}
	parity.LineStyle.Width = vg.Points(1.5)
	p.Add(parity, plotter.NewGrid())
	p.NominalY(labels...)
	height := vg.Length(n)*vg.Points(14) + 2*vg.Inch
	return p.Save(13*vg.Inch, height, path)
}

// tickLabel labels the log2 tick e as the ratio 2^e ("1/4", "1", "8").
func tickLabel(e int) string {
	if e >= 0 {
		return strconv.Itoa(1 << e)
	}
	return "1/" + strconv.Itoa(1<<-e)
}
