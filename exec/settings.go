package exec

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// settingKind says how a setting's value is checked and normalized.
type settingKind uint8

const (
	kindString settingKind = iota
	kindBool               // on/off, normalized to "on" or "off"
	kindInt                // integer in [min, max]
	kindEnum               // one of enum, case-insensitive, normalized to lower case
	kindMillis             // duration, default unit ms, shown as PG shows it ("1min")
	kindKB                 // memory size, default unit kB, shown as PG shows it ("64MB")
)

// setting is one run-time parameter (GUC). Reported settings are sent to the
// client in ParameterStatus at startup and whenever they change (SET, RESET,
// the end of a transaction that SET LOCAL or rolled back a SET).
type setting struct {
	name     string // canonical spelling
	def      string
	kind     settingKind
	min, max int64
	enum     []string
	reported bool
	readOnly bool
	desc     string
}

// settings is the table of parameters widesql knows: the ones PostgreSQL
// reports, the ones drivers and tools SET or SHOW (pgx, JDBC, psql,
// SQLAlchemy, DBeaver), and the common tuning knobs, accepted and shown
// even where widesql does not act on them (work_mem, enable_*). Only
// statement_timeout, the DateStyle/encoding checks and the transaction
// settings change behaviour.
var settings = func() map[string]setting {
	m := map[string]setting{}
	for _, s := range []setting{
		{name: "server_version", def: ServerVersion, reported: true, readOnly: true, desc: "Shows the server version."},
		{name: "server_version_num", def: "150018", readOnly: true, desc: "Shows the server version as an integer."},
		{name: "server_encoding", def: "UTF8", reported: true, readOnly: true, desc: "Shows the server (database) character set encoding."},
		{name: "client_encoding", def: "UTF8", reported: true, desc: "Sets the client's character set encoding."},
		{name: "DateStyle", def: "ISO, MDY", reported: true, desc: "Sets the display format for date and time values."},
		{name: "IntervalStyle", def: "postgres", kind: kindEnum, enum: []string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}, reported: true, desc: "Sets the display format for interval values."},
		{name: "TimeZone", def: "UTC", reported: true, desc: "Sets the time zone for displaying and interpreting time stamps."},
		{name: "integer_datetimes", def: "on", kind: kindBool, reported: true, readOnly: true, desc: "Shows whether datetimes are integer based."},
		{name: "standard_conforming_strings", def: "on", kind: kindBool, reported: true, desc: "Causes '...' strings to treat backslashes literally."},
		{name: "is_superuser", def: "on", kind: kindBool, reported: true, readOnly: true, desc: "Shows whether the current user is a superuser."},
		{name: "session_authorization", def: "", reported: true, desc: "Sets the session user name."},
		{name: "application_name", def: "", reported: true, desc: "Sets the application name to be reported in statistics and logs."},
		{name: "default_transaction_read_only", def: "off", kind: kindBool, reported: true, desc: "Sets the default read-only status of new transactions."},
		{name: "in_hot_standby", def: "off", kind: kindBool, reported: true, readOnly: true, desc: "Shows whether hot standby is currently active."},
		{name: "search_path", def: `"$user", public`, desc: "Sets the schema search order for names that are not schema-qualified."},
		{name: "transaction_isolation", def: "read committed", kind: kindEnum, enum: isolationLevels, desc: "Sets the current transaction's isolation level."},
		{name: "default_transaction_isolation", def: "read committed", kind: kindEnum, enum: isolationLevels, desc: "Sets the transaction isolation level of each new transaction."},
		{name: "transaction_read_only", def: "off", kind: kindBool, desc: "Sets the current transaction's read-only status."},
		{name: "transaction_deferrable", def: "off", kind: kindBool, desc: "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures."},
		{name: "default_transaction_deferrable", def: "off", kind: kindBool, desc: "Sets the default deferrable status of new transactions."},
		{name: "extra_float_digits", def: "1", kind: kindInt, min: -15, max: 3, desc: "Sets the number of digits displayed for floating-point values."},
		{name: "statement_timeout", def: "0", kind: kindMillis, max: 1<<31 - 1, desc: "Sets the maximum allowed duration of any statement."},
		{name: "lock_timeout", def: "0", kind: kindMillis, max: 1<<31 - 1, desc: "Sets the maximum allowed duration of any wait for a lock."},
		{name: "idle_in_transaction_session_timeout", def: "0", kind: kindMillis, max: 1<<31 - 1, desc: "Sets the maximum allowed idle time between queries, when in a transaction."},
		{name: "idle_session_timeout", def: "0", kind: kindMillis, max: 1<<31 - 1, desc: "Sets the maximum allowed idle time between queries, when not in a transaction."},
		{name: "max_identifier_length", def: "63", kind: kindInt, readOnly: true, desc: "Shows the maximum identifier length."},
		{name: "max_index_keys", def: "32", kind: kindInt, readOnly: true, desc: "Shows the maximum number of index keys."},
		{name: "block_size", def: "8192", kind: kindInt, readOnly: true, desc: "Shows the size of a disk block."},
		{name: "lc_collate", def: "C", readOnly: true, desc: "Shows the collation order locale."},
		{name: "lc_ctype", def: "C", readOnly: true, desc: "Shows the character classification and case conversion locale."},
		{name: "lc_messages", def: "C", desc: "Sets the language in which messages are displayed."},
		{name: "lc_monetary", def: "C", desc: "Sets the locale for formatting monetary amounts."},
		{name: "lc_numeric", def: "C", desc: "Sets the locale for formatting numbers."},
		{name: "lc_time", def: "C", desc: "Sets the locale for formatting date and time values."},
		{name: "bytea_output", def: "hex", kind: kindEnum, enum: []string{"escape", "hex"}, desc: "Sets the output format for bytea."},
		{name: "client_min_messages", def: "notice", kind: kindEnum, enum: []string{"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"}, desc: "Sets the message levels that are sent to the client."},
		{name: "work_mem", def: "4MB", kind: kindKB, min: 64, max: 1<<31 - 1, desc: "Sets the maximum memory to be used for query workspaces."},
		{name: "widesql.full_scan", def: "allow", kind: kindEnum, enum: []string{"allow", "warn", "reject"}, desc: "What a statement that must scan a whole table does: allow it, allow it with a WARNING, or reject it with 55000 (a trailing ALLOW FULL SCAN lets one statement through)."},
		{name: "widesql.write_timestamp", def: "", desc: "Writes cells at this timestamptz instead of the clock's time (backfilling history); empty for the clock."},
		{name: "widesql.spill", def: "on", kind: kindBool, desc: "Lets sorts, aggregations, joins and set operations over work_mem write temporary files; off makes them fail with 53200."},
		{name: "maintenance_work_mem", def: "64MB", kind: kindKB, min: 1024, max: 1<<31 - 1, desc: "Sets the maximum memory to be used for maintenance operations."},
		{name: "temp_buffers", def: "8MB", kind: kindKB, min: 800, max: 1<<30 - 1, desc: "Sets the maximum number of temporary buffers used by each session."},
		{name: "row_security", def: "on", kind: kindBool, desc: "Enable row security."},
		{name: "synchronous_commit", def: "on", kind: kindEnum, enum: []string{"local", "remote_write", "remote_apply", "on", "off"}, desc: "Sets the current transaction's synchronization level."},
		{name: "check_function_bodies", def: "on", kind: kindBool, desc: "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE."},
		{name: "default_with_oids", def: "off", kind: kindBool, desc: "WITH OIDS is no longer supported; this can only be false."},
		{name: "escape_string_warning", def: "on", kind: kindBool, desc: "Warn about backslash escapes in ordinary string literals."},
		{name: "jit", def: "on", kind: kindBool, desc: "Allow JIT compilation."},
		{name: "enable_seqscan", def: "on", kind: kindBool, desc: "Enables the planner's use of sequential-scan plans."},
		{name: "enable_indexscan", def: "on", kind: kindBool, desc: "Enables the planner's use of index-scan plans."},
		{name: "enable_hashjoin", def: "on", kind: kindBool, desc: "Enables the planner's use of hash join plans."},
		{name: "enable_mergejoin", def: "on", kind: kindBool, desc: "Enables the planner's use of merge join plans."},
		{name: "enable_nestloop", def: "on", kind: kindBool, desc: "Enables the planner's use of nested-loop join plans."},
		{name: "geqo", def: "on", kind: kindBool, desc: "Enables genetic query optimization."},
		{name: "random_page_cost", def: "4", desc: "Sets the planner's estimate of the cost of a nonsequentially fetched disk page."},
		{name: "timezone_abbreviations", def: "Default", desc: "Selects a file of time zone abbreviations."},
		{name: "xmloption", def: "content", kind: kindEnum, enum: []string{"content", "document"}, desc: "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments."},
		{name: "log_statement", def: "none", kind: kindEnum, enum: []string{"none", "ddl", "mod", "all"}, desc: "Sets the type of statements logged."},
		{name: "plan_cache_mode", def: "auto", kind: kindEnum, enum: []string{"auto", "force_generic_plan", "force_custom_plan"}, desc: "Controls the planner's selection of custom or generic plan."},
		{name: "max_connections", def: "100", kind: kindInt, readOnly: true, desc: "Sets the maximum number of concurrent connections."},
		{name: "port", def: "5432", kind: kindInt, readOnly: true, desc: "Sets the TCP port the server listens on."},
		{name: "ssl", def: "off", kind: kindBool, readOnly: true, desc: "Enables SSL connections."},
		{name: "data_directory_mode", def: "0700", readOnly: true, desc: "Shows the mode of the data directory."},
	} {
		m[strings.ToLower(s.name)] = s
	}
	return m
}()

