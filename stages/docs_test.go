package stages

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDocNamesEveryKeyAndColumn checks that the package doc of every stage
// in All is its reference: it names every configuration key the code reads
// (the mapstructure fields of the struct NewConfig returns, nested structs
// giving dotted keys, as the engine's config loader names them), every
// column of every Parquet table the package declares (the parquet-tagged
// fields of the row type T of each pipeline.NewTable[T] call, embedded
// structs flattened as Parquet flattens them), and the path of every output.
// A key or column counts as documented when it starts an indented line of
// the doc: a row of a preformatted table or a list item, not a passing
// mention. The stages come from All, each found by the package that declares
// it, so a new stage is covered without touching this test. The doc must be
// the only package comment, in doc.go.
func TestDocNamesEveryKeyAndColumn(t *testing.T) {
	module := modulePath(t)
	pkgs := &sourceTree{module: module, root: "..", parsed: map[string]*sourcePackage{}}
	dirs := stageDirs(t, pkgs)
	inAll := map[string]bool{}
	for _, s := range All {
		inAll[s.Name] = true
	}
	for name, dir := range dirs {
		if !inAll[name] {
			t.Errorf("%s declares stage %s, which is not in stages.All: add it there", dir, name)
		}
	}
	for _, s := range All {
		dir, ok := dirs[s.Name]
		if !ok {
			t.Errorf("stage %s: no package under stages/ declares `var Stage = &pipeline.Stage{Name: %q, …}`", s.Name, s.Name)
			continue
		}
		pkg := pkgs.load(t, dir)
		text := pkg.docText(t)
		where := "stage " + s.Name + " (" + dir + "/doc.go)"

		if s.NewConfig != nil {
			for _, key := range configKeys(s.Name, reflect.TypeOf(s.NewConfig())) {
				if !startsIndentedLine(text, key) {
					t.Errorf("%s: config key %s is not documented: start a list item or table row of the package doc with it", where, key)
				}
			}
		}

		parquetOutputs := 0
		for _, o := range s.Outputs {
			if strings.HasSuffix(o.Path, ".parquet") {
				parquetOutputs++
			}
			if !namesPath(text, o.Path) {
				t.Errorf("%s: artifact path %s is not in the package doc", where, o.Path)
			}
		}
		tables := pkgs.tables(t, pkg)
		if len(tables) < parquetOutputs {
			t.Errorf("%s: %d Parquet outputs but only %d pipeline.NewTable[T] calls in the package: the columns of the others go unchecked",
				where, parquetOutputs, len(tables))
		}
		for _, tab := range tables {
			if len(tab.columns) == 0 {
				t.Errorf("%s: found no parquet columns in row type %s", where, tab.rowType)
			}
			for _, col := range tab.columns {
				if !startsIndentedLine(text, col) {
					t.Errorf("%s: column %s of table %s (row type %s) is not documented: start a table row of the package doc with it",
						where, col, tab.name, tab.rowType)
				}
			}
		}
	}
}

// startsIndentedLine reports whether word begins an indented line of the
// doc text, alone or followed by a space, comma, colon or parenthesis: a row
// of a preformatted table ("\tcolumn  type  meaning") or a list item
// ("  - key (default …): …").
func startsIndentedLine(text, word string) bool {
	re := regexp.MustCompile(`(?m)^[ \t]+(?:- )?` + regexp.QuoteMeta(word) + `(?:[ \t,:(]|$)`)
	return re.MatchString(text)
}

// namesPath reports whether path occurs in the doc text as a whole path.
func namesPath(text, path string) bool {
	re := regexp.MustCompile(`(?:^|[^\w./-])` + regexp.QuoteMeta(path) + `(?:$|[^\w/-])`)
	return re.MatchString(text)
}

// configKeys lists the dotted keys of a stage's config struct, the way the
// engine's config loader does: the first part of each mapstructure tag,
// nested structs giving dotted keys.
func configKeys(prefix string, t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			keys = append(keys, configKeys(prefix+"."+name, f.Type)...)
			continue
		}
		keys = append(keys, prefix+"."+name)
	}
	return keys
}

// modulePath reads the module path from go.mod.
func modulePath(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}

// sourceTree parses the module's packages on demand, by directory relative
// to the module root.
type sourceTree struct {
	module string
	root   string // the module root, relative to the test's directory
	fset   token.FileSet
	parsed map[string]*sourcePackage
}

// sourcePackage is one parsed package: its non-test files and its type
// declarations, each with the file it is in (for that file's imports).
type sourcePackage struct {
	dir   string // relative to the module root, e.g. "stages/knuth"
	files map[string]*ast.File
	types map[string]typeDecl
	fset  *token.FileSet
}

type typeDecl struct {
	spec *ast.TypeSpec
	file *ast.File
}

