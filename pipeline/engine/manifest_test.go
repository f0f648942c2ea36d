package engine

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// damages edit a good manifest (as generic JSON) or replace it.
var damages = []struct {
	name string
	edit func(m map[string]any) // nil: replace the file with raw
	raw  string
	want string
}{
	{name: "short sha256", edit: func(m map[string]any) { artifact(m, 0)["sha256"] = artifact(m, 0)["sha256"].(string)[:12] },
		want: `is not 64 lowercase hex digits`},
	{name: "empty sha256", edit: func(m map[string]any) { artifact(m, 1)["sha256"] = "" }, want: `sha256 "" is not 64 lowercase hex digits`},
	{name: "sha256 not hex", edit: func(m map[string]any) { artifact(m, 0)["sha256"] = strings.Repeat("z", 64) }, want: "is not 64 lowercase hex digits"},
	{name: "sha256 a number", edit: func(m map[string]any) { artifact(m, 0)["sha256"] = 7 }, want: "cannot unmarshal number"},
	{name: "short fingerprint", edit: func(m map[string]any) { artifact(m, 0)["fingerprint"] = "abc" }, want: `fingerprint "abc"`},
	{name: "escaping path", edit: func(m map[string]any) { artifact(m, 0)["path"] = "../../etc/passwd" }, want: "is not a relative path inside the project"},
	{name: "absolute path", edit: func(m map[string]any) { artifact(m, 0)["path"] = "/etc/passwd" }, want: "is not a relative path inside the project"},
	{name: "no name", edit: func(m map[string]any) { delete(artifact(m, 0), "name") }, want: "artifact 1 has no name"},
	{name: "listed twice", edit: func(m map[string]any) { m["artifacts"] = append(m["artifacts"].([]any), artifact(m, 0)) }, want: "is listed twice"},
	{name: "null artifact", edit: func(m map[string]any) { m["artifacts"] = []any{nil} }, want: "artifact 1 has no name"},
	{name: "negative size", edit: func(m map[string]any) { artifact(m, 0)["size"] = -5 }, want: "is negative"},
	{name: "stage fingerprint", edit: func(m map[string]any) { m["stages"].(map[string]any)["squares"].(map[string]any)["fingerprint"] = "12" },
		want: `stage "squares": fingerprint "12"`},
	{name: "input sha256", edit: func(m map[string]any) {
		m["stages"].(map[string]any)["squares"].(map[string]any)["inputs"] = map[string]any{"numbers": "0123"}
	}, want: `input "numbers": sha256 "0123"`},
	{name: "truncated", raw: `{"tool": "sudoku-census 0.1.0", "stages": {`, want: "unexpected end of JSON input"},
	{name: "artifacts not a list", raw: `{"artifacts": 5}`, want: "cannot unmarshal number"},
	{name: "a list", raw: `[]`, want: "cannot unmarshal array"},
	{name: "binary", raw: "\x00\x01\x02", want: "invalid character"},
}

func artifact(m map[string]any, i int) map[string]any {
	return m["artifacts"].([]any)[i].(map[string]any)
}

// damage runs the toy pipeline and damages its manifest.
func damage(t *testing.T, edit func(map[string]any), raw string) *fixture {
	t.Helper()
	f := newFixture(t, "")
	f.run(RunOptions{}, nil)
	path := filepath.Join(f.root, store.ManifestPath)
	if edit != nil {
		var m map[string]any
		if err := json.Unmarshal(f.read(store.ManifestPath), &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		b, _ := json.Marshal(m)
		raw = string(b)
	}
	if err := os.WriteFile(path, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDamagedManifestIsAOneLineError(t *testing.T) {
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			f := damage(t, d.edit, d.raw)
			e := f.engine()
			check := func(what string, err error) {
				t.Helper()
				if err == nil || !strings.HasPrefix(err.Error(), "data/manifest.json is damaged (") || !strings.Contains(err.Error(), d.want) ||
					!strings.HasSuffix(err.Error(), "): delete it and run again") || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s: err = %v, want one line with %q", what, err, d.want)
				}
			}
			_, err := e.Project().Verify()
			check("verify", err)
			check("cite", e.Project().Cite(io.Discard, "numbers"))
			check("show", e.Project().Show(io.Discard, "numbers", 3))
			_, err = e.Status()
			check("status", err)
			_, err = e.Run(context.Background(), nil, RunOptions{})
			check("run", err)
			_, err = e.GC(false, 0)
			check("gc", err)
		})
	}
}

// FuzzManifest checks that no manifest, however damaged, makes verify,
// cite, show or status panic.
func FuzzManifest(f *testing.F) {
	root := f.TempDir()
	config := filepath.Join(root, "c.yaml")
	os.WriteFile(config, []byte("# defaults\n"), 0o644)
	e, err := New(Options{Root: root, Stages: toyStages(), ConfigFile: config})
	if err != nil {
		f.Fatal(err)
	}
	if _, err := e.Run(context.Background(), nil, RunOptions{}); err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(filepath.Join(root, store.ManifestPath))
	f.Add(good)
	f.Add([]byte(strings.Replace(string(good), `"sha256": "`, `"sha256": "0`, 1)))
	f.Add([]byte(`{"artifacts":[{"name":"numbers","path":"data/numbers.parquet","sha256":"ab"}]}`))
	f.Add([]byte(`{"stages":{"numbers":null},"artifacts":[null,{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(root, store.ManifestPath), data, 0o644); err != nil {
			t.Fatal(err)
		}
		e.Project().Verify()
		e.Project().Cite(io.Discard, "numbers")
		e.Project().Cite(io.Discard, "data/total.txt")
		e.Project().Show(io.Discard, "numbers", 2)
		e.Status()
	})
}