var isolationLevels = []string{"serializable", "repeatable read", "read committed", "read uncommitted"}

func lookupSetting(name string) (setting, error) {
	s, ok := settings[strings.ToLower(name)]
	if !ok {
		if strings.Contains(name, ".") {
			return setting{name: name}, nil // custom "ext.option" settings
		}
		return s, pgerror.New(pgerror.CodeUndefinedObject, "unrecognized configuration parameter \"%s\"", name)
	}
	return s, nil
}

func invalidValue(s setting, v string) error {
	return pgerror.New(pgerror.CodeInvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", s.name, v)
}

// validateSetting checks a value and returns it normalized as SHOW prints it.
func validateSetting(s setting, v string) (string, error) {
	switch s.name {
	case "client_encoding":
		u := strings.ToUpper(strings.ReplaceAll(v, "-", ""))
		if u != "UTF8" && u != "UNICODE" {
			return "", pgerror.Unimplemented("client_encoding " + v + " (only UTF8)")
		}
		return "UTF8", nil
	case "standard_conforming_strings":
		if b, ok := parseBool(v); !ok || !b {
			return "", pgerror.Unimplemented("standard_conforming_strings = off")
		}
		return "on", nil
	case "DateStyle":
		if !strings.HasPrefix(strings.ToUpper(v), "ISO") {
			return "", pgerror.Unimplemented("DateStyle " + v + " (only ISO)")
		}
		return "ISO, MDY", nil
	case "widesql.write_timestamp":
		return checkWriteTimestamp(v) // scan_asof.go
	case "TimeZone":
		if strings.EqualFold(strings.TrimSpace(v), "local") {
			return v, nil
		}
		_, name, err := loadTimeZone(v)
		return name, err
	}
	switch s.kind {
	case kindBool:
		b, ok := parseBool(v)
		if !ok {
			return "", pgerror.New(pgerror.CodeInvalidParameterValue, "parameter \"%s\" requires a Boolean value", s.name)
		}
		if b {
			return "on", nil
		}
		return "off", nil
	case kindEnum:
		l := strings.ToLower(v)
		for _, e := range s.enum {
			if l == e {
				return e, nil
			}
		}
		e := invalidValue(s, v).(*pgerror.Error)
		e.Hint = "Available values: " + strings.Join(s.enum, ", ") + "."
		return "", e
	case kindInt:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return "", invalidValue(s, v)
		}
		if n < s.min || n > s.max {
			return "", outOfRange(s, n)
		}
		return strconv.FormatInt(n, 10), nil
	case kindMillis:
		n, ok := parseUnits(v, "ms", timeUnits)
		if !ok {
			return "", invalidValue(s, v)
		}
		if n < s.min || n > s.max {
			return "", outOfRange(s, n)
		}
		return formatUnits(n, timeUnits), nil
	case kindKB:
		n, ok := parseUnits(v, "kB", memUnits)
		if !ok {
			return "", invalidValue(s, v)
		}
		if n < s.min || n > s.max {
			return "", outOfRange(s, n)
		}
		return formatUnits(n, memUnits), nil
	}
	return v, nil
}

