package lsm

import (
	"bytes"
	"container/heap"
)

// internalIter is the one iterator contract of the engine's sources of
// internal keys: memtables, files and their merge. Key and Value are valid
// until the next positioning call. SeekLT leaves the iterator positioned at
// the last key below its argument, for Key only: callers SeekGE before
// calling Next again.
type internalIter interface {
	SeekGE(k []byte)
	SeekLT(k []byte)
	First()
	Next()
	Valid() bool
	Key() []byte
	Value() []byte
	Err() error
	Close() error
}

// mergingIter merges children in key order. Equal keys from different
// children (a DeleteRow tombstone copied into several family files) are all
// returned; consumers treat duplicates idempotently.
type mergingIter struct {
	children []internalIter
	h        iterHeap
	err      error
	mems     []memIter // the memtable children, when built by initIter
}

var _ internalIter = (*mergingIter)(nil)

type iterHeap []internalIter

func (h iterHeap) Len() int           { return len(h) }
func (h iterHeap) Less(i, j int) bool { return bytes.Compare(h[i].Key(), h[j].Key()) < 0 }
func (h iterHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *iterHeap) Push(x any)        { *h = append(*h, x.(internalIter)) }
func (h *iterHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func newMergingIter(children []internalIter) *mergingIter {
	return &mergingIter{children: children, h: make(iterHeap, 0, len(children))}
}

func (m *mergingIter) init() {
	m.h = m.h[:0]
	for _, c := range m.children {
		if c.Valid() {
			m.h = append(m.h, c)
		} else if err := c.Err(); err != nil && m.err == nil {
			m.err = err
		}
	}
	heap.Init(&m.h)
}

func (m *mergingIter) SeekGE(k []byte) {
	for _, c := range m.children {
		c.SeekGE(k)
	}
	m.init()
}

func (m *mergingIter) First() {
	for _, c := range m.children {
		c.First()
	}
	m.init()
}

// SeekLT positions at the largest key below k over all children.
func (m *mergingIter) SeekLT(k []byte) {
	m.h = m.h[:0]
	var best internalIter
	for _, c := range m.children {
		c.SeekLT(k)
		if c.Valid() {
			if best == nil || bytes.Compare(c.Key(), best.Key()) > 0 {
				best = c
			}
		} else if err := c.Err(); err != nil && m.err == nil {
			m.err = err
		}
	}
	if best != nil {
		m.h = append(m.h, best)
	}
}

func (m *mergingIter) Next() {
	if len(m.h) == 0 {
		return
	}
	top := m.h[0]
	top.Next()
	if top.Valid() {
		heap.Fix(&m.h, 0)
		return
	}
	if err := top.Err(); err != nil && m.err == nil {
		m.err = err
	}
	heap.Pop(&m.h)
}

func (m *mergingIter) Valid() bool   { return m.err == nil && len(m.h) > 0 }
func (m *mergingIter) Key() []byte   { return m.h[0].Key() }
func (m *mergingIter) Value() []byte { return m.h[0].Value() }
func (m *mergingIter) Err() error    { return m.err }

func (m *mergingIter) Close() error {
	for _, c := range m.children {
		if err := c.Close(); err != nil && m.err == nil {
			m.err = err
		}
	}
	// Keep the slices for reuse (initIter) but no references.
	clear(m.children)
	clear(m.h[:cap(m.h)])
	// The memIters dropped their references in Close and keep their buffers.
	m.children, m.h = m.children[:0], m.h[:0]
	return m.err
}
