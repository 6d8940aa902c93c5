package syscat

// OWNER: helper "pgcatalog" (the pg_catalog relations and their columns).

// pgCatalog lists pg_catalog's relations.
var pgCatalog = []*Relation{}
