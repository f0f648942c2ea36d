// Package config loads the configuration of a pipeline: a YAML file, then
// CENSUS_* environment variables, then --set overrides (and the run
// command's --slurm-* flags, which are --set overrides), each later one
// winning. Every key belongs to a stage's subtree (the struct its
// NewConfig returns), to a Section (the executor's) or is a global (seed,
// remote); an unknown key in the file or in --set is an error naming the
// known ones, as is a CENSUS_* variable under a stage's or section's
// prefix that names no key (CENSUS_KNUTH_SAMPLE); any other CENSUS_*
// variable is ignored (logged at debug level: the prefix is common enough
// to be shared, as in CENSUS_API_KEY).
//
// Viper (github.com/spf13/viper) holds the sources and their precedence:
// the file's values are its config layer, each known key is bound to its
// variable (knuth.samples to CENSUS_KNUTH_SAMPLES, an empty variable being
// a value), --set is its override layer, and Viper's Get says which source
// gives each key. The project adds what Viper does not do exactly:
//   - the file is read by the project's YAML parser, with a size limit,
//     refusing duplicate and unknown keys; its values reach Viper as YAML
//     nodes it does not look into, so no number is decoded by Viper (keys
//     and map entry names are lower case, as Viper folds them and as
//     --set names them, and duplicates after folding are refused);
//   - every value, a node or a variable's text, is parsed exactly against
//     its key's type (value.go), never by Viper's Unmarshal, whose weak
//     decoding would turn 1.5 into 1;
//   - keys are read one by one from the known keys, so none is skipped as
//     Unmarshal skips unbound variables;
//   - --set of one entry of a map key (knuth.samples.3x3=5) is merged here
//     into the whole map Viper resolved, since in Viper a nested key hides
//     the rest of its map.
//
// Each subtree is checked by its Validate. Load returns each stage's
// configuration with the canonical JSON that enters its fingerprint.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

// globalKeys are the top-level configuration keys outside any stage's
// subtree, with their defaults. A stage reads one only by naming it in
// Globals, which puts it in the stage's fingerprint.
var globalKeys = map[string]any{
	"seed":    uint64(1),
	RemoteKey: "",
}

// IsGlobal reports whether name is a global key: no stage or section may
// bear it.
func IsGlobal(name string) bool {
	_, ok := globalKeys[name]
	return ok
}

// RemoteKey is the global key naming the default remote of census push
// and pull (a URL); no stage reads it, so it is in no fingerprint.
const RemoteKey = "remote"

// Section is a configuration subtree that is not a stage's (the
// executor's): its keys are set and checked like a stage's, and it is in no
// fingerprint.
type Section struct {
	// Key is the subtree's name, such as "executor".
	Key string
	// New returns the subtree's configuration with its defaults set, as
	// Stage.NewConfig does.
	New func() pipeline.Config
}

// envPrefix is the prefix of environment variables that set config keys:
// CENSUS_SEED sets seed, CENSUS_KNUTH_SAMPLES sets knuth.samples.
const envPrefix = "CENSUS"

// Settings is a loaded configuration: each stage's decoded config, each
// section's and the globals, with the canonical JSON that enters
// fingerprints.
type Settings struct {
	Stage   map[string]pipeline.Config // by stage, for the stages that have one
	Section map[string]pipeline.Config // by Section.Key
	Globals map[string]any
	// Canonical[stage] is the canonical JSON of the stage's subtree and the
	// globals it reads: {"<stage>": {...}, "<global>": value}, keys sorted.
	Canonical map[string][]byte
}

// leaf is one configuration key that can be set.
type leaf struct {
	key   string // full dotted key, e.g. "knuth.samples"
	field []int  // field index path inside the stage's config struct
	typ   reflect.Type
	open  bool // a map: any subkey is allowed below it
}

