package grid

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestCountText(t *testing.T) {
	rows := strings.Join([]string{
		"123456789", "456789123", "789123456",
		"214365897", "365897214", "897214365",
		"531642978", "642978531", "978531642",
	}, "\n")
	for _, tc := range []struct {
		name, text, box string
		want            string
		shape           Shape
	}{
		{"empty 4x4 on one line", "................\n", "", "288", Shape{2, 2}},
		{"empty 4x4 in rows with zeros", "0000\n0000\n\n0000\n0000\n", "", "288", Shape{2, 2}},
		{"empty 4x4 with box", "....\n....\n....\n....", "2x2", "288", Shape{2, 2}},
		{"17 clues", seventeen, "", "1", Shape{3, 3}},
		{"17 clues with box and spaces", strings.ReplaceAll(seventeen, "0", ". "), "3x3", "1", Shape{3, 3}},
		{"full grid", rows, "", "1", Shape{3, 3}},
		{"full grid, CRLF", strings.ReplaceAll(rows, "\n", "\r\n"), "3X3", "1", Shape{3, 3}},
		{"6x6 needs a box", "......" + strings.Repeat("\n......", 5), "2x3", "28200960", Shape{2, 3}},
		{"lower-case letters", "a" + strings.Repeat(".", 255), "4x4", "", Shape{4, 4}},
	} {
		if tc.want == "" { // too many completions to count: check parsing only
			g, err := Parse(tc.text, tc.shape)
			if err != nil || g.Cells[0] != 10 {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		g, got, err := CountText(context.Background(), strings.NewReader(tc.text), tc.box, 2)
		if err != nil || got.String() != tc.want || g.Shape != tc.shape {
			t.Errorf("%s: %v %v, %v; want %s %s", tc.name, g.Shape, got, err, tc.shape, tc.want)
		}
	}
}

func TestCountTextClash(t *testing.T) {
	_, got, err := CountText(context.Background(), strings.NewReader("2..1\n..1.\n....\n...."), "", 1)
	if !errors.Is(err, ErrClash) || got == nil || got.Sign() != 0 ||
		!strings.Contains(err.Error(), "r1c4 and r2c3 both hold 1 in one box") {
		t.Errorf("clash: count %v, error %v", got, err)
	}
}

func TestCountTextBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, text, box, want string
	}{
		{"no cells", "\n  \n", "", "line 1: no cells"},
		{"one line not square", strings.Repeat(".", 80), "", "line 1: 80 cells is not a square number"},
		{"one line too short for box", strings.Repeat(".", 80), "3x3", "line 1: 80 cells, want 81"},
		{"row too long", "....\n.....\n....\n....", "", "line 2: 5 cells, want 4 (row 2"},
		{"row too short", "....\n....\n\n...\n....", "2x2", "line 4: 3 cells, want 4 (row 3"},
		{"too many rows", "....\n....\n....\n....\n....", "2x2", "line 5: more than 4 lines"},
		{"too few rows", "....\n....\n....", "2x2", "line 3: the grid ends after 3 rows, want 4"},
		{"symbol out of range", "....\n..5.\n....\n....", "", "line 2, column 3: symbol '5' is out of range for a 4×4 grid: want 1-4"},
		{"letter out of range", strings.Repeat(".", 40) + "J" + strings.Repeat(".", 40), "", "line 1, column 41: symbol 'J' is out of range for a 9×9 grid: want 1-9"},
		{"not a symbol", "....\n.#..\n....\n....", "", "line 2, column 2: '#' is not a cell"},
		{"column counts spaces", "....\n. . ? .\n....\n....", "", "line 2, column 5: '?' is not a cell"},
		{"unknown box", "................", "2by2", `box shape "2by2": want RxC`},
		{"box too big", "................", "7x7", `box shape "7x7"`},
		{"ambiguous side", "......\n......\n......\n......\n......\n......", "", "side 6 has boxes 2x3 or 3x2: name one with --box"},
		{"prime side", "....." + strings.Repeat("\n.....", 4), "", "side 5 has no box shape other than 1x5"},
		{"box mismatch", "................", "3x3", "line 1: 16 cells, want 81"},
		{"side 36", strings.Repeat(".", 36*36), "6x6", "R·C ≤ 35"},
	} {
		_, got, err := CountText(context.Background(), strings.NewReader(tc.text), tc.box, 1)
		if err == nil || got != nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: count %v, error %v; want one line containing %q", tc.name, got, err, tc.want)
		}
	}
}

func TestGridString(t *testing.T) {
	g, err := Parse(seventeen, Shape{3, 3})
	if err != nil {
		t.Fatal(err)
	}
	h, err := Parse(g.String(), Shape{3, 3})
	if err != nil || h.String() != g.String() || !strings.HasPrefix(g.String(), ".......1.\n4........\n") {
		t.Errorf("round trip: %v\n%s", err, g)
	}
}

// TestParseShape: one shape has one spelling, and sides stop where the text
// format's symbols do.
func TestParseShape(t *testing.T) {
	for text, want := range map[string]Shape{"3x3": {3, 3}, "2x5": {2, 5}, "1x35": {1, 35}, "5x7": {5, 7}} {
		if got, err := ParseShape(text); err != nil || got != want {
			t.Errorf("ParseShape(%q) = %v, %v; want %v", text, got, err, want)
		}
	}
	for _, text := range []string{"03x3", "3X3", " 3x3", "3x3 ", "+3x3", "3x03", "6x6", "0x4", "3x", "x3", "3", "3x3x3", "-1x-1"} {
		if s, err := ParseShape(text); err == nil {
			t.Errorf("ParseShape(%q) = %v, want an error", text, s)
		} else if !strings.Contains(err.Error(), "3x3") {
			t.Errorf("ParseShape(%q): error %q does not show the allowed form", text, err)
		}
	}
}

// TestCountWithProgress: the progress hears of every subtree once, and
// the count is Count's.
func TestCountWithProgress(t *testing.T) {
	g, err := ReadText(strings.NewReader(strings.Repeat(".", 36)), "2x3")
	if err != nil {
		t.Fatal(err)
	}
	var total int
	var done atomic.Int64
	count, err := g.CountWithProgress(context.Background(), 3, func(n int) func() {
		total = n
		return func() { done.Add(1) }
	})
	if err != nil || count.String() != "28200960" {
		t.Fatalf("count %v, %v", count, err)
	}
	if total < 3 || done.Load() != int64(total) {
		t.Errorf("progress: %d of %d subtrees reported done", done.Load(), total)
	}
}
