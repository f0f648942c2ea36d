package sudoku

import (
	"slices"
	"testing"
)

// The Felgenhauer–Jarvis example band (section 2.2, "Duplication").
var example = Band{
	{1, 2, 3, 4, 5, 8, 6, 7, 9},
	{4, 5, 6, 1, 7, 9, 2, 3, 8},
	{7, 8, 9, 2, 3, 6, 1, 4, 5},
}

func TestAllBands(t *testing.T) {
	var (
		n       int
		prev    Key
		perCase [TopRowCases + 1]int
		pure    int
	)
	for b := range AllBands() {
		if !b.Valid() || !b.HasCanonicalB1() {
			t.Fatalf("band %d %s: not valid with canonical B1", n, b)
		}
		k := b.Key()
		if n > 0 && k <= prev {
			t.Fatalf("band %d %s: not after the previous band in dictionary order", n, b)
		}
		if got := k.Band(); got != b {
			t.Fatalf("Key round trip: %s became %s", b, got)
		}
		prev = k
		c := b.TopRowCase()
		if c < 1 || c > TopRowCases {
			t.Fatalf("band %s: top-row case %d", b, c)
		}
		perCase[c]++
		if IsPure(c) {
			pure++
		}
		n++
	}
	// Strictly increasing keys make the bands distinct.
	if n != 2_612_736 {
		t.Errorf("AllBands yielded %d bands, want 2,612,736", n)
	}
	if pure != 2*46656 {
		t.Errorf("%d pure bands, want 2 × 6^6 = 93,312", pure)
	}
	cases, mixed := 0, 0
	for c := 1; c <= TopRowCases; c++ {
		if perCase[c] != CaseBands(c) {
			t.Errorf("case %d %v (%s): %d bands, want %d", c, CaseDigits(c), Kind(c), perCase[c], CaseBands(c))
		}
		if perCase[c] > 0 {
			cases++
		}
		if Kind(c) == "mixed" {
			mixed++
		}
	}
	if cases != 20 || mixed != 18 {
		t.Errorf("%d top-row cases occur, %d mixed; want 20 and 18", cases, mixed)
	}
}

func TestTopRowCases(t *testing.T) {
	seen := map[[3]uint8]bool{}
	for c := 1; c <= TopRowCases; c++ {
		d := CaseDigits(c)
		if seen[d] || !(4 <= d[0] && d[0] < d[1] && d[1] < d[2] && d[2] <= 9) {
			t.Errorf("case %d: digits %v", c, d)
		}
		seen[d] = true
		if prev := CaseDigits(max(c-1, 1)); c > 1 && slices.Compare(prev[:], d[:]) >= 0 {
			t.Errorf("cases %d and %d out of dictionary order", c-1, c)
		}
	}
	if CaseDigits(1) != [3]uint8{4, 5, 6} || CaseDigits(20) != [3]uint8{7, 8, 9} || !IsPure(1) || !IsPure(20) || IsPure(2) {
		t.Errorf("pure cases are not 1 = {4,5,6} and 20 = {7,8,9}")
	}
	if got := example.TopRowCase(); CaseDigits(got) != [3]uint8{4, 5, 8} || Kind(got) != "mixed" {
		t.Errorf("example: case %d %v, want {4,5,8} mixed", got, CaseDigits(got))
	}
}

func TestReduce(t *testing.T) {
	counts := map[Key]int{}
	halves := map[Key]int{}
	for b := range AllBands() {
		r := b.LexReduce()
		if !r.Valid() || !r.IsReduced() {
			t.Fatalf("%s reduces to %s, which is not reduced", b, r)
		}
		if r.LexReduce() != r {
			t.Fatalf("LexReduce is not idempotent on %s", r)
		}
		counts[r.Key()]++
		halves[b.SortColumns().Key()]++
	}
	if len(counts) != ReducedCount {
		t.Errorf("%d reduced bands, want 36,288", len(counts))
	}
	for k, m := range counts {
		if m != 72 {
			t.Fatalf("reduced band %s has multiplicity %d, want 72", k.Band(), m)
		}
	}
	if len(halves) != 72576 {
		t.Errorf("%d column-sorted bands, want 72,576", len(halves))
	}
	for k, m := range halves {
		if m != 36 {
			t.Fatalf("column-sorted band %s has multiplicity %d, want 36", k.Band(), m)
		}
	}
}