// leaves lists the settable keys of a stage's config struct.
func leaves(prefix string, t reflect.Type, path []int) []leaf {
	var out []leaf
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := strings.Split(f.Tag.Get("mapstructure"), ",")[0]
		if name == "" || name == "-" {
			continue
		}
		key := prefix + "." + name
		p := append(append([]int(nil), path...), i)
		switch {
		case f.Type.Kind() == reflect.Struct:
			out = append(out, leaves(key, f.Type, p)...)
		default:
			out = append(out, leaf{key: key, field: p, typ: f.Type, open: f.Type.Kind() == reflect.Map})
		}
	}
	return out
}

// Load reads the config file, then environment variables, then the
// --set overrides (each later one wins), rejects unknown keys, parses every
// value exactly against its key's type (value.go), decodes the subtree of
// each section and stage and validates it.
func Load(stages []*pipeline.Stage, sections []Section, file string, sets []string) (*Settings, error) {
	fileRoot, err := readConfigFile(file)
	if err != nil {
		return nil, err
	}

	known := map[string]leaf{}
	var open []string
	for g, def := range globalKeys {
		known[g] = leaf{key: g, typ: reflect.TypeOf(def)}
	}
	sectionDefaults := make([]pipeline.Config, len(sections))
	sectionLeaves := make([][]leaf, len(sections))
	for i, sec := range sections {
		sectionDefaults[i] = sec.New()
		sectionLeaves[i] = leaves(sec.Key, reflect.ValueOf(sectionDefaults[i]).Elem().Type(), nil)
		for _, l := range sectionLeaves[i] {
			known[l.key] = l
		}
	}
	defaults := map[string]pipeline.Config{}
	newConfig := map[string]func() pipeline.Config{}
	for _, s := range stages {
		if s.NewConfig == nil {
			continue
		}
		def := s.NewConfig()
		defaults[s.Name] = def
		newConfig[s.Name] = s.NewConfig
		for _, l := range leaves(s.Name, reflect.ValueOf(def).Elem().Type(), nil) {
			known[l.key] = l
			if l.open {
				open = append(open, l.key+".")
			}
		}
	}
	// subtrees are the dotted prefixes of known keys (knuth, executor.slurm).
	subtrees := map[string]bool{}
	for k := range known {
		for i := strings.IndexByte(k, '.'); i >= 0; i = next(k, i) {
			subtrees[k[:i]] = true
		}
	}
	allowedList := func() string {
		var keys []string
		for k := range known {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return strings.Join(keys, ", ")
	}

	// The file is read by the project's YAML parser (readConfigFile), which
	// keeps each value's text and refuses duplicate and unknown keys; its
	// nodes go to Viper as the config layer, opaque, so that Viper does not
	// decode their numbers.
	fileNodes := map[string]any{}
	var walk func(prefix string, m *yaml.Node) error
	walk = func(prefix string, m *yaml.Node) error {
		seen := map[string]bool{}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := resolveAlias(m.Content[i]), resolveAlias(m.Content[i+1])
			key := strings.ToLower(k.Value)
			if prefix != "" {
				key = prefix + "." + key
			}
			if seen[key] {
				return fmt.Errorf("config file %s: config key %s is given twice", file, key)
			}
			seen[key] = true
			switch {
			case k.Kind != yaml.ScalarNode:
				return fmt.Errorf("config file %s: a key is %s, not a name", file, shownValue(k))
			case known[key].typ != nil:
				setNested(fileNodes, key, v)
			case subtrees[key] && isNull(v):
			case subtrees[key] && v.Kind == yaml.MappingNode:
				if err := walk(key, v); err != nil {
					return err
				}
			case subtrees[key]:
				return pipeline.Invalid(key, shownValue(v), "a mapping of its keys")
			default:
				return fmt.Errorf("config file %s: unknown config key %s (known keys: %s)", file, key, allowedList())
			}
		}
		return nil
	}
	if err := walk("", fileRoot); err != nil {
		return nil, err
	}

	// Viper resolves which source gives each whole key: --set (its
	// override layer) over CENSUS_* variables (each known key bound by
	// name, so that no variable is looked up by guess) over the file.
	vp := viper.New()
	if err := vp.MergeConfigMap(fileNodes); err != nil {
		return nil, fmt.Errorf("config file %s: %w", file, err)
	}
	vp.SetEnvPrefix(envPrefix)
	vp.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	vp.AllowEmptyEnv(true) // CENSUS_SEED= is a value to refuse, not an unset key
	envNames := map[string]bool{}
	for k := range known {
		if err := vp.BindEnv(k); err != nil {
			return nil, err
		}
		envNames[envName(k)] = true
	}
	// A variable under a subtree's prefix (CENSUS_KNUTH_…) that names no
	// key is a misspelt key, refused; any other CENSUS_* variable is
	// someone else's (CENSUS_API_KEY), ignored.
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, envPrefix+"_") || envNames[name] {
			continue
		}
		for sub := range subtrees {
			if !strings.Contains(sub, ".") && strings.HasPrefix(name, envName(sub)+"_") {
				return nil, fmt.Errorf("environment variable %s: no such config key (known keys: %s)", name, allowedList())
			}
		}
		slog.Debug("environment variable names no config key: ignored", "variable", name)
	}
	// entries[key][name] are --set values of one entry of a map key
	// (knuth.samples.3x3=…), merged here into the map Viper resolves: in
	// Viper a nested key would hide the rest of its map.
	entries := map[string]map[string]*yaml.Node{}
	for _, s := range sets {
		key, raw, ok := strings.Cut(s, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || key == "" {
			return nil, fmt.Errorf("--set %q: want key=value, for example --set seed=7", s)
		}
		if l, exact := known[key]; exact {
			vp.Set(key, textNode(raw, l.typ))
			delete(entries, key) // a later whole map replaces earlier entries
			continue
		}
		found := false
		for _, prefix := range open {
			if strings.HasPrefix(key, prefix) && len(key) > len(prefix) {
				leafKey := strings.TrimSuffix(prefix, ".")
				if entries[leafKey] == nil {
					entries[leafKey] = map[string]*yaml.Node{}
				}
				entries[leafKey][strings.TrimPrefix(key, prefix)] = textNode(raw, known[leafKey].typ.Elem())
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("--set %s: unknown config key %s (known keys: %s)", s, key, allowedList())
		}
	}
	// given[key] is the node of each whole key that some source sets, as
	// Viper resolved it: a file or --set node, or the text of a variable.
	given := map[string]*yaml.Node{}
	for k, l := range known {
		switch v := vp.Get(k).(type) {
		case nil:
		case *yaml.Node:
			given[k] = v
		case string:
			given[k] = textNode(v, l.typ)
		default:
			return nil, fmt.Errorf("config key %s: unexpected %T from the configuration sources", k, v)
		}
	}

	// written[key] is each value as the user wrote it, for messages of
	// Validate, which sees only the parsed value.
	written := map[string]string{}
	// decode sets the value of leaf l in the struct rv (or returns it when
	// rv is not valid) from what the user gave, or keeps the default.
	decode := func(l leaf, field reflect.Value, ranges rangeOf) error {
		n, ok := given[l.key]
		if ok {
			v, err := decodeNode(l.key, l.typ, n, ranges)
			if err != nil {
				return err
			}
			if n.Kind == yaml.ScalarNode && isNumeric(l.typ) {
				written[l.key] = shownValue(n)
			}
			field.Set(v)
		}
		if ok && n.Kind == yaml.MappingNode && isNumeric(l.typ.Elem()) {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if v := resolveAlias(n.Content[i+1]); v.Kind == yaml.ScalarNode {
					written[l.key+"."+strings.ToLower(n.Content[i].Value)] = shownValue(v)
				}
			}
		}
		if more := entries[l.key]; len(more) > 0 {
			m := reflect.MakeMap(l.typ)
			if !field.IsNil() {
				iter := field.MapRange()
				for iter.Next() {
					m.SetMapIndex(iter.Key(), iter.Value())
				}
			}
			names := make([]string, 0, len(more))
			for name := range more {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				v, err := decodeNode(l.key+"."+name, l.typ.Elem(), more[name], ranges)
				if err != nil {
					return err
				}
				if isNumeric(l.typ.Elem()) {
					written[l.key+"."+name] = shownValue(more[name])
				}
				m.SetMapIndex(reflect.ValueOf(name), v)
			}
			field.Set(m)
		}
		return nil
	}
	// asWritten shows a Validate error's value as the user wrote it.
	asWritten := func(err error) error {
		var ce *pipeline.ConfigError
		if errors.As(err, &ce) {
			if text, ok := written[ce.Key]; ok {
				return pipeline.Invalid(ce.Key, text, ce.Allowed)
			}
		}
		return err
	}

	st := &Settings{Stage: map[string]pipeline.Config{}, Section: map[string]pipeline.Config{}, Globals: map[string]any{}, Canonical: map[string][]byte{}}
	for i, sec := range sections {
		cfg := sectionDefaults[i]
		ranges := func(key string) string { return probeRange(sec.New, sec.Key, key) }
		for _, l := range sectionLeaves[i] {
			if err := decode(l, reflect.ValueOf(cfg).Elem().FieldByIndex(l.field), ranges); err != nil {
				return nil, err
			}
		}
		if err := cfg.Validate(); err != nil {
			return nil, asWritten(err)
		}
		st.Section[sec.Key] = cfg
	}
	for g, def := range globalKeys {
		ptr := reflect.New(reflect.TypeOf(def))
		ptr.Elem().Set(reflect.ValueOf(def))
		if err := decode(known[g], ptr.Elem(), nil); err != nil {
			return nil, err
		}
		st.Globals[g] = ptr.Elem().Interface()
	}
	for _, s := range stages {
		cfg, ok := defaults[s.Name]
		if !ok {
			continue
		}
		ranges := func(key string) string { return probeRange(newConfig[s.Name], s.Name, key) }
		rv := reflect.ValueOf(cfg).Elem()
		for _, l := range leaves(s.Name, rv.Type(), nil) {
			if err := decode(l, rv.FieldByIndex(l.field), ranges); err != nil {
				return nil, err
			}
		}
		if err := cfg.Validate(); err != nil {
			return nil, asWritten(err)
		}
		st.Stage[s.Name] = cfg
	}
	for _, s := range stages {
		tree := map[string]any{}
		if cfg, ok := st.Stage[s.Name]; ok {
			tree[s.Name] = cfg
		}
		for _, g := range s.Globals {
			if _, ok := globalKeys[g]; !ok {
				return nil, fmt.Errorf("stage %s reads global config key %s, which does not exist", s.Name, g)
			}
			tree[g] = st.Globals[g]
		}
		canon, err := canonicalJSON(tree)
		if err != nil {
			return nil, fmt.Errorf("stage %s: config: %w", s.Name, err)
		}
		st.Canonical[s.Name] = canon
	}
	return st, nil
}

