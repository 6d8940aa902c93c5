package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/syscat"
)

// catalogScan reads a pg_catalog or information_schema relation: its rows
// are derived from the live catalog when the scan starts, then filtered.
func (x *executor) catalogScan(p *planner.Scan) (operator, error) {
	rel := p.Table.Sys
	return &listOp{x: x, p: p, load: func(ctx context.Context) ([]Row, error) { return x.catalogRows(ctx, rel) }}, nil
}

// listOp is the scan of a system view whose rows are computed in memory
// at once (the catalogs, widesql.regions): load runs on the first Next,
// and the scan's filter applies to each row.
type listOp struct {
	x      *executor
	p      *planner.Scan
	load   func(context.Context) ([]Row, error)
	loaded bool
	rows   []Row
}

func (o *listOp) Next(ctx context.Context) (Row, error) {
	if !o.loaded {
		o.loaded = true
		rows, err := o.load(ctx)
		if err != nil {
			return nil, err
		}
		o.rows = rows
	}
	for len(o.rows) > 0 {
		r := o.rows[0]
		o.rows = o.rows[1:]
		if o.p.Filter != nil {
			ok, err := evalBool(o.p.Filter, r, o.x.env)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		return r, nil
	}
	return nil, io.EOF
}

func (o *listOp) Close() { o.rows = nil }

// catalogRows derives the rows of a system relation, one Row per tuple
// with every column of rel in order.
func (x *executor) catalogRows(ctx context.Context, rel *syscat.Relation) ([]Row, error) {
	switch rel.Schema {
	case syscat.PgCatalog:
		return x.pgCatalogRows(ctx, rel) // pgcatalog_rows.go
	case syscat.InformationSchema:
		return x.infoSchemaRows(ctx, rel) // infoschema.go
	}
	return nil, pgerror.New(pgerror.CodeInternalError, "unknown system schema %q", rel.Schema)
}
