package stages

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSmokeRootGetsEverySource checks that make smoke, which runs below a
// root of its own (build/smoke), copies every hand-written source a stage
// reads (Stage.Sources) there: the Makefile's SMOKE_SOURCES.
func TestSmokeRootGetsEverySource(t *testing.T) {
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^SMOKE_SOURCES\s*:=(.*)$`).FindSubmatch(makefile)
	if line == nil {
		t.Fatal("the Makefile has no SMOKE_SOURCES := line")
	}
	copied := strings.Fields(string(line[1]))
	var sources []string
	for _, s := range All {
		sources = append(sources, s.Sources...)
	}
	slices.Sort(copied)
	slices.Sort(sources)
	if !slices.Equal(copied, slices.Compact(sources)) {
		t.Errorf("Makefile SMOKE_SOURCES %v, the stages' Sources %v", copied, sources)
	}
}
