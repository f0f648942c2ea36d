package exact

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

func TestParseSelection(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Selection
	}{
		{"all", Selection{All: true}},
		{" ALL ", Selection{All: true}},
		{"none", Selection{}},
		{"2", Selection{First: 2}},
		{"17, 0", Selection{IDs: []int32{0, 17}}},
		{"5,", Selection{}}, // error
	} {
		got, err := ParseSelection(tc.text)
		if tc.text == "5," {
			if err == nil {
				t.Errorf("%q: no error", tc.text)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %+v, %v; want %+v", tc.text, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "some", "1,1", "2.5", "1,-3", "1,99999999999"} {
		_, err := ParseSelection(bad)
		var ce *pipeline.ConfigError
		if !errors.As(err, &ce) || ce.Key != "exact.crosscheck" {
			t.Errorf("%q: error %v, want a ConfigError for exact.crosscheck", bad, err)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "all") {
			t.Errorf("%q: message %q is not one line naming what is allowed", bad, msg)
		}
	}
	if err := (&Config{Crosscheck: "x"}).Validate(); err == nil {
		t.Error("Validate accepts crosscheck x")
	}
}

func TestSelectionChoose(t *testing.T) {
	ids := []int32{0, 3, 9}
	for _, tc := range []struct {
		text string
		want []bool
		ok   bool
	}{
		{"all", []bool{true, true, true}, true},
		{"none", []bool{false, false, false}, true},
		{"2", []bool{true, true, false}, true},
		{"9,0", []bool{true, false, true}, true},
		{"4", nil, false},
		{"1,3", nil, false},
	} {
		sel, err := ParseSelection(tc.text)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sel.Choose(tc.text, ids)
		if (err == nil) != tc.ok || tc.ok && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %v, %v; want %v (ok %v)", tc.text, got, err, tc.want, tc.ok)
		}
	}
}
