package syscat

// OWNER: helper "infoschema" (the information_schema relations).

// informationSchema lists information_schema's relations.
var informationSchema = []*Relation{}
