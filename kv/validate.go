package kv

import "fmt"

// Validate checks rm against the contract without looking at any rows: key
// length, precondition and mutation kinds (a RequireColumn needs a
// Require), millisecond-aligned timestamps, and (through hasFamily) that
// every family exists, RequireColumn's included. Errors wrap
// ErrInvalidArgument or ErrFamilyNotFound. Every engine validates a batch
// with it before applying anything.
func (rm *RowMutation) Validate(hasFamily func(string) bool) error {
	if len(rm.Key) == 0 || len(rm.Key) > MaxKeySize {
		return fmt.Errorf("key length %d not in [1, %d]: %w", len(rm.Key), MaxKeySize, ErrInvalidArgument)
	}
	if rm.Require > RequirePresent {
		return fmt.Errorf("unknown precondition %d: %w", rm.Require, ErrInvalidArgument)
	}
	if c := rm.RequireColumn; c != nil {
		if rm.Require == NoPrecondition {
			return fmt.Errorf("RequireColumn without a precondition: %w", ErrInvalidArgument)
		}
		if !hasFamily(c.Family) {
			return fmt.Errorf("RequireColumn family %q: %w", c.Family, ErrFamilyNotFound)
		}
	}
	for j := range rm.Mutations {
		if err := rm.Mutations[j].validate(hasFamily); err != nil {
			return fmt.Errorf("mutation %d: %w", j, err)
		}
	}
	return nil
}

func (m *Mutation) validate(hasFamily func(string) bool) error {
	if m.Kind > DeleteRow {
		return fmt.Errorf("unknown kind %d: %w", m.Kind, ErrInvalidArgument)
	}
	if m.Kind == DeleteRow {
		return nil
	}
	if !hasFamily(m.Family) {
		return fmt.Errorf("family %q: %w", m.Family, ErrFamilyNotFound)
	}
	switch m.Kind {
	case SetCell:
		if !validTimestamp(m.Timestamp) {
			return fmt.Errorf("timestamp %d: %w", m.Timestamp, ErrInvalidArgument)
		}
	case DeleteCells:
		if !validTimestamp(m.Start) || !validTimestamp(m.End) || (m.End != 0 && m.End < m.Start) {
			return fmt.Errorf("timestamp range [%d, %d): %w", m.Start, m.End, ErrInvalidArgument)
		}
	}
	return nil
}

// validTimestamp reports whether ts is non-negative and millisecond-aligned.
func validTimestamp(ts Timestamp) bool { return ts >= 0 && ts%1000 == 0 }
