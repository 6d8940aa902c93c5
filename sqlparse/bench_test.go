package sqlparse

import "testing"

func BenchmarkParsePointSelect(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Parse("SELECT v FROM kv WHERE k = 12345;"); err != nil {
			b.Fatal(err)
		}
	}
}
