package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// globalKeys are the top-level configuration keys outside any stage's
// subtree, with their defaults. A stage reads one only by naming it in
// Globals, which puts it in the stage's fingerprint.
var globalKeys = map[string]any{
	"seed": uint64(1),
}

// executorKey is the configuration subtree of the executor
// (ExecutorConfig): not a stage's, and in no fingerprint.
const executorKey = "executor"

// envPrefix is the prefix of environment variables that set config keys:
// CENSUS_SEED sets seed, CENSUS_KNUTH_SAMPLES sets knuth.samples.
const envPrefix = "CENSUS"

// settings is a loaded configuration: each stage's decoded config and the
// globals, with the canonical JSON that enters fingerprints.
type settings struct {
	stage    map[string]Config
	globals  map[string]any
	executor *ExecutorConfig
	// canonical[stage] is the canonical JSON of the stage's subtree and the
	// globals it reads: {"<stage>": {...}, "<global>": value}, keys sorted.
	canonical map[string][]byte
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

// loadSettings reads the config file, then environment variables, then the
// --set overrides (each later one wins), rejects unknown keys, decodes each
// stage's subtree and validates it.
func loadSettings(stages []*Stage, file string, sets []string) (*settings, error) {
	v := viper.New()
	v.SetConfigFile(file)
	v.SetConfigType("yaml")
	if _, err := os.Stat(file); err != nil {
		return nil, fmt.Errorf("config file %s: %w", file, unwrapPathError(err))
	}
	if err := v.ReadInConfig(); err != nil {
		return nil, fmt.Errorf("config file %s: malformed YAML: %s", file, oneLine(err.Error()))
	}

	known := map[string]leaf{}
	var open []string
	for g, def := range globalKeys {
		known[g] = leaf{key: g, typ: reflect.TypeOf(def)}
		v.SetDefault(g, def)
	}
	executor := defaultExecutor()
	executorLeaves := leaves(executorKey, reflect.TypeOf(*executor), nil)
	for _, l := range executorLeaves {
		known[l.key] = l
		v.SetDefault(l.key, reflect.ValueOf(executor).Elem().FieldByIndex(l.field).Interface())
	}
	defaults := map[string]Config{}
	for _, s := range stages {
		if s.NewConfig == nil {
			continue
		}
		def := s.NewConfig()
		defaults[s.Name] = def
		rv := reflect.ValueOf(def).Elem()
		for _, l := range leaves(s.Name, rv.Type(), nil) {
			known[l.key] = l
			v.SetDefault(l.key, rv.FieldByIndex(l.field).Interface())
			if l.open {
				open = append(open, l.key+".")
			}
		}
	}
	isKnown := func(key string) bool {
		if _, ok := known[key]; ok {
			return true
		}
		for _, prefix := range open {
			if strings.HasPrefix(key, prefix) {
				return true
			}
		}
		return false
	}
	allowedList := func() string {
		var keys []string
		for k := range known {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return strings.Join(keys, ", ")
	}

	for _, key := range v.AllKeys() {
		if !isKnown(key) {
			return nil, fmt.Errorf("config file %s: unknown config key %s (known keys: %s)", file, key, allowedList())
		}
	}
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	envNames := map[string]bool{}
	for k := range known {
		envNames[envPrefix+"_"+strings.ToUpper(strings.ReplaceAll(k, ".", "_"))] = true
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, envPrefix+"_") && !envNames[name] {
			return nil, fmt.Errorf("environment variable %s: no such config key (known keys: %s)", name, allowedList())
		}
	}
	// mapSets holds --set values for entries inside a map key
	// (knuth.samples.3x3=…): viper would replace the whole map, so they are
	// merged into it after it is read.
	mapSets := map[string]map[string]any{}
	for _, s := range sets {
		key, raw, ok := strings.Cut(s, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || key == "" {
			return nil, fmt.Errorf("--set %q: want key=value, for example --set seed=7", s)
		}
		if !isKnown(key) {
			return nil, fmt.Errorf("--set %s: unknown config key %s (known keys: %s)", s, key, allowedList())
		}
		var value any = raw
		var parsed any
		if yaml.Unmarshal([]byte(raw), &parsed) == nil && parsed != nil {
			value = parsed
		}
		if _, exact := known[key]; exact {
			v.Set(key, value)
			continue
		}
		for _, prefix := range open {
			if strings.HasPrefix(key, prefix) {
				leafKey := strings.TrimSuffix(prefix, ".")
				if mapSets[leafKey] == nil {
					mapSets[leafKey] = map[string]any{}
				}
				mapSets[leafKey][strings.TrimPrefix(key, prefix)] = value
			}
		}
	}

	st := &settings{stage: map[string]Config{}, globals: map[string]any{}, canonical: map[string][]byte{}, executor: executor}
	for _, l := range executorLeaves {
		fresh := reflect.New(l.typ)
		if err := decodeValue(v.Get(l.key), fresh.Interface()); err != nil {
			return nil, invalidType(l.key, v.Get(l.key), l.typ)
		}
		reflect.ValueOf(executor).Elem().FieldByIndex(l.field).Set(fresh.Elem())
	}
	if err := executor.Validate(); err != nil {
		return nil, err
	}
	for g, def := range globalKeys {
		ptr := reflect.New(reflect.TypeOf(def))
		if err := decodeValue(v.Get(g), ptr.Interface()); err != nil {
			return nil, invalidType(g, v.Get(g), ptr.Elem().Type())
		}
		st.globals[g] = ptr.Elem().Interface()
	}
	for _, s := range stages {
		cfg, ok := defaults[s.Name]
		if !ok {
			continue
		}
		rv := reflect.ValueOf(cfg).Elem()
		for _, l := range leaves(s.Name, rv.Type(), nil) {
			field := rv.FieldByIndex(l.field)
			raw := v.Get(l.key)
			if entries := mapSets[l.key]; entries != nil {
				merged := map[string]any{}
				if m, ok := raw.(map[string]any); ok {
					for k, x := range m {
						merged[k] = x
					}
				}
				for k, x := range entries {
					merged[k] = x
				}
				raw = merged
			}
			fresh := reflect.New(l.typ)
			if err := decodeValue(raw, fresh.Interface()); err != nil {
				return nil, invalidType(l.key, raw, l.typ)
			}
			field.Set(fresh.Elem())
		}
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		st.stage[s.Name] = cfg
	}
	for _, s := range stages {
		tree := map[string]any{}
		if cfg, ok := st.stage[s.Name]; ok {
			tree[s.Name] = cfg
		}
		for _, g := range s.Globals {
			if _, ok := globalKeys[g]; !ok {
				return nil, fmt.Errorf("stage %s reads global config key %s, which does not exist", s.Name, g)
			}
			tree[g] = st.globals[g]
		}
		canon, err := canonicalJSON(tree)
		if err != nil {
			return nil, fmt.Errorf("stage %s: config: %w", s.Name, err)
		}
		st.canonical[s.Name] = canon
	}
	return st, nil
}

func decodeValue(raw, out any) error {
	switch reflect.TypeOf(out).Elem().Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if strings.HasPrefix(strings.TrimSpace(fmt.Sprint(raw)), "-") {
			return fmt.Errorf("negative value for an unsigned key")
		}
	}
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		Result:           out,
		WeaklyTypedInput: true,
		ErrorUnused:      true,
		DecodeHook:       mapstructure.StringToSliceHookFunc(","),
	})
	if err != nil {
		return err
	}
	return dec.Decode(raw)
}

func invalidType(key string, value any, t reflect.Type) error {
	want := map[reflect.Kind]string{
		reflect.Bool: "true or false", reflect.String: "text", reflect.Float64: "a number",
		reflect.Int: "an integer", reflect.Int64: "an integer", reflect.Int32: "an integer",
		reflect.Uint64: "a non-negative integer", reflect.Uint32: "a non-negative integer",
		reflect.Slice: "a list", reflect.Map: "a mapping",
	}[t.Kind()]
	if want == "" {
		want = "a value of type " + t.String()
	}
	return Invalid(key, fmt.Sprintf("%v", value), want)
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

// flatten turns canonical config JSON into dotted keys and their values, for
// saying which key changed.
func flatten(raw []byte) map[string]string {
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

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
