// Package triplestacks describes and counts the single stacks of the
// three-stack method of package triple, for boxes of 3 rows and C columns
// (MinC ≤ C ≤ MaxC: C = 2, 3, 4; side N = 3C ≤ 12, so that symbols and rows
// fit 16-bit masks).
//
// A stack is N rows × C columns; band i is rows 3i, 3i+1, 3i+2, and its
// three rows hold the parts of a Partition of the N symbols into three
// C-sets. For the configuration σ = (P_0, …, P_{C-1}), one partition per
// band, StackCounter counts E(σ), the stacks with those row sets whose
// columns each hold every symbol once: the proper C-edge-colourings, by the
// columns, of the C-regular bipartite graph joining each row to its C
// symbols, by a dynamic programme over the symbols.
//
// A Shape holds the combinatorics of one C that the counts are organised
// by:
//
//   - the (3C)!/(C!³·3!) partitions (15, 280, 5,775), numbered (Index);
//   - the bases: the 3×3 matrices |P_i ∩ Q_j| of two partitions up to
//     permutations of rows and columns (3, 5 and 9 of them), each with its
//     frame (Frame), a standard pair of partitions with that matrix;
//     Normalise gives a relabelling of the symbols (Relabel) that takes a
//     pair of partitions to the frame of its base, which keeps E;
//   - the stabiliser of a frame (StabOf), the relabellings (Perm) that map
//     both of its partitions onto themselves, of order |Aut|·Π_ij b_ij!
//     for the automorphisms Aut of the base's matrix b, and its orbits on
//     the partitions (PartOrbits);
//   - the splits of a band (SplitsOf): the ways to continue a band of the
//     first stack into the second and third stacks, F(C) = Σ_k C(C,k)³ of
//     them (10, 56, 346).
//
// The package imports the standard library only.
package triplestacks
