package pairunits

import "testing"

// TestParse: every kind of unit id gives its width, and anything else is
// refused, including a bundled unit beyond the last.
func TestParse(t *testing.T) {
	ids := BundleIDs()
	if len(ids) != 1975 || ids[0] != BundlePrefix+"00000" || ids[1974] != BundlePrefix+"01974" {
		t.Fatalf("bundle ids: %d, first %q, last %q", len(ids), ids[0], ids[len(ids)-1])
	}
	for _, tc := range []struct {
		id        string
		c         int
		multisets bool
	}{{"pair-c5-0000032", 5, false}, {"multisets-c4", 4, true}, {ids[0], 6, false}, {ids[1974], 6, false}} {
		c, multisets, err := Parse(tc.id)
		if err != nil || c != tc.c || multisets != tc.multisets {
			t.Errorf("Parse(%q) = %d, %v, %v; want %d, %v", tc.id, c, multisets, err, tc.c, tc.multisets)
		}
	}
	for _, bad := range []string{"", "pair-c5", BundlePrefix + "01975", BundlePrefix + "1", "pair6-k0-00001"} {
		if _, _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}
