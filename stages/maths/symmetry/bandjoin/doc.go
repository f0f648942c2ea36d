// Package bandjoin counts the grids fixed by an element of the symmetry group
// up to relabelling, F(g), band orbit by band orbit.
package bandjoin
