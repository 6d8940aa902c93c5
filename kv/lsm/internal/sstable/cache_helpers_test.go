package sstable

// get is getBlock for tests: the cached bytes or nil.
func (c *Cache) get(fileNum, offset uint64) []byte {
	if cb := c.getBlock(fileNum, offset, nil); cb != nil {
		return cb.data
	}
	return nil
}

// set is setBlock for tests, of any bytes (a block or not).
func (c *Cache) set(fileNum, offset uint64, block []byte) {
	c.setBlock(fileNum, offset, newCacheEntry(block), nil)
}

// newCachedBlock returns data prepared for seeks, as the cache keeps it.
func newCachedBlock(data []byte) *cachedBlock {
	cb := new(cachedBlock)
	cb.init(data)
	return cb
}
