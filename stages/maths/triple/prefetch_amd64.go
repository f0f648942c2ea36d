package triple

// prefetchRow asks the processor to load the n uint16 at p into the cache
// without waiting for them (n > 0).
//
//go:noescape
func prefetchRow(p *uint16, n int)

func prefetch(row []uint16) { prefetchRow(&row[0], len(row)) }
