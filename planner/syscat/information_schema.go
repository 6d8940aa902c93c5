package syscat

import "github.com/widesql/widesql/planner/types"

// information_schema's columns are declared in PostgreSQL with the
// standard's domains; widesql declares their base types, which is also what
// PostgreSQL reports in RowDescription (a domain column is described by
// its base type):
//
//	sql_identifier  -> name
//	character_data  -> varchar
//	cardinal_number -> int4
//	yes_or_no       -> varchar(3)
//	time_stamp      -> timestamptz
var (
	sqlIdentifier  = types.TName
	characterData  = types.TVarChar
	cardinalNumber = types.TInt4
	yesOrNo        = types.T{Kind: types.Text, VarChar: true, Width: 3}
	timeStamp      = types.TTimestampTZ
)

// informationSchema lists information_schema's relations: PostgreSQL 15's
// OIDs, column names, order and (base) types. The rows are derived in
// exec/infoschema.go; relations widesql has nothing for (views, routines,
// parameters, referential_constraints) are empty but present, so clients
// that join them get an answer.
var informationSchema = []*Relation{
	{Schema: InformationSchema, Name: "character_sets", OID: 13250, Columns: []Column{
		{"character_set_catalog", sqlIdentifier}, {"character_set_schema", sqlIdentifier},
		{"character_set_name", sqlIdentifier}, {"character_repertoire", sqlIdentifier},
		{"form_of_use", sqlIdentifier}, {"default_collate_catalog", sqlIdentifier},
		{"default_collate_schema", sqlIdentifier}, {"default_collate_name", sqlIdentifier},
	}},
	{Schema: InformationSchema, Name: "check_constraints", OID: 13260, Columns: []Column{
		{"constraint_catalog", sqlIdentifier}, {"constraint_schema", sqlIdentifier},
		{"constraint_name", sqlIdentifier}, {"check_clause", characterData},
	}},
	{Schema: InformationSchema, Name: "columns", OID: 13295, Columns: []Column{
		{"table_catalog", sqlIdentifier}, {"table_schema", sqlIdentifier}, {"table_name", sqlIdentifier},
		{"column_name", sqlIdentifier}, {"ordinal_position", cardinalNumber}, {"column_default", characterData},
		{"is_nullable", yesOrNo}, {"data_type", characterData}, {"character_maximum_length", cardinalNumber},
		{"character_octet_length", cardinalNumber}, {"numeric_precision", cardinalNumber},
		{"numeric_precision_radix", cardinalNumber}, {"numeric_scale", cardinalNumber},
		{"datetime_precision", cardinalNumber}, {"interval_type", characterData},
		{"interval_precision", cardinalNumber}, {"character_set_catalog", sqlIdentifier},
		{"character_set_schema", sqlIdentifier}, {"character_set_name", sqlIdentifier},
		{"collation_catalog", sqlIdentifier}, {"collation_schema", sqlIdentifier},
		{"collation_name", sqlIdentifier}, {"domain_catalog", sqlIdentifier}, {"domain_schema", sqlIdentifier},
		{"domain_name", sqlIdentifier}, {"udt_catalog", sqlIdentifier}, {"udt_schema", sqlIdentifier},
		{"udt_name", sqlIdentifier}, {"scope_catalog", sqlIdentifier}, {"scope_schema", sqlIdentifier},
		{"scope_name", sqlIdentifier}, {"maximum_cardinality", cardinalNumber}, {"dtd_identifier", sqlIdentifier},
		{"is_self_referencing", yesOrNo}, {"is_identity", yesOrNo}, {"identity_generation", characterData},
		{"identity_start", characterData}, {"identity_increment", characterData},
		{"identity_maximum", characterData}, {"identity_minimum", characterData}, {"identity_cycle", yesOrNo},
		{"is_generated", characterData}, {"generation_expression", characterData}, {"is_updatable", yesOrNo},
	}},
	{Schema: InformationSchema, Name: "constraint_column_usage", OID: 13300, Columns: []Column{
		{"table_catalog", sqlIdentifier}, {"table_schema", sqlIdentifier}, {"table_name", sqlIdentifier},
		{"column_name", sqlIdentifier}, {"constraint_catalog", sqlIdentifier},
		{"constraint_schema", sqlIdentifier}, {"constraint_name", sqlIdentifier},
	}},
	{Schema: InformationSchema, Name: "key_column_usage", OID: 13329, Columns: []Column{
		{"constraint_catalog", sqlIdentifier}, {"constraint_schema", sqlIdentifier},
		{"constraint_name", sqlIdentifier}, {"table_catalog", sqlIdentifier}, {"table_schema", sqlIdentifier},
		{"table_name", sqlIdentifier}, {"column_name", sqlIdentifier}, {"ordinal_position", cardinalNumber},
		{"position_in_unique_constraint", cardinalNumber},
	}},
	{Schema: InformationSchema, Name: "parameters", OID: 13334, Columns: []Column{
		{"specific_catalog", sqlIdentifier}, {"specific_schema", sqlIdentifier}, {"specific_name", sqlIdentifier},
		{"ordinal_position", cardinalNumber}, {"parameter_mode", characterData}, {"is_result", yesOrNo},
		{"as_locator", yesOrNo}, {"parameter_name", sqlIdentifier}, {"data_type", characterData},
		{"character_maximum_length", cardinalNumber}, {"character_octet_length", cardinalNumber},
		{"character_set_catalog", sqlIdentifier}, {"character_set_schema", sqlIdentifier},
		{"character_set_name", sqlIdentifier}, {"collation_catalog", sqlIdentifier},
		{"collation_schema", sqlIdentifier}, {"collation_name", sqlIdentifier},
		{"numeric_precision", cardinalNumber}, {"numeric_precision_radix", cardinalNumber},
		{"numeric_scale", cardinalNumber}, {"datetime_precision", cardinalNumber},
		{"interval_type", characterData}, {"interval_precision", cardinalNumber}, {"udt_catalog", sqlIdentifier},
		{"udt_schema", sqlIdentifier}, {"udt_name", sqlIdentifier}, {"scope_catalog", sqlIdentifier},
		{"scope_schema", sqlIdentifier}, {"scope_name", sqlIdentifier}, {"maximum_cardinality", cardinalNumber},
		{"dtd_identifier", sqlIdentifier}, {"parameter_default", characterData},
	}},
	{Schema: InformationSchema, Name: "referential_constraints", OID: 13339, Columns: []Column{
		{"constraint_catalog", sqlIdentifier}, {"constraint_schema", sqlIdentifier},
		{"constraint_name", sqlIdentifier}, {"unique_constraint_catalog", sqlIdentifier},
		{"unique_constraint_schema", sqlIdentifier}, {"unique_constraint_name", sqlIdentifier},
		{"match_option", characterData}, {"update_rule", characterData}, {"delete_rule", characterData},
	}},
	{Schema: InformationSchema, Name: "routines", OID: 13377, Columns: []Column{
		{"specific_catalog", sqlIdentifier}, {"specific_schema", sqlIdentifier}, {"specific_name", sqlIdentifier},
		{"routine_catalog", sqlIdentifier}, {"routine_schema", sqlIdentifier}, {"routine_name", sqlIdentifier},
		{"routine_type", characterData}, {"module_catalog", sqlIdentifier}, {"module_schema", sqlIdentifier},
		{"module_name", sqlIdentifier}, {"udt_catalog", sqlIdentifier}, {"udt_schema", sqlIdentifier},
		{"udt_name", sqlIdentifier}, {"data_type", characterData}, {"character_maximum_length", cardinalNumber},
		{"character_octet_length", cardinalNumber}, {"character_set_catalog", sqlIdentifier},
		{"character_set_schema", sqlIdentifier}, {"character_set_name", sqlIdentifier},
		{"collation_catalog", sqlIdentifier}, {"collation_schema", sqlIdentifier},
		{"collation_name", sqlIdentifier}, {"numeric_precision", cardinalNumber},
		{"numeric_precision_radix", cardinalNumber}, {"numeric_scale", cardinalNumber},
		{"datetime_precision", cardinalNumber}, {"interval_type", characterData},
		{"interval_precision", cardinalNumber}, {"type_udt_catalog", sqlIdentifier},
		{"type_udt_schema", sqlIdentifier}, {"type_udt_name", sqlIdentifier}, {"scope_catalog", sqlIdentifier},
		{"scope_schema", sqlIdentifier}, {"scope_name", sqlIdentifier}, {"maximum_cardinality", cardinalNumber},
		{"dtd_identifier", sqlIdentifier}, {"routine_body", characterData}, {"routine_definition", characterData},
		{"external_name", characterData}, {"external_language", characterData}, {"parameter_style", characterData},
		{"is_deterministic", yesOrNo}, {"sql_data_access", characterData}, {"is_null_call", yesOrNo},
		{"sql_path", characterData}, {"schema_level_routine", yesOrNo},
		{"max_dynamic_result_sets", cardinalNumber}, {"is_user_defined_cast", yesOrNo},
		{"is_implicitly_invocable", yesOrNo}, {"security_type", characterData},
		{"to_sql_specific_catalog", sqlIdentifier}, {"to_sql_specific_schema", sqlIdentifier},
		{"to_sql_specific_name", sqlIdentifier}, {"as_locator", yesOrNo}, {"created", timeStamp},
		{"last_altered", timeStamp}, {"new_savepoint_level", yesOrNo}, {"is_udt_dependent", yesOrNo},
		{"result_cast_from_data_type", characterData}, {"result_cast_as_locator", yesOrNo},
		{"result_cast_char_max_length", cardinalNumber}, {"result_cast_char_octet_length", cardinalNumber},
		{"result_cast_char_set_catalog", sqlIdentifier}, {"result_cast_char_set_schema", sqlIdentifier},
		{"result_cast_char_set_name", sqlIdentifier}, {"result_cast_collation_catalog", sqlIdentifier},
		{"result_cast_collation_schema", sqlIdentifier}, {"result_cast_collation_name", sqlIdentifier},
		{"result_cast_numeric_precision", cardinalNumber}, {"result_cast_numeric_precision_radix", cardinalNumber},
		{"result_cast_numeric_scale", cardinalNumber}, {"result_cast_datetime_precision", cardinalNumber},
		{"result_cast_interval_type", characterData}, {"result_cast_interval_precision", cardinalNumber},
		{"result_cast_type_udt_catalog", sqlIdentifier}, {"result_cast_type_udt_schema", sqlIdentifier},
		{"result_cast_type_udt_name", sqlIdentifier}, {"result_cast_scope_catalog", sqlIdentifier},
		{"result_cast_scope_schema", sqlIdentifier}, {"result_cast_scope_name", sqlIdentifier},
		{"result_cast_maximum_cardinality", cardinalNumber}, {"result_cast_dtd_identifier", sqlIdentifier},
	}},
	{Schema: InformationSchema, Name: "schemata", OID: 13382, Columns: []Column{
		{"catalog_name", sqlIdentifier}, {"schema_name", sqlIdentifier}, {"schema_owner", sqlIdentifier},
		{"default_character_set_catalog", sqlIdentifier}, {"default_character_set_schema", sqlIdentifier},
		{"default_character_set_name", sqlIdentifier}, {"sql_path", characterData},
	}},
	{Schema: InformationSchema, Name: "sequences", OID: 13386, Columns: []Column{
		{"sequence_catalog", sqlIdentifier}, {"sequence_schema", sqlIdentifier}, {"sequence_name", sqlIdentifier},
		{"data_type", characterData}, {"numeric_precision", cardinalNumber},
		{"numeric_precision_radix", cardinalNumber}, {"numeric_scale", cardinalNumber},
		{"start_value", characterData}, {"minimum_value", characterData}, {"maximum_value", characterData},
		{"increment", characterData}, {"cycle_option", yesOrNo},
	}},
	{Schema: InformationSchema, Name: "table_constraints", OID: 13411, Columns: []Column{
		{"constraint_catalog", sqlIdentifier}, {"constraint_schema", sqlIdentifier},
		{"constraint_name", sqlIdentifier}, {"table_catalog", sqlIdentifier}, {"table_schema", sqlIdentifier},
		{"table_name", sqlIdentifier}, {"constraint_type", characterData}, {"is_deferrable", yesOrNo},
		{"initially_deferred", yesOrNo}, {"enforced", yesOrNo}, {"nulls_distinct", yesOrNo},
	}},
	{Schema: InformationSchema, Name: "table_privileges", OID: 13416, Columns: []Column{
		{"grantor", sqlIdentifier}, {"grantee", sqlIdentifier}, {"table_catalog", sqlIdentifier},
		{"table_schema", sqlIdentifier}, {"table_name", sqlIdentifier}, {"privilege_type", characterData},
		{"is_grantable", yesOrNo}, {"with_hierarchy", yesOrNo},
	}},
	{Schema: InformationSchema, Name: "tables", OID: 13425, Columns: []Column{
		{"table_catalog", sqlIdentifier}, {"table_schema", sqlIdentifier}, {"table_name", sqlIdentifier},
		{"table_type", characterData}, {"self_referencing_column_name", sqlIdentifier},
		{"reference_generation", characterData}, {"user_defined_type_catalog", sqlIdentifier},
		{"user_defined_type_schema", sqlIdentifier}, {"user_defined_type_name", sqlIdentifier},
		{"is_insertable_into", yesOrNo}, {"is_typed", yesOrNo}, {"commit_action", characterData},
	}},
	{Schema: InformationSchema, Name: "views", OID: 13483, Columns: []Column{
		{"table_catalog", sqlIdentifier}, {"table_schema", sqlIdentifier}, {"table_name", sqlIdentifier},
		{"view_definition", characterData}, {"check_option", characterData}, {"is_updatable", yesOrNo},
		{"is_insertable_into", yesOrNo}, {"is_trigger_updatable", yesOrNo}, {"is_trigger_deletable", yesOrNo},
		{"is_trigger_insertable_into", yesOrNo},
	}},
}
