package sstable

// get is getBlock for tests: the cached bytes or nil. The reference is
// kept, so the bytes are never recycled.
func (c *Cache) get(fileNum, offset uint64) []byte {
	if e := c.getBlock(fileNum, offset, nil); e != nil {
		return e.block.data
	}
	return nil
}

// set is setBlock for tests, of any bytes (a block or not).
func (c *Cache) set(fileNum, offset uint64, block []byte) {
	c.setBlock(fileNum, offset, newCacheEntry(block, nil), nil).release()
}

// newCachedBlock returns data prepared for seeks, as the cache keeps it.
func newCachedBlock(data []byte) *cachedBlock {
	cb := new(cachedBlock)
	cb.init(data)
	return cb
}
