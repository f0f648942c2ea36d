// Package bandcols counts F(g) for the involutive stack exchanges of 2×c
// shapes by bands: the column each symbol takes in each band, then the
// orientations of the cells.
package bandcols
