package exec

import (
	"context"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
)

// comment runs COMMENT ON: the comment is applied to the descriptor
// published now and the result published in its place, like an ALTER
// TABLE that touches no data. Comments are part of the catalog row, so
// they persist with the table and go with it when it is dropped.
func (x *executor) comment(ctx context.Context, p *planner.CommentOn) (string, []Row, error) {
	old, err := x.eng.cat.Table(p.Table)
	if err != nil {
		return "", nil, err
	}
	nw, err := p.Apply(old)
	if err != nil {
		return "", nil, err
	}
	if err := x.eng.cat.alter(ctx, old, nw, func(kv.Table) error { return nil }); err != nil {
		return "", nil, err
	}
	return "COMMENT", nil, nil
}
