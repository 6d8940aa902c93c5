package planner

// access derives a scan's access path: DeriveAccess over the conjuncts,
// after adding the conjuncts that key expressions and salting imply
// (an equality on host gives one on md5(host); a range on ts under a
// ts % 100 key part gives one span per bucket).
func (b *builder) access(t *TableDesc, conds []Expr) (Access, []Expr) {
	return DeriveAccess(t, conds)
}