func (st *sourceTree) load(t *testing.T, dir string) *sourcePackage {
	t.Helper()
	if p, ok := st.parsed[dir]; ok {
		return p
	}
	entries, err := os.ReadDir(filepath.Join(st.root, dir))
	if err != nil {
		t.Fatal(err)
	}
	p := &sourcePackage{dir: dir, files: map[string]*ast.File{}, types: map[string]typeDecl{}, fset: &st.fset}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(&st.fset, filepath.Join(st.root, dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		p.files[name] = f
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					p.types[ts.Name.Name] = typeDecl{ts, f}
				}
			}
		}
	}
	st.parsed[dir] = p
	return p
}

// docText returns the package doc, after checking that doc.go holds the
// only package comment.
func (p *sourcePackage) docText(t *testing.T) string {
	t.Helper()
	var files []*ast.File
	for name, f := range p.files {
		files = append(files, f)
		if f.Doc != nil && name != "doc.go" {
			t.Errorf("%s/%s: has a package comment; the package doc belongs in doc.go alone", p.dir, name)
		}
	}
	if f, ok := p.files["doc.go"]; !ok || f.Doc == nil {
		t.Errorf("%s: no doc.go with the package comment", p.dir)
	}
	d, err := doc.NewFromFiles(p.fset, files, p.dir)
	if err != nil {
		t.Fatal(err)
	}
	return d.Doc
}

// stageDirs maps each stage name to the directory (below the module root)
// of the package whose `var … = &pipeline.Stage{Name: "…"}` declares it.
func stageDirs(t *testing.T, st *sourceTree) map[string]string {
	t.Helper()
	dirs := map[string]string{}
	err := filepath.WalkDir(filepath.Join(st.root, "stages"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() || e.Name() == "testdata" {
			return err
		}
		rel, err := filepath.Rel(st.root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for _, f := range st.load(t, rel).files {
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok || !isSelector(lit.Type, "pipeline", "Stage") {
					return true
				}
				for _, el := range lit.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if key, _ := kv.Key.(*ast.Ident); !ok || key == nil || key.Name != "Name" {
						continue
					}
					if v, ok := kv.Value.(*ast.BasicLit); ok && v.Kind == token.STRING {
						name, _ := strconv.Unquote(v.Value)
						dirs[name] = rel
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == pkg
}

// table is one pipeline.NewTable[T] call: the table's name, T, and T's
// Parquet columns.
type table struct {
	name, rowType string
	columns       []string
}

// tables finds the pipeline.NewTable[T] calls of a package and the columns
// of their row types.
func (st *sourceTree) tables(t *testing.T, p *sourcePackage) []table {
	t.Helper()
	var out []table
	for _, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			idx, ok := call.Fun.(*ast.IndexExpr)
			if !ok || !isSelector(idx.X, "pipeline", "NewTable") {
				return true
			}
			tab := table{rowType: typeString(idx.Index)}
			if len(call.Args) > 0 {
				if v, ok := call.Args[0].(*ast.BasicLit); ok {
					tab.name, _ = strconv.Unquote(v.Value)
				}
			}
			tab.columns = st.columns(t, p, f, idx.Index)
			out = append(out, tab)
			return true
		})
	}
	return out
}

// typeString prints a type expression such as Row or sampling.TraceRow.
func typeString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return typeString(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + typeString(e.X)
	}
	return "?"
}

// columns returns the Parquet columns of the struct type e, named in file f
// of package p: the first part of each parquet tag ("-" skipped; the field
// name when untagged), embedded untagged structs flattened.
func (st *sourceTree) columns(t *testing.T, p *sourcePackage, f *ast.File, e ast.Expr) []string {
	t.Helper()
	decl, owner, ok := st.resolve(t, p, f, e)
	if !ok {
		t.Errorf("%s: cannot find the declaration of type %s", p.dir, typeString(e))
		return nil
	}
	s, ok := decl.spec.Type.(*ast.StructType)
	if !ok {
		t.Errorf("%s: row type %s is not a struct", owner.dir, decl.spec.Name.Name)
		return nil
	}
	var cols []string
	for _, field := range s.Fields.List {
		tag := ""
		if field.Tag != nil {
			raw, _ := strconv.Unquote(field.Tag.Value)
			tag = reflect.StructTag(raw).Get("parquet")
		}
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-":
		case len(field.Names) == 0 && tag == "":
			cols = append(cols, st.columns(t, owner, decl.file, field.Type)...)
		case name != "":
			cols = append(cols, name)
		default:
			for _, n := range field.Names {
				if n.IsExported() {
					cols = append(cols, n.Name)
				}
			}
		}
	}
	return cols
}

