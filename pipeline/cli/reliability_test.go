package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What reports on an artifact (verify, show, cite) checks the bytes on
// disk: a damaged or replaced artifact is refused with exit 1, naming the
// artifact and both hashes; a missing, empty or null manifest is no
// success; an unreadable artifact is said to be unreadable, with the
// system's error, not missing.
func TestArtifactReportsCheckTheBytes(t *testing.T) {
	artifact := "data/gen.parquet"
	flip := func(t *testing.T, root string) {
		p := filepath.Join(root, artifact)
		b, _ := os.ReadFile(p)
		b[len(b)/2] ^= 1
		os.WriteFile(p, b, 0o644)
	}
	other := func(t *testing.T, root string) {
		// Another valid Parquet file (of another configuration) copied
		// over the artifact.
		elsewhere := project(t)
		if code, _, errs := census(t, elsewhere, "run", "--set", "gen.rows=3"); code != 0 {
			t.Fatal(errs)
		}
		b, _ := os.ReadFile(filepath.Join(elsewhere, artifact))
		os.WriteFile(filepath.Join(root, artifact), b, 0o644)
	}
	unreadable := func(t *testing.T, root string) {
		p := filepath.Join(root, artifact)
		os.Remove(p)
		os.Mkdir(p, 0o755) // unreadable as a file, even by root
	}
	manifest := func(text string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			p := filepath.Join(root, "data/manifest.json")
			if text == "" {
				os.Remove(p)
				return
			}
			os.WriteFile(p, []byte(text), 0o644)
		}
	}
	hashes := []string{"SHA-256 on disk ", "manifest says "}
	for _, d := range []struct {
		name  string
		do    func(t *testing.T, root string)
		verb  []string // what verify, show and cite must say on stderr or stdout
		cites bool     // cite and show fail too
	}{
		{"a flipped bit", flip, hashes, true},
		{"another Parquet file", other, hashes, true},
		{"unreadable", unreadable, []string{"unreadable: ", "is a directory"}, true},
		{"missing", func(t *testing.T, root string) { os.Remove(filepath.Join(root, artifact)) }, []string{"missing"}, true},
		{"manifest deleted", manifest(""), []string{"data/manifest.json", "nothing to verify"}, false},
		{"manifest {}", manifest("{}\n"), []string{"data/manifest.json is damaged"}, false},
		{"manifest null", manifest("null\n"), []string{"data/manifest.json is damaged"}, false},
		{"manifest []", manifest("[]\n"), []string{"data/manifest.json is damaged"}, false},
	} {
		t.Run(d.name, func(t *testing.T) {
			root := project(t)
			if code, _, errs := census(t, root, "run"); code != 0 {
				t.Fatal(errs)
			}
			d.do(t, root)
			code, out, errs := census(t, root, "verify")
			for _, w := range d.verb {
				if code != 1 || !strings.Contains(out+errs, w) {
					t.Errorf("verify: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, w)
				}
			}
			for _, cmd := range [][]string{{"cite", "gen"}, {"show", "gen"}} {
				code, out, errs := census(t, root, cmd...)
				if !d.cites {
					if code == 0 {
						t.Errorf("%v: exit 0, stdout %q", cmd, out)
					}
					continue
				}
				ok := code == 1 && strings.Count(errs, "\n") == 1 && strings.Contains(errs, "artifact gen ("+artifact+")")
				for _, w := range d.verb {
					ok = ok && strings.Contains(errs, w)
				}
				if !ok || strings.Contains(out, "@misc") || strings.Contains(out, "rows ") {
					t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1, one line naming the artifact and %q, and nothing shown", cmd, code, out, errs, d.verb)
				}
			}
		})
	}
}

// verify --lock notices what a hand-edited or damaged lock says: another
// size, an artifact or a stage listed twice.
func TestVerifyLockNoticesSizeAndDuplicates(t *testing.T) {
	root := project(t)
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	lock := filepath.Join(root, "run.lock.json")
	if code, _, errs := census(t, root, "lock", "-o", lock); code != 0 {
		t.Fatal(errs)
	}
	good, _ := os.ReadFile(lock)
	text := string(good)
	i := strings.Index(text, `"size": `)
	j := i + strings.Index(text[i:], "\n")
	for _, c := range []struct{ name, lock, want string }{
		{"size", text[:i] + `"size": 1` + text[j:], "bytes, the lock says 1"},
		{"artifact twice", strings.Replace(text, `"artifacts": [`, `"artifacts": [`+artifactEntry(text)+",", 1), "data/gen.parquet: listed twice in the lock"},
		{"stage twice", strings.Replace(text, `"stages": [`, `"stages": [`+stageEntry(text)+",", 1), "stage gen: listed twice in the lock"},
	} {
		os.WriteFile(lock, []byte(c.lock), 0o644)
		code, out, errs := census(t, root, "verify", "--lock", lock)
		if code != 1 || !strings.Contains(out, "DIFFERS  ") || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.name, code, out, errs, c.want)
		}
	}
}

// artifactEntry and stageEntry return the first object of the lock's
// "artifacts" and "stages" lists.
func artifactEntry(lock string) string { return firstObject(lock, `"artifacts": [`) }
func stageEntry(lock string) string    { return firstObject(lock, `"stages": [`) }

func firstObject(text, after string) string {
	i := strings.Index(text, after) + len(after)
	var first json.RawMessage // an entry may hold objects (a stage's config)
	if err := json.NewDecoder(strings.NewReader(text[i:])).Decode(&first); err != nil {
		panic(err)
	}
	return string(first)
}
