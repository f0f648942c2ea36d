package inspect

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/sudoku-census/sudoku-census/pipeline/citation"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// Show writes what a reader needs to know about an artifact without any
// other tool: its manifest entry, and for a table its schema, row count,
// provenance and first rows. name is an artifact name or path.
func (pr Project) Show(w io.Writer, name string, rows int) error {
	m, err := store.ReadManifest(pr.Root)
	if err != nil {
		return err
	}
	entry, ok := m.Artifact(name)
	if !ok {
		var names []string
		for _, a := range m.Artifacts {
			names = append(names, a.Name)
		}
		if len(names) == 0 {
			return fmt.Errorf("%w %q: the manifest is empty; run `census run` first", ErrUnknownArtifact, name)
		}
		return fmt.Errorf("%w %q (artifacts: %s)", ErrUnknownArtifact, name, strings.Join(names, ", "))
	}
	if err := store.CheckArtifact(pr.Root, entry); err != nil {
		return err
	}
	fmt.Fprintf(w, "artifact     %s\npath         %s\nstage        %s\nfingerprint  %s\nsha256       %s\nsize         %d bytes\n",
		entry.Name, entry.Path, entry.Stage, entry.Fingerprint, entry.SHA256, entry.Size)
	if entry.Rows < 0 {
		return nil
	}
	f, err := os.Open(filepath.Join(pr.Root, entry.Path))
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", entry.Path, err)
	}
	fmt.Fprintf(w, "rows         %d\n\nprovenance (Parquet footer key-value metadata):\n", pf.NumRows())
	for _, kv := range pf.Metadata().KeyValueMetadata {
		fmt.Fprintf(w, "  %s = %s\n", kv.Key, kv.Value)
	}
	fmt.Fprintf(w, "\nschema:\n%s\n", pf.Schema())
	if rows <= 0 {
		return nil
	}
	cols := pf.Schema().Columns()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	var header []string
	for _, c := range cols {
		header = append(header, strings.Join(c, "."))
	}
	fmt.Fprintf(w, "\nfirst %d rows:\n", min(int64(rows), pf.NumRows()))
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	r := parquet.NewReader(pf)
	defer r.Close()
	buf := make([]parquet.Row, min(rows, 1024))
	shown := 0
	for shown < rows {
		n, err := r.ReadRows(buf[:min(len(buf), rows-shown)])
		for _, row := range buf[:n] {
			cells := make([]string, len(cols))
			for _, v := range row {
				if c := v.Column(); c >= 0 && c < len(cells) {
					if cells[c] != "" {
						cells[c] += ","
					}
					cells[c] += v.String()
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		shown += n
		if errors.Is(err, io.EOF) || n == 0 {
			break
		}
		if err != nil {
			return err
		}
	}
	return tw.Flush()
}

// Dag writes the stage graph as text, or as Graphviz with dot.
func (pr Project) Dag(w io.Writer, dot bool) {
	if dot {
		fmt.Fprintln(w, "digraph census {\n  rankdir=LR;\n  node [shape=box];")
		for _, s := range pr.Stages {
			var outs []string
			for _, o := range s.Outputs {
				outs = append(outs, o.Path)
			}
			fmt.Fprintf(w, "  %q [label=%q];\n", s.Name, s.Name+"\n"+strings.Join(outs, "\n"))
			for _, r := range s.Requires {
				fmt.Fprintf(w, "  %q -> %q;\n", r.Name, s.Name)
			}
		}
		fmt.Fprintln(w, "}")
		return
	}
	for _, s := range pr.Stages {
		var reqs, outs []string
		for _, r := range s.Requires {
			reqs = append(reqs, r.Name)
		}
		for _, o := range s.Outputs {
			outs = append(outs, o.Path)
		}
		from := "(no inputs)"
		if len(reqs) > 0 {
			from = "<- " + strings.Join(reqs, ", ")
		}
		fmt.Fprintf(w, "%-11s v%d  %s\n            %s\n            -> %s\n", s.Name, s.Version, s.Doc, from, strings.Join(outs, ", "))
	}
}

// Cite writes a BibTeX entry for an artifact, so that another paper can
// cite the exact file.
func (pr Project) Cite(w io.Writer, name string) error {
	m, err := store.ReadManifest(pr.Root)
	if err != nil {
		return err
	}
	a, ok := m.Artifact(name)
	if !ok {
		return fmt.Errorf("%w %q: see `census status` and `census show`", ErrUnknownArtifact, name)
	}
	if err := store.CheckArtifact(pr.Root, a); err != nil {
		return err
	}
	doc := ""
	for _, st := range pr.Stages {
		if st.Name != a.Stage {
			continue
		}
		for _, o := range st.Outputs {
			if o.Name == a.Name {
				doc = o.Doc
			}
		}
	}
	year := pr.lastRunYear(a.Stage, a.Fingerprint)
	code := "the code's commit is unknown (the binary was not built from a git checkout)"
	if c := m.Stages[a.Stage].Code; c != nil {
		code = "code at git commit " + c.Commit
		if c.Modified {
			code += " with uncommitted changes"
		}
	}
	cff, err := citationOrNil(pr.Root)
	if err != nil {
		return err
	}
	// The repository's public address: CITATION.cff's, else the git remote
	// when it is a URL; a clone's remote is often a path on this machine,
	// which a citation must never name.
	url, author, version := "", "{The sudoku-census authors}", ""
	if cff != nil {
		url = cff.RepositoryCode
		var names []string
		for _, a := range cff.Authors {
			names = append(names, a.String())
		}
		author = strings.Join(names, " and ")
		version = "\n  version      = {" + bibEscape(cff.Version) + "},"
	} else if u := gitRemote(pr.Root); citation.IsWebURL(u) || strings.HasPrefix(u, "ssh://") {
		url = u
	}
	if url != "" {
		url = "\n  url          = {" + url + "},"
	}
	fmt.Fprintf(w, `@misc{sudokucensus:%s:%s,
  title        = {{sudoku-census} artifact %s: %s},
  author       = {%s},
  year         = {%d},
  howpublished = {File %s, produced by stage %s of the sudoku-census pipeline},%s%s
  note         = {SHA-256 %s; fingerprint %s; %s; %s},
}
`, a.Name, msg.Short(a.SHA256), bibEscape(a.Path), bibEscape(doc), author, year, bibEscape(a.Path), bibEscape(a.Stage), version, url, a.SHA256, a.Fingerprint, bibEscape(code), bibEscape(m.Tool))
	return nil
}

// lastRunYear is the year of the run that made the artifact (the stage's
// last run under fingerprint in the run log), or this year when the log
// has none.
func (pr Project) lastRunYear(stage, fingerprint string) int {
	year := time.Now().UTC().Year()
	store.EachRun(pr.Root, func(r store.RunLogLine) {
		if t, err := time.Parse(time.RFC3339, r.Time); err == nil && r.Stage == stage && r.Action == "ran" && r.Fingerprint == fingerprint {
			year = t.Year()
		}
	})
	return year
}

// gitRemote returns the URL of the project's git remote "origin", or of
// its only remote; "" when git knows none (or is not installed).
func gitRemote(root string) string {
	out, err := exec.Command("git", "-C", root, "remote", "get-url", "origin").Output()
	if err != nil {
		names, err := exec.Command("git", "-C", root, "remote").Output()
		fields := strings.Fields(string(names))
		if err != nil || len(fields) != 1 {
			return ""
		}
		if out, err = exec.Command("git", "-C", root, "remote", "get-url", fields[0]).Output(); err != nil {
			return ""
		}
	}
	return publicURL(strings.TrimSpace(string(out)))
}

// publicURL returns a remote as a URL fit to print: without the user
// name and password an https remote may carry, and with an scp-style
// remote (git@host:owner/repo) written as ssh://git@host/owner/repo.
func publicURL(remote string) string {
	if u, err := url.Parse(remote); err == nil && u.Scheme != "" && u.Host != "" {
		if u.Scheme == "ssh" {
			u.User = url.User(u.User.Username())
		} else {
			u.User = nil
		}
		return u.String()
	}
	if user, rest, ok := strings.Cut(remote, "@"); ok && !strings.Contains(user, "/") {
		if host, path, ok := strings.Cut(rest, ":"); ok {
			return "ssh://" + user + "@" + host + "/" + strings.TrimPrefix(path, "/")
		}
	}
	return remote
}

// bibEscape writes text for a BibTeX field that LaTeX typesets: each of
// TeX's special characters (& % $ # _ { } ~ ^ and the backslash) as the command that
// prints it, so that pdflatex takes the entry as it is (a path such as
// data/knuth_long.parquet would otherwise stop it at "Missing $ inserted").
func bibEscape(s string) string {
	return bibEscaper.Replace(s)
}

var bibEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`, "{", `\{`, "}", `\}`,
	"&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`,
	"~", `\textasciitilde{}`, "^", `\textasciicircum{}`,
)

// ErrUnknownArtifact is wrapped by the error for a name that is no
// artifact of the manifest: bad usage, where a damaged artifact is a
// failed check.
var ErrUnknownArtifact = errors.New("unknown artifact")

// citationOrNil is CITATION.cff when it exists and is valid; a present but
// invalid one is an error.
func citationOrNil(root string) (*citation.Citation, error) {
	c, err := citation.Read(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return c, err
}
