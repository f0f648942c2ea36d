package htmlpage_test

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/htmlpage"
	"github.com/sudoku-census/sudoku-census/stages/presentation/htmlreport"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// TestWrite writes a page from results made by hand, without the
// pipeline: the count in the paper's formatting among the key results and
// the numbers, linked to the artifact it is read from (the link relative to
// the page in paper/), the artifact's hash in the provenance, the same bytes
// twice, and an error (not a page) for a figure that is not an input.
func TestWrite(t *testing.T) {
	grids, _ := new(big.Int).SetString("6670903752021072936960", 10)
	r := &present.Results{Total: &present.Total{Grids: grids, CanonicalGrids: big.NewInt(1), ReducedCount: big.NewInt(1),
		ReducedCountFactors: "2^7 × 3", From: typeset.Source{Artifact: "data/total.parquet"}}}
	total := pipeline.ArtifactEntry{Name: "total", Path: "data/total.parquet", SHA256: strings.Repeat("ab", 32), Size: 10, Rows: -1,
		Stage: exact.Stage.Name, Fingerprint: strings.Repeat("cd", 32)}
	in := htmlpage.Inputs{Entries: []pipeline.ArtifactEntry{total}, Read: func(pipeline.ArtifactEntry) ([]byte, error) { return nil, nil }}
	stages := map[string]*pipeline.Stage{exact.Stage.Name: exact.Stage}
	page, err := htmlpage.Write(htmlreport.Stage, r, nil, in, stages)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<li id="key-grids">9×9 Sudoku grids, counted exactly: <a class="from" href="../data/total.parquet" title="data/total.parquet, every row"><span class="num">6,670,903,752,021,072,936,960</span></a>`,
		`<tr><td><code>\GridsExact</code></td><td><a class="from" href="../data/total.parquet" title="data/total.parquet, every row"><span class="num">6,670,903,752,021,072,936,960</span></a></td></tr>`,
		`<span class="num">2<sup>7</sup> × 3</span>`,
		`<code class="sha256" data-path="data/total.parquet">` + total.SHA256 + `</code>`,
		`<tr id="artifact-data-total-parquet">`,
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %s", want)
		}
	}
	again, err := htmlpage.Write(htmlreport.Stage, r, nil, in, stages)
	if err != nil || !bytes.Equal(page, again) {
		t.Errorf("a second page from the same inputs differs (%v)", err)
	}
	if _, err := htmlpage.Write(htmlreport.Stage, r, []figures.Row{{Figure: "funnel", PNG: "figures/funnel.png", Drawn: true}}, in, stages); err == nil ||
		!strings.Contains(err.Error(), "figures/funnel.png") {
		t.Errorf("a figure that is not an input: error %v", err)
	}
}

// TestKeyResultsLeadWithWhatIsNew: the 2×6 count counted here comes
// before the 9×9 results.
func TestKeyResultsLeadWithWhatIsNew(t *testing.T) {
	grids, _ := new(big.Int).SetString("6670903752021072936960", 10)
	twoSix, _ := new(big.Int).SetString("38296278920738107863746324732012492486187417600000", 10)
	r := &present.Results{Total: &present.Total{Grids: grids, CanonicalGrids: big.NewInt(1), ReducedCount: big.NewInt(1),
		ReducedCountFactors: "2^7 × 3"}, Shapes: []present.ShapeCount{{Shape: grid.Shape{R: 2, C: 6}, Grids: twoSix}}}
	in := htmlpage.Inputs{Read: func(pipeline.ArtifactEntry) ([]byte, error) { return nil, nil }}
	page, err := htmlpage.Write(htmlreport.Stage, r, nil, in, map[string]*pipeline.Stage{exact.Stage.Name: exact.Stage})
	if err != nil {
		t.Fatal(err)
	}
	newer := bytes.Index(page, []byte(`<li id="key-twoxsix">12×12 Sudoku grids with 2×6 boxes, counted here: <span class="num">38,296,278,920,738,107,863,746,324,732,012,492,486,187,417,600,000</span>`))
	nine := bytes.Index(page, []byte(`<li id="key-grids">`))
	if newer < 0 || nine < 0 || newer > nine {
		t.Errorf("key results: the 2×6 count at %d, the 9×9 count at %d; want both, the 2×6 first", newer, nine)
	}
}
