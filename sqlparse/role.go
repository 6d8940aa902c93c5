package sqlparse

// OWNER: helper "auth" (role statements).

// RoleStmt is CREATE/ALTER/DROP ROLE or USER.
type RoleStmt struct{}

// parseRole parses a role statement; nil, nil when toks is not one.
func parseRole(src string, toks []token) (*RoleStmt, error) {
	return nil, nil
}
