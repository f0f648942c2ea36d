package store

import (
	"strings"
	"testing"
	"time"
)

func TestUnitFileChecks(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	b := encodeUnit(fp, "u1", []byte("result"), 1500*time.Millisecond)
	if r, took, ok := DecodeUnit(fp, "u1", b); !ok || string(r) != "result" || took != 1500*time.Millisecond {
		t.Fatalf("decode: %q %v %v", r, took, ok)
	}
	for name, bad := range map[string][]byte{
		"other id": b, "short": b[:10], "truncated": b[:len(b)-1], "flipped": append([]byte{'R'}, b[1:]...),
	} {
		id := "u1"
		if name == "other id" {
			id = "u2"
		}
		if _, _, ok := DecodeUnit(fp, id, bad); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	if r, _, ok := DecodeUnit(fp, "e", encodeUnit(fp, "e", nil, 0)); !ok || r == nil || len(r) != 0 {
		t.Errorf("empty result: %v %v", r, ok)
	}
}