// resolve finds the declaration of type expression e, written in file f
// of package p: a type of p, or of a package of this module that f imports.
func (st *sourceTree) resolve(t *testing.T, p *sourcePackage, f *ast.File, e ast.Expr) (typeDecl, *sourcePackage, bool) {
	switch e := e.(type) {
	case *ast.StarExpr:
		return st.resolve(t, p, f, e.X)
	case *ast.Ident:
		d, ok := p.types[e.Name]
		return d, p, ok
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return typeDecl{}, nil, false
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := pathBase(path)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			dir, inModule := strings.CutPrefix(path, st.module+"/")
			if name != x.Name || !inModule {
				continue
			}
			q := st.load(t, dir)
			d, ok := q.types[e.Sel.Name]
			return d, q, ok
		}
	}
	return typeDecl{}, nil, false
}

func pathBase(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}

// maxPackageDocLines bounds a package doc: the reference a reader needs in
// five minutes (what it computes, the formula, keys, artifacts, costs), not
// the history of how it came to be, which belongs in the artifacts, the
// paper and the commit messages.
const maxPackageDocLines = 200

// TestPackageDocsAreReferences checks every package of the module below
// stages/ and pipeline/: its doc is at most maxPackageDocLines lines and
// holds no date (a dated measurement is a lab notebook's; the doc states the
// current figure).
func TestPackageDocsAreReferences(t *testing.T) {
	date := regexp.MustCompile(`\b20\d\d-[01]\d-[0-3]\d\b`)
	st := &sourceTree{module: modulePath(t), root: "..", parsed: map[string]*sourcePackage{}}
	checked := 0
	for _, top := range []string{"stages", "pipeline"} {
		err := filepath.WalkDir(filepath.Join(st.root, top), func(path string, e fs.DirEntry, err error) error {
			if err != nil || !e.IsDir() || e.Name() == "testdata" {
				if e != nil && e.IsDir() && e.Name() == "testdata" {
					return filepath.SkipDir
				}
				return err
			}
			dir, _ := filepath.Rel(st.root, path)
			dir = filepath.ToSlash(dir)
			p := st.load(t, dir)
			for name, f := range p.files {
				if f.Doc == nil {
					continue
				}
				checked++
				text := f.Doc.Text()
				lines := strings.Count(text, "\n")
				if lines > maxPackageDocLines {
					t.Errorf("%s/%s: package doc of %d lines, more than %d: keep the reference, move the record to the artifacts, the paper or the commit messages", dir, name, lines, maxPackageDocLines)
				}
				if d := date.FindString(text); d != "" {
					t.Errorf("%s/%s: package doc holds the date %s: state the current figure, undated", dir, name, d)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 40 {
		t.Fatalf("checked %d package docs: the walk missed the tree", checked)
	}
}

// maxStageLines bounds a stage package (its non-test files but doc.go, all
// lines): a stage is its schema, config, units and a Run that calls the
// maths; machinery shared by stages lives below them.
const maxStageLines = 400

// maxPackageCodeLines bounds any package's code (non-test files, lines
// that are neither blank nor comments).
const maxPackageCodeLines = 1500

// TestPackageSizes checks maxStageLines for every stage package and
// maxPackageCodeLines for every package below stages/ and pipeline/.
func TestPackageSizes(t *testing.T) {
	st := &sourceTree{module: modulePath(t), root: "..", parsed: map[string]*sourcePackage{}}
	for name, dir := range stageDirs(t, st) {
		lines := 0
		for file := range st.load(t, dir).files {
			if file != "doc.go" {
				lines += countLines(t, filepath.Join(st.root, dir, file), false)
			}
		}
		if lines > maxStageLines {
			t.Errorf("stage %s (%s): %d lines without doc.go, more than %d: move the machinery below the stage", name, dir, lines, maxStageLines)
		}
	}
	for _, top := range []string{"stages", "pipeline"} {
		filepath.WalkDir(filepath.Join(st.root, top), func(path string, e fs.DirEntry, err error) error {
			if err != nil || !e.IsDir() {
				return err
			}
			if e.Name() == "testdata" {
				return filepath.SkipDir
			}
			dir, _ := filepath.Rel(st.root, path)
			dir = filepath.ToSlash(dir)
			code := 0
			for file := range st.load(t, dir).files {
				code += countLines(t, filepath.Join(path, file), true)
			}
			if code > maxPackageCodeLines {
				t.Errorf("%s: %d code lines, more than %d: split it where its parts have names of their own", dir, code, maxPackageCodeLines)
			}
			return nil
		})
	}
}

// countLines counts the lines of a file, or with codeOnly those that are
// neither blank nor comment lines.
func countLines(t *testing.T, path string, codeOnly bool) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if !codeOnly || (trimmed != "" && !strings.HasPrefix(trimmed, "//")) {
			n++
		}
	}
	return n
}
