package kv

import "fmt"

// Validate checks f's options without looking at a table: a non-empty
// name, non-negative MaxVersions and TTL, and a known Compression and
// Bloom. Errors wrap ErrInvalidArgument. Engines validate every family
// with it at CreateTable and Admin.SetFamilies, so that they reject the
// same specs with the same messages.
func (f *Family) Validate() error {
	switch {
	case f.Name == "":
		return fmt.Errorf("empty family name: %w", ErrInvalidArgument)
	case f.MaxVersions < 0 || f.TTL < 0:
		return fmt.Errorf("family %q: negative MaxVersions or TTL: %w", f.Name, ErrInvalidArgument)
	}
	switch f.Compression {
	case "", "none", "snappy", "zstd":
	default:
		return fmt.Errorf("family %q: unknown compression %q: %w", f.Name, f.Compression, ErrInvalidArgument)
	}
	switch f.Bloom {
	case "", "row", "none":
	default:
		return fmt.Errorf("family %q: unknown bloom filter %q: %w", f.Name, f.Bloom, ErrInvalidArgument)
	}
	return nil
}

// ValidateFamilies checks a family list: each family with Validate, and no
// name twice. Errors wrap ErrInvalidArgument.
func ValidateFamilies(fams []Family) error {
	seen := make(map[string]bool, len(fams))
	for i := range fams {
		if err := fams[i].Validate(); err != nil {
			return err
		}
		if seen[fams[i].Name] {
			return fmt.Errorf("duplicate family %q: %w", fams[i].Name, ErrInvalidArgument)
		}
		seen[fams[i].Name] = true
	}
	return nil
}

// MergeFamilies returns old with fams applied as Admin.SetFamilies
// describes: a family of fams replaces the one of the same name in old,
// the others are appended in fams' order. old is not modified.
func MergeFamilies(old, fams []Family) []Family {
	out := append([]Family(nil), old...)
	for _, f := range fams {
		replaced := false
		for i := range out {
			if out[i].Name == f.Name {
				out[i], replaced = f, true
			}
		}
		if !replaced {
			out = append(out, f)
		}
	}
	return out
}

// Expired reports whether a cell at ts is past the family's TTL at now
// (both microseconds): reads must not return it. A TTL of 0 never expires.
func (f *Family) Expired(ts, now Timestamp) bool {
	return f.TTL > 0 && int64(ts) < int64(now)-f.TTL.Microseconds()
}
