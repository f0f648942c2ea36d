package htmlreport_test

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shared/literature"
)

// repoRoot is the repository's root from this package's directory: the
// literature's file is read there.
const repoRoot = "../../.."

var (
	resultsTable = regexp.MustCompile(`(?s)<table id="(table-[a-z]+)">(.*?)</table>`)
	keyResults   = regexp.MustCompile(`(?s)<ul class="headline">(.*?)</ul>`)
	tableCell    = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	keyResult    = regexp.MustCompile(`(?s)<li id="(key-[a-z0-9-]+)">(.*?)</li>`)
	fromLink     = regexp.MustCompile(`(?s)<a class="from" href="([^"]*)" title="([^"]*)">(.*?)</a>`)
	numberSpan   = regexp.MustCompile(`<span class="num">(.*?)</span>`)
	digit        = regexp.MustCompile(`[0-9]`)
	macroRow     = regexp.MustCompile(`<tr><td><code>\\(\w+)</code></td><td>(.*?)</td></tr>`)
)

// constants are the paper's numbers that no artifact holds: the code's
// constants (9!^9, the Pareto k̂ limit, the side the tails table starts
// at). Every other number of the paper links to its artifact rows.
var constants = map[string]bool{"OmegaSizeSci": true, "UnreliableK": true, "UnreliableKFullFrom": true, "TailSide": true, "HeuristicFigureLinearPercent": true}

// checkProvenance fails t for every problem provenanceProblems finds in
// the page of the run in root, checks that broken copies of the page (a
// number's link removed, a row or an artifact that is not there) are
// caught, and checks one table number and one key result exactly: a 3×3
// estimate links to its row of data/knuth.parquet and the 9×9 count to
// data/total.parquet.
func checkProvenance(t *testing.T, root string, page []byte) {
	rows := rowsOf(root)
	problems, numbers, sources := provenanceProblems(root, page, rows)
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("provenance: %d numbers of the tables, key results and the paper's macros, each linked; %d distinct artifact rows named", numbers, sources)
	if numbers < 100 {
		t.Errorf("only %d numbers in the tables and key results of the smoke run", numbers)
	}

	// The first positive 3×3 estimate of knuth.parquet, as its row has it.
	summary, err := knuth.Summary.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var estimate, where string
	for _, row := range summary {
		x, err := present.ParseFloat("estimate", row.Estimate)
		if err != nil {
			t.Fatal(err)
		}
		if row.Shape == "3x3" && x.Sign() > 0 {
			if estimate, err = typeset.MathHTML(present.SciFloat(x, 4)); err != nil {
				t.Fatal(err)
			}
			where = "where shape=3x3 variant=" + row.Variant
			break
		}
	}
	if estimate == "" {
		t.Fatal("knuth.parquet has no positive 3×3 estimate")
	}
	var estimators string
	for _, tb := range resultsTable.FindAllSubmatch(page, -1) {
		if string(tb[1]) == "table-estimators" {
			estimators = string(tb[2])
		}
	}
	if want := `<a class="from" href="../data/knuth.parquet" title="data/knuth.parquet ` + where + `"><span class="num">` + estimate + `</span></a>`; !strings.Contains(estimators, want) {
		t.Errorf("the estimators table lacks the 3×3 estimate linked to its row: %s", want)
	}
	if want := `<li id="key-grids">9×9 Sudoku grids, counted exactly: <a class="from" href="../data/total.parquet" title="data/total.parquet, every row"><span class="num">` + gridsNine + `</span></a>`; !bytes.Contains(page, []byte(want)) {
		t.Errorf("the key results lack the 9×9 count linked to data/total.parquet: %s", want)
	}

	// Broken copies: each must be caught.
	for _, b := range []struct {
		name, want string
		page       []byte
	}{
		{"a table number's link removed", "has no provenance", unlink(t, page, `<table id="table-estimators">`)},
		{"a macro's link removed", "has no provenance", unlink(t, page, `<h2 id="numbers">`)},
		{"a row that is not there", "selects no row", bytes.Replace(page, []byte(where+`"`), []byte(where+`x"`), 1)},
		{"an artifact the run did not write", "not an artifact of the run", bytes.Replace(page, []byte(`href="../data/knuth.parquet" title="data/knuth.parquet where`), []byte(`href="../data/knuths.parquet" title="data/knuths.parquet where`), 1)},
		{"a link to another artifact than its title", "links to", bytes.Replace(page, []byte(`href="../data/knuth.parquet"`), []byte(`href="../data/total.parquet"`), 1)},
	} {
		if bytes.Equal(b.page, page) {
			t.Fatalf("%s: the broken page is the page", b.name)
		}
		found, _, _ := provenanceProblems(root, b.page, rows)
		if !strings.Contains(strings.Join(found, "\n"), b.want) {
			t.Errorf("broken page (%s): problems %q, want one containing %q", b.name, found, b.want)
		}
	}
}

// unlink returns page with the first link to a source after marker
// replaced by what it links.
func unlink(t *testing.T, page []byte, marker string) []byte {
	off := bytes.Index(page, []byte(marker))
	if off < 0 {
		t.Fatalf("the page lacks %s", marker)
	}
	link := fromLink.FindSubmatchIndex(page[off:])
	if link == nil {
		t.Fatalf("no link after %s", marker)
	}
	return append(append(bytes.Clone(page[:off+link[0]]), page[off+link[6]:off+link[7]]...), page[off+link[1]:]...)
}

