package htmlreport_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/htmlreport"
)

// gridsNine is the 9×9 count as the paper prints it.
const gridsNine = "6,670,903,752,021,072,936,960"

// TestPage runs the smoke pipeline up to the HTML report, checks that
// every number of its tables and key results links to the artifact rows
// it is read from (Provenance, without a browser), checks the page in a
// headless browser (no console error or exception, nothing fetched, every
// figure rendered with a non-zero size, the 9×9 count visible, the hash of
// every input artifact shown and equal to the manifest's), checks that
// deliberately broken copies of the page fail those checks, and rebuilds
// the page on one processor to check it is byte-identical.
func TestPage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the upstream stages; the pipeline's own run covers it")
	}
	o := pipelinetest.Options{Stages: pipelinetest.Closure(htmlreport.Stage), Config: "../../../configs/smoke.yaml",
		Set: []string{"exact.crosscheck=none"}, Targets: []string{htmlreport.Stage.Name}}
	root := pipelinetest.Run(t, o)
	pagePath := filepath.Join(root, htmlreport.Page.Path)
	page, err := os.ReadFile(pagePath)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Provenance", func(t *testing.T) { checkProvenance(t, root, page) })

	browser := browserOrSkip(t)

	m, err := store.ReadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	// The page's inputs: the artifacts of the stages it requires.
	want := expectations{number: gridsNine, hashes: map[string]string{}}
	required := map[string]bool{}
	for _, s := range htmlreport.Stage.Requires {
		required[s.Name] = true
	}
	for _, a := range m.Artifacts {
		if required[a.Stage] {
			want.hashes[a.Path] = a.SHA256
		}
	}
	figs, err := figures.Index.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	want.figures = len(figs)
	if want.figures == 0 || len(want.hashes) == 0 {
		t.Fatalf("smoke run has %d figures and %d input artifacts", want.figures, len(want.hashes))
	}

	start := time.Now()
	facts := inspect(t, browser, fileURL(pagePath), 1280)
	for _, p := range problems(facts, want) {
		t.Error(p)
	}
	t.Logf("browser: %d figures rendered, %d SHA-256 shown (%d artifacts) equal to the manifest's, %s visible; page %d bytes; %v",
		len(facts.Figures), len(facts.Hashes), len(want.hashes), gridsNine, len(page), time.Since(start).Round(time.Millisecond))

	// A phone: every table scrolls sideways within the page or fits, and
	// nothing is cut off.
	t.Run("Phone400px", func(t *testing.T) {
		for _, p := range problems(inspect(t, browser, fileURL(pagePath), 400), want) {
			t.Error(p)
		}
	})

	t.Run("NegativeControl", func(t *testing.T) {
		firstHash := regexp.MustCompile(`class="sha256" data-path="[^"]*">([0-9a-f])`)
		loc := firstHash.FindSubmatchIndex(page)
		if loc == nil {
			t.Fatal("page shows no hash")
		}
		flipped := bytes.Clone(page)
		flipped[loc[2]] = map[byte]byte{'0': '1'}[flipped[loc[2]]]
		if flipped[loc[2]] == 0 {
			flipped[loc[2]] = '0'
		}
		inject := func(html string) []byte {
			return bytes.Replace(page, []byte("</body>"), []byte(html+"</body>"), 1)
		}
		broken := []struct {
			name, want string
			page       []byte
			width      int
		}{
			{"exception", "console exception", inject(`<script>noSuchFunction()</script>`), 1280},
			{"console error", "console error: broken", inject(`<script>console.error("broken")</script>`), 1280},
			{"figure", "does not render", bytes.Replace(page, []byte("data:image/png;base64,"), []byte("data:image/png;base64,AAAA"), 1), 1280},
			{"network", "fetched", inject(`<img alt="" src="http://127.0.0.1:9/x.png">`), 1280},
			{"hash", "the manifest", flipped, 1280},
			{"number", "does not show", bytes.ReplaceAll(page, []byte(gridsNine), []byte(strings.Replace(gridsNine, "960", "961", 1))), 1280},
			// Tables that do not scroll: at 400 px the wide ones overflow.
			{"unscrolled tables", "at 400 px wide", bytes.Replace(page, []byte("display: block; max-width: 100%; overflow-x: auto;"), nil, 1), 400},
		}
		dir := t.TempDir()
		for _, b := range broken {
			if bytes.Equal(b.page, page) {
				t.Fatalf("%s: the broken page is the page", b.name)
			}
			path := filepath.Join(dir, strings.ReplaceAll(b.name, " ", "_")+".html")
			if err := os.WriteFile(path, b.page, 0o644); err != nil {
				t.Fatal(err)
			}
			found := problems(inspect(t, browser, fileURL(path), b.width), want)
			if !strings.Contains(strings.Join(found, "\n"), b.want) {
				t.Errorf("broken page (%s): problems %q, want one containing %q", b.name, found, b.want)
			}
		}
	})

	t.Run("ByteIdentical", func(t *testing.T) {
		o.Root, o.Force, o.Procs = pipelinetest.Copy(t, root), []string{htmlreport.Stage.Name}, 1
		pipelinetest.SameOutputs(t, root, pipelinetest.Run(t, o), htmlreport.Stage)
	})
}