// isNumeric reports whether a key of type t holds one number or bool,
// whose Validate message shows the parsed value: it is shown as written
// instead. (A list's Validate names the bad item itself.)
func isNumeric(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.String, reflect.Struct:
		return false
	}
	return true
}

// envName is the environment variable that sets key: knuth.samples is
// CENSUS_KNUTH_SAMPLES (Viper's prefix and key replacer give the same).
func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// setNested puts v at the dotted key in the nested map m.
func setNested(m map[string]any, key string, v any) {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		sub, ok := m[p].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[p] = sub
		}
		m = sub
	}
	m[parts[len(parts)-1]] = v
}

// next returns the index of the next '.' in k after i, or -1.
func next(k string, i int) int {
	j := strings.IndexByte(k[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// canonicalJSON renders v as JSON with every object's keys sorted and
// numbers kept exactly, so that equal configurations hash equally.
func canonicalJSON(v any) ([]byte, error) {
	first, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	return json.Marshal(generic) // maps marshal with sorted keys
}

// Flatten turns canonical config JSON into dotted keys and their values, for
// saying which key changed.
func Flatten(raw []byte) map[string]string {
	out := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if dec.Decode(&generic) != nil {
		return out
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			for k, sub := range m {
				key := k
				if prefix != "" {
					key = prefix + "." + k
				}
				walk(key, sub)
			}
			return
		}
		b, _ := json.Marshal(v)
		out[prefix] = string(b)
	}
	walk("", generic)
	return out
}