// TestThesisExamples replays the worked examples of chapter 2 of the
// thesis (figures 2.5-2.7 and 2.10-2.13): an operation, relabelling of B1
// and lexicographic reduction give the printed band.
func TestThesisExamples(t *testing.T) {
	config1 := Band{{1, 2, 3, 4, 8, 9, 5, 6, 7}, {4, 5, 6, 1, 2, 7, 3, 8, 9}, {7, 8, 9, 3, 5, 6, 1, 2, 4}}
	got := config1.PermuteRows([3]int{1, 0, 2}).Reduce()
	want := Band{{1, 2, 3, 4, 5, 7, 6, 8, 9}, {4, 5, 6, 1, 8, 9, 2, 3, 7}, {7, 8, 9, 6, 2, 3, 4, 5, 1}}
	if got != want {
		t.Errorf("figure 2.7: got %s, want %s", got, want)
	}
	got = example.PermuteColumns([9]int{1, 0, 2, 3, 4, 5, 6, 7, 8}).Reduce()
	want = Band{{1, 2, 3, 4, 5, 7, 6, 8, 9}, {4, 5, 6, 8, 2, 9, 1, 3, 7}, {7, 8, 9, 3, 1, 6, 2, 5, 4}}
	if got != want {
		t.Errorf("figure 2.13: got %s, want %s", got, want)
	}
	// Figure 2.12 is the relabelled band before reduction.
	rel := example.PermuteColumns([9]int{1, 0, 2, 3, 4, 5, 6, 7, 8}).RelabelB1()
	want = Band{{1, 2, 3, 5, 4, 7, 6, 8, 9}, {4, 5, 6, 2, 8, 9, 1, 3, 7}, {7, 8, 9, 1, 3, 6, 2, 5, 4}}
	if rel != want || rel.IsReduced() {
		t.Errorf("figure 2.12: got %s (reduced %v), want %s, not reduced", rel, rel.IsReduced(), want)
	}
}

func TestParseBand(t *testing.T) {
	rows := example.Rows()
	if rows != [3]string{"123458679", "456179238", "789236145"} {
		t.Fatalf("Rows: %q", rows)
	}
	b, err := ParseBand(rows[0], rows[1], rows[2])
	if err != nil || b != example {
		t.Fatalf("ParseBand(%q) = %s, %v", rows, b, err)
	}
	for _, bad := range [][3]string{
		{"12345867", rows[1], rows[2]},          // short
		{"123458670", rows[1], rows[2]},         // digit 0
		{"123458679", rows[1], "789231645"},     // rows fine, blocks repeat
		{"123458679", "456179238", "789236144"}, // row repeats
	} {
		if _, err := ParseBand(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("ParseBand(%q) accepted a bad band", bad)
		}
	}
	if example.String() != "123458679/456179238/789236145" {
		t.Errorf("String: %s", example)
	}
}

func TestValidAndColumnSets(t *testing.T) {
	if !example.Valid() {
		t.Fatal("example is not valid")
	}
	bad := example
	bad[1][3], bad[1][4] = bad[1][4], bad[1][3] // rows stay permutations, block B2 still fine
	if !bad.Valid() {
		t.Error("swapping two cells of a row inside a block made the band invalid")
	}
	bad[2][0], bad[2][3] = bad[2][3], bad[2][0] // B1 and B2 now repeat digits
	if bad.Valid() {
		t.Error("a band whose blocks repeat digits is valid")
	}
	s := example.ColumnSets()
	if s[0] != 1<<1|1<<4|1<<7 || s[3] != 1<<4|1<<1|1<<2 {
		t.Errorf("ColumnSets: %b", s)
	}
}

func BenchmarkAllBands(b *testing.B) {
	for b.Loop() {
		n := 0
		for range AllBands() {
			n++
		}
	}
}

func BenchmarkReduce(b *testing.B) {
	var bands []Band
	for x := range AllBands() {
		bands = append(bands, x)
	}
	b.ResetTimer()
	for b.Loop() {
		var sum Key
		for _, x := range bands {
			sum += x.LexReduce().Key()
		}
		_ = sum
	}
}
