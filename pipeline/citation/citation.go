// Package citation reads CITATION.cff, the Citation File Format file at the
// project root that names the release: its version (which must be the
// tool's), date, authors and public address. Read checks what CFF 1.2.0
// requires of the fields the tool reads and what the tool itself needs, and
// fails in one line naming the key; census cite and the paper use nothing
// else to read the file.
//
// # Citing
//
// CITATION.cff (Citation File Format 1.2.0) is the one place that says how
// to cite the software: title, authors, version, release date, license, the
// repository's public address and, as preferred-citation, the paper
// (TestCitationFileIsTheRelease checks the file). To cite one artifact, the
// exact file a number came from:
//
//	bin/census cite total        # BibTeX with the file's SHA-256 and fingerprint
//	bin/census verify            # anyone can check their copy against data/manifest.json
//
// census cite (inspect.Project.Cite) prints the entry only when the file's
// bytes hash to the manifest's SHA-256 (otherwise exit 1, naming both
// hashes). The entry, an @misc that plain BibTeX takes, names the stage,
// SHA-256, fingerprint, the year of the stage's run (from data/runs.jsonl),
// the git commit of the code that made the artifact and whether its tree
// had uncommitted changes, the authors, release and public address from
// CITATION.cff (repository-code; without the file, the git remote only
// when it is a URL, never a path on the machine), and the tool version; TeX's
// special characters are escaped (data/knuth\_long.parquet) so that
// pdflatex typesets them. The commit is the one Go stamps into bin/census
// (make build passes -buildvcs=auto); the engine records it in the
// manifest's stage record when the stage runs, never inside an artifact,
// whose bytes must not depend on it.
package citation

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
)

// Path is the Citation File Format (CFF 1.2.0) file at the project
// root: the one place that names the release (its version must equal the
// tool's, a test checks it), its date, the authors and the repository's
// public address. `census cite` and the paper's PDF date read it.
const Path = "CITATION.cff"

// maxCitationBytes bounds what Read reads.
const maxCitationBytes = 1 << 20

// Citation is the part of CITATION.cff this tool reads.
type Citation struct {
	CFFVersion     string   `yaml:"cff-version"`
	Message        string   `yaml:"message"`
	Title          string   `yaml:"title"`
	Type           string   `yaml:"type"`
	Authors        []Author `yaml:"authors"`
	Version        string   `yaml:"version"`
	DateReleased   string   `yaml:"date-released"`
	License        string   `yaml:"license"`
	RepositoryCode string   `yaml:"repository-code"`
	URL            string   `yaml:"url"`
	Keywords       []string `yaml:"keywords"`
	Preferred      *Work    `yaml:"preferred-citation"`
}

// Author is a person (family and given names) or an entity (name).
type Author struct {
	Name        string `yaml:"name"`
	FamilyNames string `yaml:"family-names"`
	GivenNames  string `yaml:"given-names"`
}

// String is the author as BibTeX writes a name: "Family, Given", or an
// entity's name in braces so that BibTeX does not split it.
func (a Author) String() string {
	if a.FamilyNames != "" {
		if a.GivenNames != "" {
			return a.FamilyNames + ", " + a.GivenNames
		}
		return a.FamilyNames
	}
	return "{" + a.Name + "}"
}

// Work is CITATION.cff's preferred-citation.
type Work struct {
	Type    string   `yaml:"type"`
	Title   string   `yaml:"title"`
	Authors []Author `yaml:"authors"`
	Year    int      `yaml:"year"`
	URL     string   `yaml:"url"`
}

// Read reads and checks root/CITATION.cff. A missing file is
// fs.ErrNotExist (wrapped).
func Read(root string) (*Citation, error) {
	path := filepath.Join(root, Path)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Path, err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, maxCitationBytes+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", Path, err)
	}
	if buf.Len() > maxCitationBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", Path, maxCitationBytes)
	}
	var c Citation
	if err := yaml.Unmarshal(buf.Bytes(), &c); err != nil {
		return nil, fmt.Errorf("%s: malformed YAML: %s", Path, msg.OneLine(err.Error()))
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", Path, err)
	}
	return &c, nil
}

// check enforces what CFF 1.2.0 requires of the fields this tool reads
// (cff-version, message, title and authors are required; dates are
// YYYY-MM-DD; addresses are URLs), and what the tool itself needs: a
// version, a release date and a repository address.
func (c *Citation) check() error {
	switch {
	case c.CFFVersion != "1.2.0":
		return fmt.Errorf("cff-version %q: want \"1.2.0\"", c.CFFVersion)
	case strings.TrimSpace(c.Message) == "":
		return errors.New("message is missing (CFF requires it)")
	case strings.TrimSpace(c.Title) == "":
		return errors.New("title is missing (CFF requires it)")
	case c.Version == "":
		return errors.New("version is missing: it must equal the tool's release")
	case c.License == "":
		return errors.New("license is missing")
	}
	if err := checkAuthors("authors", c.Authors); err != nil {
		return err
	}
	if _, err := c.Released(); err != nil {
		return err
	}
	for key, u := range map[string]string{"repository-code": c.RepositoryCode, "url": c.URL} {
		if u != "" && !IsWebURL(u) {
			return fmt.Errorf("%s %q: want an http or https URL", key, u)
		}
	}
	if c.RepositoryCode == "" {
		return errors.New("repository-code is missing: the repository's public address, which census cite prints")
	}
	if p := c.Preferred; p != nil {
		switch {
		case p.Type == "" || p.Title == "":
			return errors.New("preferred-citation needs a type and a title (CFF requires them)")
		case p.URL != "" && !IsWebURL(p.URL):
			return fmt.Errorf("preferred-citation.url %q: want an http or https URL", p.URL)
		}
		if err := checkAuthors("preferred-citation.authors", p.Authors); err != nil {
			return err
		}
	}
	return nil
}

func checkAuthors(key string, authors []Author) error {
	if len(authors) == 0 {
		return fmt.Errorf("%s is empty (CFF requires at least one)", key)
	}
	for i, a := range authors {
		if a.Name == "" && a.FamilyNames == "" {
			return fmt.Errorf("%s[%d] has neither name nor family-names", key, i)
		}
	}
	return nil
}

// Released is date-released at midnight UTC.
func (c *Citation) Released() (time.Time, error) {
	t, err := time.Parse(time.DateOnly, c.DateReleased)
	if err != nil {
		return time.Time{}, fmt.Errorf("date-released %q: want a date YYYY-MM-DD", c.DateReleased)
	}
	return t.UTC(), nil
}

// IsWebURL reports whether s is an absolute http(s) URL with a host: an
// address anyone can open, never a path on this machine.
func IsWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}
