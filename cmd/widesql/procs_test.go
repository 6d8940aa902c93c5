package main

import "testing"

func TestProcsFor(t *testing.T) {
	for cpus, want := range map[int]int{1: 1, 2: 3, 3: 4, 4: 5, 5: 5, 64: 64} {
		if got := procsFor(cpus); got != want {
			t.Errorf("procsFor(%d) = %d, want %d", cpus, got, want)
		}
	}
}