// provenanceProblems returns what is wrong with the provenance of the
// page of the run in root: a number (a digit in a number's span) of a
// results table, a key result or a macro of the paper (but constants)
// without a link to its source, a link
// whose target is not its first source's artifact, a source that is
// neither an artifact of the run (in its manifest) nor the literature's
// file, or whose rows are not there (no row; more than one where the
// number is of one row: only the coverage study's runs and "every row"
// are sums of several). It also returns the numbers linked and the
// distinct sources named.
func provenanceProblems(root string, page []byte, rows func(string) ([]map[string]string, error)) (problems []string, numbers, sources int) {
	m, err := store.ReadManifest(root)
	if err != nil {
		return []string{err.Error()}, 0, 0
	}
	written := map[string]bool{}
	for _, a := range m.Artifacts {
		written[a.Path] = true
	}
	type part struct{ name, html string }
	var parts []part
	tables := resultsTable.FindAllSubmatch(page, -1)
	if len(tables) != len(present.Tables) {
		problems = append(problems, fmt.Sprintf("%d results tables, want %d", len(tables), len(present.Tables)))
	}
	for _, tb := range tables {
		for _, c := range tableCell.FindAllSubmatch(tb[2], -1) {
			parts = append(parts, part{string(tb[1]), string(c[1])})
		}
	}
	key := keyResults.FindSubmatch(page)
	if key == nil {
		problems = append(problems, "no key results")
	} else {
		for _, li := range keyResult.FindAllSubmatch(key[1], -1) {
			parts = append(parts, part{string(li[1]), string(li[2])})
		}
	}
	for _, row := range macroRow.FindAllSubmatch(page, -1) {
		if name := string(row[1]); !constants[name] {
			parts = append(parts, part{`\` + name, string(row[2])})
		}
	}
	if len(parts) == 0 {
		problems = append(problems, "no numbers")
	}
	for _, p := range parts {
		for _, l := range fromLink.FindAllStringSubmatch(p.html, -1) {
			for _, n := range numberSpan.FindAllStringSubmatch(l[3], -1) {
				if digit.MatchString(n[1]) {
					numbers++
				}
			}
		}
		for _, n := range numberSpan.FindAllStringSubmatch(fromLink.ReplaceAllString(p.html, ""), -1) {
			if digit.MatchString(n[1]) {
				problems = append(problems, fmt.Sprintf("%s: the number %q has no provenance (in %q)", p.name, n[1], p.html))
			}
		}
	}

	// Every link of the page, the paper's numbers' too.
	seen := map[string]bool{}
	for _, l := range fromLink.FindAllSubmatch(page, -1) {
		href, title := html.UnescapeString(string(l[1])), html.UnescapeString(string(l[2]))
		for i, s := range strings.Split(title, "; ") {
			art, where, ok := strings.Cut(s, " where ")
			if !ok {
				if art, ok = strings.CutSuffix(s, ", every row"); !ok {
					problems = append(problems, fmt.Sprintf("link %q: source %q names no rows", title, s))
					continue
				}
			}
			if i == 0 && href != "../"+art {
				problems = append(problems, fmt.Sprintf("link %q links to %s, not to its artifact", title, href))
			}
			if seen[s] {
				continue
			}
			seen[s] = true
			if p := sourceProblem(art, where, written, rows); p != "" {
				problems = append(problems, fmt.Sprintf("link %q: %s", title, p))
			}
		}
	}
	return problems, numbers, len(seen)
}

// sourceProblem says what is wrong with the source of the rows where of
// artifact art, "" if nothing.
func sourceProblem(art, where string, written map[string]bool, rows func(string) ([]map[string]string, error)) string {
	if art == literature.File {
		src, err := os.ReadFile(filepath.Join(repoRoot, art))
		if err != nil {
			return err.Error()
		}
		cite, ok := strings.CutPrefix(where, "cite=")
		if !ok || !bytes.Contains(src, []byte(`"`+cite+`"`)) {
			return fmt.Sprintf("%s gives no count where %s", art, where)
		}
		return ""
	}
	if !written[art] {
		return art + " is not an artifact of the run"
	}
	all, err := rows(art)
	if err != nil {
		return err.Error()
	}
	want := map[string]string{}
	for _, pair := range strings.Fields(where) {
		col, val, ok := strings.Cut(pair, "=")
		if !ok {
			return fmt.Sprintf("%q is not column=value", pair)
		}
		want[col] = val
	}
	n := 0
	for _, row := range all {
		match := true
		for col, val := range want {
			got, ok := row[col]
			if !ok {
				return fmt.Sprintf("%s has no column %s", art, col)
			}
			match = match && got == val
		}
		if match {
			n++
		}
	}
	switch {
	case n == 0:
		return fmt.Sprintf("selects no row of %s", art)
	case n > 1 && where != "" && art != knuth.Coverage.Path:
		return fmt.Sprintf("selects %d rows of %s, want one", n, art)
	}
	return ""
}

// rowsOf returns a reader of the run in root's Parquet artifacts, each row
// as its columns' values printed (parquet.Value.String), each artifact
// read once.
func rowsOf(root string) func(string) ([]map[string]string, error) {
	cache := map[string][]map[string]string{}
	return func(path string) ([]map[string]string, error) {
		if rows, ok := cache[path]; ok {
			return rows, nil
		}
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			return nil, err
		}
		f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var names []string
		for _, c := range f.Schema().Columns() {
			names = append(names, strings.Join(c, "."))
		}
		r := parquet.NewReader(f)
		defer r.Close()
		var out []map[string]string
		buf := make([]parquet.Row, 64)
		for {
			n, err := r.ReadRows(buf)
			for _, row := range buf[:n] {
				m := map[string]string{}
				for _, v := range row {
					m[names[v.Column()]] = v.String()
				}
				out = append(out, m)
			}
			if err != nil {
				break
			}
		}
		if int64(len(out)) != f.NumRows() {
			return nil, fmt.Errorf("%s: read %d of %d rows", path, len(out), f.NumRows())
		}
		cache[path] = out
		return out, nil
	}
}
