package exec

import (
	"sort"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// setting is one run-time parameter (GUC). Reported settings are sent to the
// client in ParameterStatus at startup and whenever they change.
type setting struct {
	name     string // canonical spelling
	def      string
	reported bool
	readOnly bool
}

var settings = func() map[string]setting {
	m := map[string]setting{}
	for _, s := range []setting{
		{name: "server_version", def: ServerVersion, reported: true, readOnly: true},
		{name: "server_version_num", def: "150018", readOnly: true},
		{name: "server_encoding", def: "UTF8", reported: true, readOnly: true},
		{name: "client_encoding", def: "UTF8", reported: true},
		{name: "DateStyle", def: "ISO, MDY", reported: true},
		{name: "IntervalStyle", def: "postgres", reported: true},
		{name: "TimeZone", def: "UTC", reported: true},
		{name: "integer_datetimes", def: "on", reported: true, readOnly: true},
		{name: "standard_conforming_strings", def: "on", reported: true},
		{name: "is_superuser", def: "on", reported: true, readOnly: true},
		{name: "session_authorization", def: "", reported: true},
		{name: "application_name", def: "", reported: true},
		{name: "default_transaction_read_only", def: "off", reported: true},
		{name: "in_hot_standby", def: "off", reported: true, readOnly: true},
		{name: "search_path", def: `"$user", public`},
		{name: "transaction_isolation", def: "read committed"},
		{name: "default_transaction_isolation", def: "read committed"},
		{name: "extra_float_digits", def: "1"},
		{name: "statement_timeout", def: "0"},
		{name: "lock_timeout", def: "0"},
		{name: "idle_in_transaction_session_timeout", def: "0"},
		{name: "max_identifier_length", def: "63", readOnly: true},
		{name: "bytea_output", def: "hex"},
		{name: "client_min_messages", def: "notice"},
	} {
		m[strings.ToLower(s.name)] = s
	}
	return m
}()

func lookupSetting(name string) (setting, error) {
	s, ok := settings[strings.ToLower(name)]
	if !ok {
		if strings.Contains(name, ".") {
			return setting{name: name}, nil // custom "ext.option" settings
		}
		return s, pgerror.New(pgerror.CodeUndefinedObject, "unrecognized configuration parameter %q", name)
	}
	return s, nil
}

// validateSetting checks a value for the settings widesql interprets.
func validateSetting(s setting, v string) (string, error) {
	switch s.name {
	case "client_encoding":
		u := strings.ToUpper(strings.ReplaceAll(v, "-", ""))
		if u != "UTF8" && u != "UNICODE" {
			return "", pgerror.Unimplemented("client_encoding " + v + " (only UTF8)")
		}
		return "UTF8", nil
	case "standard_conforming_strings":
		if strings.ToLower(v) != "on" {
			return "", pgerror.Unimplemented("standard_conforming_strings = off")
		}
		return "on", nil
	case "DateStyle":
		if !strings.HasPrefix(strings.ToUpper(v), "ISO") {
			return "", pgerror.Unimplemented("DateStyle " + v + " (only ISO)")
		}
		return "ISO, MDY", nil
	}
	return v, nil
}

func sortedSettingNames() []string {
	var names []string
	for _, s := range settings {
		names = append(names, s.name)
	}
	sort.Strings(names)
	return names
}
