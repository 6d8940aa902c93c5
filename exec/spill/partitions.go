package spill

import "github.com/widesql/widesql/planner/types"

// Partitions spreads rows over n files by a partition number the caller
// computes (a hash of the grouping or join key, so that equal keys meet in
// one partition). Rows are read back one partition at a time.
type Partitions struct {
	types []types.T
	dir   string
	files []*rowFile
	stats Stats
}

// NewPartitions returns n empty partitions of rows of column types ts.
func NewPartitions(n int, ts []types.T, dir string) *Partitions {
	return &Partitions{types: ts, dir: dir, files: make([]*rowFile, n), stats: Stats{Partitions: n}}
}

// Len returns the number of partitions.
func (p *Partitions) Len() int { return len(p.files) }

// Add writes row to partition i.
func (p *Partitions) Add(i int, row []types.Datum) error {
	rf := p.files[i]
	if rf == nil {
		var err error
		if rf, err = newRowFile(p.dir, p.types); err != nil {
			return err
		}
		p.files[i] = rf
	}
	before := rf.bytes
	if err := rf.add(row); err != nil {
		return err
	}
	p.stats.Spilled = true
	p.stats.RowsWritten++
	p.stats.BytesWritten += rf.bytes - before
	return nil
}

// Rows returns the number of rows in partition i.
func (p *Partitions) Rows(i int) int64 {
	if p.files[i] == nil {
		return 0
	}
	return p.files[i].rows
}

// Read returns an iterator over partition i's rows in the order added.
// Each call starts from the first row; no Add may follow a Read.
func (p *Partitions) Read(i int) (Iterator, error) {
	if p.files[i] == nil {
		return &sliceIter{}, nil
	}
	rr, err := p.files[i].reader()
	if err != nil {
		return nil, err
	}
	return readerIter{rr}, nil
}

type readerIter struct{ r *rowReader }

func (it readerIter) Next() ([]types.Datum, error) { return it.r.next() }

// Stats returns what the partitions hold.
func (p *Partitions) Stats() Stats { return p.stats }

// Close removes every partition file.
func (p *Partitions) Close() {
	for _, f := range p.files {
		if f != nil {
			f.close()
		}
	}
	p.files = nil
}

var _ Iterator = readerIter{}