func outOfRange(s setting, n int64) error {
	return pgerror.New(pgerror.CodeInvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\" (%d .. %d)",
		n, map[settingKind]string{kindMillis: " ms", kindKB: " kB"}[s.kind], s.name, s.min, s.max)
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y":
		return true, true
	case "off", "false", "no", "0", "f", "n", "of":
		return false, true
	}
	return false, false
}

// unit is a unit of a duration or memory setting, in the base unit
// (milliseconds or kilobytes), largest first.
type unit struct {
	name string
	mult int64
}

var (
	timeUnits = []unit{{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}, {"ms", 1}}
	memUnits  = []unit{{"TB", 1 << 30}, {"GB", 1 << 20}, {"MB", 1 << 10}, {"kB", 1}}
)

// parseUnits parses "<int>[unit]" in the base unit def.
func parseUnits(v, def string, units []unit) (int64, bool) {
	v = strings.TrimSpace(v)
	i := 0
	if i < len(v) && (v[i] == '-' || v[i] == '+') {
		i++
	}
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	u := strings.TrimSpace(v[i:])
	if u == "" {
		u = def
	}
	for _, x := range units {
		if x.name == u {
			return n * x.mult, true
		}
	}
	return 0, false
}

// formatUnits prints n (base units) with the largest unit dividing it, as
// SHOW does.
func formatUnits(n int64, units []unit) string {
	if n == 0 {
		return "0"
	}
	for _, u := range units {
		if n%u.mult == 0 {
			return fmt.Sprintf("%d%s", n/u.mult, u.name)
		}
	}
	return strconv.FormatInt(n, 10)
}

func sortedSettingNames() []string {
	var names []string
	for _, s := range settings {
		names = append(names, s.name)
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names
}
