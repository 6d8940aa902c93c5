package exec

import (
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// The fixed rows of pg_catalog: the built-in
// types, access methods, operator classes, collations, tablespaces and
// languages, copied from PostgreSQL 15's initial catalog for the types
// widesql has (pg_type.dat, pg_opclass.dat, ...), so that OIDs and names
// match what clients know.

// regProc is a regproc value: a function's OID and name ("-" for none).
type regProc struct {
	oid  uint32
	name string
}

func (p regProc) datum() types.Datum { return types.NewReg(types.RegProc, p.oid, p.name) }

// builtinType is one row of pg_type for a built-in type.
type builtinType struct {
	oid       uint32
	name      string
	len       int16
	byVal     bool
	category  byte
	preferred bool
	elem      uint32
	array     uint32
	align     byte
	storage   byte
	collation uint32
	// subscript, input, output, receive, send, modin, modout, analyze
	procs [8]regProc
}

// builtinTypes are the built-in types widesql has, with their array
// types, by OID.
var builtinTypes = []builtinType{
	{16, "bool", 1, true, 'B', true, 0, 1000, 'c', 'p', 0, [8]regProc{{0, "-"}, {1242, "boolin"}, {1243, "boolout"}, {2436, "boolrecv"}, {2437, "boolsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{17, "bytea", -1, false, 'U', false, 0, 1001, 'i', 'x', 0, [8]regProc{{0, "-"}, {1244, "byteain"}, {31, "byteaout"}, {2412, "bytearecv"}, {2413, "byteasend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{18, "char", 1, true, 'Z', false, 0, 1002, 'c', 'p', 0, [8]regProc{{0, "-"}, {1245, "charin"}, {33, "charout"}, {2434, "charrecv"}, {2435, "charsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{19, "name", 64, false, 'S', false, 18, 1003, 'c', 'p', 950, [8]regProc{{6180, "raw_array_subscript_handler"}, {34, "namein"}, {35, "nameout"}, {2422, "namerecv"}, {2423, "namesend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{20, "int8", 8, true, 'N', false, 0, 1016, 'd', 'p', 0, [8]regProc{{0, "-"}, {460, "int8in"}, {461, "int8out"}, {2408, "int8recv"}, {2409, "int8send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{21, "int2", 2, true, 'N', false, 0, 1005, 's', 'p', 0, [8]regProc{{0, "-"}, {38, "int2in"}, {39, "int2out"}, {2404, "int2recv"}, {2405, "int2send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{22, "int2vector", -1, false, 'A', false, 21, 1006, 'i', 'p', 0, [8]regProc{{6179, "array_subscript_handler"}, {40, "int2vectorin"}, {41, "int2vectorout"}, {2410, "int2vectorrecv"}, {2411, "int2vectorsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{23, "int4", 4, true, 'N', false, 0, 1007, 'i', 'p', 0, [8]regProc{{0, "-"}, {42, "int4in"}, {43, "int4out"}, {2406, "int4recv"}, {2407, "int4send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{24, "regproc", 4, true, 'N', false, 0, 1008, 'i', 'p', 0, [8]regProc{{0, "-"}, {44, "regprocin"}, {45, "regprocout"}, {2444, "regprocrecv"}, {2445, "regprocsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{25, "text", -1, false, 'S', true, 0, 1009, 'i', 'x', 100, [8]regProc{{0, "-"}, {46, "textin"}, {47, "textout"}, {2414, "textrecv"}, {2415, "textsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{26, "oid", 4, true, 'N', true, 0, 1028, 'i', 'p', 0, [8]regProc{{0, "-"}, {1798, "oidin"}, {1799, "oidout"}, {2418, "oidrecv"}, {2419, "oidsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{30, "oidvector", -1, false, 'A', false, 26, 1013, 'i', 'p', 0, [8]regProc{{6179, "array_subscript_handler"}, {54, "oidvectorin"}, {55, "oidvectorout"}, {2420, "oidvectorrecv"}, {2421, "oidvectorsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{114, "json", -1, false, 'U', false, 0, 199, 'i', 'x', 0, [8]regProc{{0, "-"}, {321, "json_in"}, {322, "json_out"}, {323, "json_recv"}, {324, "json_send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{199, "_json", -1, false, 'A', false, 114, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{700, "float4", 4, true, 'N', false, 0, 1021, 'i', 'p', 0, [8]regProc{{0, "-"}, {200, "float4in"}, {201, "float4out"}, {2424, "float4recv"}, {2425, "float4send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{701, "float8", 8, true, 'N', true, 0, 1022, 'd', 'p', 0, [8]regProc{{0, "-"}, {214, "float8in"}, {215, "float8out"}, {2426, "float8recv"}, {2427, "float8send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{705, "unknown", -2, false, 'X', false, 0, 0, 'c', 'p', 0, [8]regProc{{0, "-"}, {109, "unknownin"}, {110, "unknownout"}, {2416, "unknownrecv"}, {2417, "unknownsend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{1000, "_bool", -1, false, 'A', false, 16, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1001, "_bytea", -1, false, 'A', false, 17, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1002, "_char", -1, false, 'A', false, 18, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1003, "_name", -1, false, 'A', false, 19, 0, 'i', 'x', 950, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1005, "_int2", -1, false, 'A', false, 21, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1006, "_int2vector", -1, false, 'A', false, 22, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1007, "_int4", -1, false, 'A', false, 23, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1008, "_regproc", -1, false, 'A', false, 24, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1009, "_text", -1, false, 'A', false, 25, 0, 'i', 'x', 100, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1013, "_oidvector", -1, false, 'A', false, 30, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1014, "_bpchar", -1, false, 'A', false, 1042, 0, 'i', 'x', 100, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2913, "bpchartypmodin"}, {2914, "bpchartypmodout"}, {3816, "array_typanalyze"}}},
	{1015, "_varchar", -1, false, 'A', false, 1043, 0, 'i', 'x', 100, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2915, "varchartypmodin"}, {2916, "varchartypmodout"}, {3816, "array_typanalyze"}}},
	{1016, "_int8", -1, false, 'A', false, 20, 0, 'd', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1021, "_float4", -1, false, 'A', false, 700, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1022, "_float8", -1, false, 'A', false, 701, 0, 'd', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1028, "_oid", -1, false, 'A', false, 26, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1042, "bpchar", -1, false, 'S', false, 0, 1014, 'i', 'x', 100, [8]regProc{{0, "-"}, {1044, "bpcharin"}, {1045, "bpcharout"}, {2430, "bpcharrecv"}, {2431, "bpcharsend"}, {2913, "bpchartypmodin"}, {2914, "bpchartypmodout"}, {0, "-"}}},
	{1043, "varchar", -1, false, 'S', false, 0, 1015, 'i', 'x', 100, [8]regProc{{0, "-"}, {1046, "varcharin"}, {1047, "varcharout"}, {2432, "varcharrecv"}, {2433, "varcharsend"}, {2915, "varchartypmodin"}, {2916, "varchartypmodout"}, {0, "-"}}},
	{1082, "date", 4, true, 'D', false, 0, 1182, 'i', 'p', 0, [8]regProc{{0, "-"}, {1084, "date_in"}, {1085, "date_out"}, {2468, "date_recv"}, {2469, "date_send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{1083, "time", 8, true, 'D', false, 0, 1183, 'd', 'p', 0, [8]regProc{{0, "-"}, {1143, "time_in"}, {1144, "time_out"}, {2470, "time_recv"}, {2471, "time_send"}, {2909, "timetypmodin"}, {2910, "timetypmodout"}, {0, "-"}}},
	{1114, "timestamp", 8, true, 'D', false, 0, 1115, 'd', 'p', 0, [8]regProc{{0, "-"}, {1312, "timestamp_in"}, {1313, "timestamp_out"}, {2474, "timestamp_recv"}, {2475, "timestamp_send"}, {2905, "timestamptypmodin"}, {2906, "timestamptypmodout"}, {0, "-"}}},
	{1115, "_timestamp", -1, false, 'A', false, 1114, 0, 'd', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2905, "timestamptypmodin"}, {2906, "timestamptypmodout"}, {3816, "array_typanalyze"}}},
	{1182, "_date", -1, false, 'A', false, 1082, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{1183, "_time", -1, false, 'A', false, 1083, 0, 'd', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2909, "timetypmodin"}, {2910, "timetypmodout"}, {3816, "array_typanalyze"}}},
	{1184, "timestamptz", 8, true, 'D', true, 0, 1185, 'd', 'p', 0, [8]regProc{{0, "-"}, {1150, "timestamptz_in"}, {1151, "timestamptz_out"}, {2476, "timestamptz_recv"}, {2477, "timestamptz_send"}, {2907, "timestamptztypmodin"}, {2908, "timestamptztypmodout"}, {0, "-"}}},
	{1185, "_timestamptz", -1, false, 'A', false, 1184, 0, 'd', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2907, "timestamptztypmodin"}, {2908, "timestamptztypmodout"}, {3816, "array_typanalyze"}}},
	{1186, "interval", 16, false, 'T', true, 0, 1187, 'd', 'p', 0, [8]regProc{{0, "-"}, {1160, "interval_in"}, {1161, "interval_out"}, {2478, "interval_recv"}, {2479, "interval_send"}, {2903, "intervaltypmodin"}, {2904, "intervaltypmodout"}, {0, "-"}}},
	{1187, "_interval", -1, false, 'A', false, 1186, 0, 'd', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2903, "intervaltypmodin"}, {2904, "intervaltypmodout"}, {3816, "array_typanalyze"}}},
	{1231, "_numeric", -1, false, 'A', false, 1700, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2917, "numerictypmodin"}, {2918, "numerictypmodout"}, {3816, "array_typanalyze"}}},
	{1700, "numeric", -1, false, 'N', false, 0, 1231, 'i', 'm', 0, [8]regProc{{0, "-"}, {1701, "numeric_in"}, {1702, "numeric_out"}, {2460, "numeric_recv"}, {2461, "numeric_send"}, {2917, "numerictypmodin"}, {2918, "numerictypmodout"}, {0, "-"}}},
	{2205, "regclass", 4, true, 'N', false, 0, 2210, 'i', 'p', 0, [8]regProc{{0, "-"}, {2218, "regclassin"}, {2219, "regclassout"}, {2452, "regclassrecv"}, {2453, "regclasssend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{2206, "regtype", 4, true, 'N', false, 0, 2211, 'i', 'p', 0, [8]regProc{{0, "-"}, {2220, "regtypein"}, {2221, "regtypeout"}, {2454, "regtyperecv"}, {2455, "regtypesend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{2210, "_regclass", -1, false, 'A', false, 2205, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{2211, "_regtype", -1, false, 'A', false, 2206, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{2950, "uuid", 16, false, 'U', false, 0, 2951, 'c', 'p', 0, [8]regProc{{0, "-"}, {2952, "uuid_in"}, {2953, "uuid_out"}, {2961, "uuid_recv"}, {2962, "uuid_send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{2951, "_uuid", -1, false, 'A', false, 2950, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{3802, "jsonb", -1, false, 'U', false, 0, 3807, 'i', 'x', 0, [8]regProc{{6098, "jsonb_subscript_handler"}, {3806, "jsonb_in"}, {3804, "jsonb_out"}, {3805, "jsonb_recv"}, {3803, "jsonb_send"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{3807, "_jsonb", -1, false, 'A', false, 3802, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{4089, "regnamespace", 4, true, 'N', false, 0, 4090, 'i', 'p', 0, [8]regProc{{0, "-"}, {4084, "regnamespacein"}, {4085, "regnamespaceout"}, {4087, "regnamespacerecv"}, {4088, "regnamespacesend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{4090, "_regnamespace", -1, false, 'A', false, 4089, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
	{4096, "regrole", 4, true, 'N', false, 0, 4097, 'i', 'p', 0, [8]regProc{{0, "-"}, {4098, "regrolein"}, {4092, "regroleout"}, {4094, "regrolerecv"}, {4095, "regrolesend"}, {0, "-"}, {0, "-"}, {0, "-"}}},
	{4097, "_regrole", -1, false, 'A', false, 4096, 0, 'i', 'x', 0, [8]regProc{{6179, "array_subscript_handler"}, {750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}, {0, "-"}, {0, "-"}, {3816, "array_typanalyze"}}},
}

var builtinTypeByOID = func() map[uint32]*builtinType {
	m := map[uint32]*builtinType{}
	for i := range builtinTypes {
		m[builtinTypes[i].oid] = &builtinTypes[i]
	}
	return m
}()

// builtinOpclass is a default btree operator class (pg_opclass).
type builtinOpclass struct {
	oid, family, inType uint32
	name                string
}

// btreeOpclasses are the default btree operator classes of widesql's
// types; varchar uses text_ops and every array type array_ops, as in
// PostgreSQL.
var btreeOpclasses = []builtinOpclass{
	{10003, 424, 16, "bool_ops"}, {10006, 428, 17, "bytea_ops"}, {10007, 429, 18, "char_ops"},
	{10028, 1994, 19, "name_ops"}, {3124, 1976, 20, "int8_ops"}, {1979, 1976, 21, "int2_ops"},
	{1978, 1976, 23, "int4_ops"}, {3126, 1994, 25, "text_ops"}, {1981, 1989, 26, "oid_ops"},
	{10032, 1991, 30, "oidvector_ops"}, {10012, 1970, 700, "float4_ops"}, {3123, 1970, 701, "float8_ops"},
	{10004, 426, 1042, "bpchar_ops"}, {3122, 434, 1082, "date_ops"}, {10038, 1996, 1083, "time_ops"},
	{3128, 434, 1114, "timestamp_ops"}, {3127, 434, 1184, "timestamptz_ops"}, {10022, 1982, 1186, "interval_ops"},
	{3125, 1988, 1700, "numeric_ops"}, {10000, 397, 2277, "array_ops"}, {10065, 2968, 2950, "uuid_ops"},
	{10088, 4033, 3802, "jsonb_ops"},
}

// opclassFor returns the default btree operator class of a column type
// (pg_index.indclass), or 0 when it has none (json).
func opclassFor(t types.T) uint32 {
	in := t.OID()
	switch {
	case t.Kind == types.Array:
		in = 2277 // anyarray
	case in == types.OIDVarChar:
		in = types.OIDText
	}
	for _, o := range btreeOpclasses {
		if o.inType == in {
			return o.oid
		}
	}
	return 0
}

// Access methods (pg_am).
const (
	amHeap  uint32 = 2
	amBtree uint32 = 403
	amHash  uint32 = 405
)

// Collations (pg_collation) and other fixed OIDs.
const (
	collDefault uint32 = 100
	collC       uint32 = 950
	collPOSIX   uint32 = 951

	tablespaceDefault uint32 = 1663
	tablespaceGlobal  uint32 = 1664

	databaseOID uint32 = 5 // PostgreSQL's "postgres" database

	// Classes of pg_description.classoid / pg_depend.classid.
	classPgClass      uint32 = 1259
	classPgType       uint32 = 1247
	classPgConstraint uint32 = 2606
	classPgNamespace  uint32 = 2615
	classPgDatabase   uint32 = 1262

	encodingUTF8 = 6
	// databaseLocale is pg_database.datcollate and datctype: byte-order
	// comparison of UTF-8 text, which is what widesql does.
	databaseLocale = "C.UTF-8"

	// roleDatabaseOwner is PostgreSQL 15's pg_database_owner, the owner
	// of the public schema.
	roleDatabaseOwner uint32 = 6171
)

// predefinedRoles names PostgreSQL's built-in roles that own objects
// widesql shows (pg_get_userbyid).
var predefinedRoles = map[uint32]string{roleDatabaseOwner: "pg_database_owner"}

// namespaces are the rows of pg_namespace.
var namespaces = []struct {
	oid   uint32
	name  string
	owner uint32
}{
	{syscat.NamespacePgCatalog, syscat.PgCatalog, 10},
	{syscat.NamespacePublic, syscat.Public, roleDatabaseOwner},
	{syscat.NamespaceInformationSchema, syscat.InformationSchema, 10},
}

// namespaceOID returns the OID of a schema name, or 0.
func namespaceOID(name string) uint32 {
	for _, n := range namespaces {
		if n.name == name {
			return n.oid
		}
	}
	return 0
}
