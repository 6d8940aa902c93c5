package exec

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
)

// explain renders a plan; with ANALYZE it first runs the plan to
// completion, collecting rows, kv rows and cells read, and time per node.
func (x *executor) explain(ctx context.Context, p *planner.Explain) ([]string, error) {
	if !p.Analyze {
		return planner.ExplainStatement(p, nil), nil
	}
	x.stats = map[planner.Plan]*nodeStats{}
	start := time.Now()
	switch in := p.Input.(type) {
	case *planner.Insert, *planner.Update, *planner.Delete, *planner.CreateTable, *planner.DropTable,
		*planner.CreateIndex, *planner.DropIndex:
		if _, _, err := x.write(ctx, in); err != nil {
			return nil, err
		}
	default:
		op, err := x.build(in)
		if err != nil {
			return nil, err
		}
		for {
			_, err := op.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				op.Close()
				return nil, err
			}
		}
		op.Close()
	}
	total := time.Since(start)
	lines := planner.ExplainStatement(p, func(n planner.Plan) string {
		st := x.stats[n]
		if st == nil {
			return ""
		}
		s := fmt.Sprintf("(actual rows=%d", st.rows)
		if s2, ok := n.(*planner.Scan); ok {
			if kvst := x.stats[scanStatsKey{s2}]; kvst != nil {
				s += readStatsText(kvst.read)
			}
			if par := x.stats[parallelStatsKey{s2}]; par != nil && par.workers > 0 {
				s += fmt.Sprintf(" workers=%d pieces=%d", par.workers, par.pieces)
			}
		}
		if lj, ok := n.(*planner.LookupJoin); ok {
			if kvst := x.stats[scanStatsKey{lj.Right}]; kvst != nil {
				s += readStatsText(kvst.read)
			}
		}
		if st.peakMem > 0 {
			s += " memory=" + spill.FormatBytes(st.peakMem)
		}
		if sp := st.spill; sp.Spilled {
			s += fmt.Sprintf(" spilled=%s", spill.FormatBytes(sp.BytesWritten))
			if sp.Runs > 0 {
				s += fmt.Sprintf(" runs=%d", sp.Runs)
			}
			if sp.Partitions > 0 {
				s += fmt.Sprintf(" partitions=%d", sp.Partitions)
			}
		}
		return s + fmt.Sprintf(" time=%s)", fmtDuration(st.elapsed))
	})
	lines = append(lines, "Execution Time: "+fmtDuration(total))
	return lines, nil
}

func fmtDuration(d time.Duration) string {
	return fmt.Sprintf("%.3fms", float64(d.Microseconds())/1000)
}

// readStatsText is EXPLAIN ANALYZE's account of a node's kv reads: rows
// and cells the store visited, and the rows its row cache answered.
func readStatsText(st kv.ReadStats) string {
	s := fmt.Sprintf(" rows_read=%d cells_read=%d", st.RowsRead, st.CellsRead)
	if st.CacheHits > 0 {
		s += fmt.Sprintf(" cache_hits=%d", st.CacheHits)
	}
	return s
}
