package config

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
)

// Every config value, from the YAML file, a CENSUS_* variable or --set, is
// parsed here from the text the user wrote, against the type of its key in
// the defaults: an integer key takes only an integer literal that fits its
// type, a float key only a finite number, a bool key only true or false.
// Nothing is coerced (no 1.5 → 1, 1e30 → −2⁶³, true → 1, empty → 0), and a
// refusal shows the value exactly as written.

// MaxConfigBytes (1 MiB) bounds the config file: a configuration is a few KiB of
// YAML, and the file is read through this limit so that a wrong path
// (/dev/zero, a data file) fails at once instead of filling memory.
const MaxConfigBytes = 1 << 20

// readConfigFile reads and parses the YAML config file, refusing one that
// is too large, empty, or whose document is not a mapping of keys.
func readConfigFile(path string) (*yaml.Node, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("config file %s: is a directory, not a YAML file", path)
	}
	data, err := files.ReadLimited(path, MaxConfigBytes)
	if err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, msg.PathErr(err))
	}
	if strings.TrimSpace(string(data)) == "" {
		return nil, fmt.Errorf("config file %s is empty: write the keys to change (a file holding only comments keeps every default)", path)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config file %s: malformed YAML: %s", path, msg.OneLine(err.Error()))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode}, nil // only comments: every default
	}
	root := resolveAlias(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config file %s: the document is %s, not a mapping of config keys (such as seed: 1)", path, shownValue(root))
	}
	return root, nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// scalarNode is a value given as text (an environment variable, --set).
func scalarNode(text string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text}
}

// textNode turns the text of an environment variable or --set into the
// node of a key of type t: lists and maps are YAML ([a, b], {3x3: 5}); a
// list may also be written a,b; a scalar is the text itself (or the inside
// of a quoted YAML string), never converted by YAML's rules.
func textNode(text string, t reflect.Type) *yaml.Node {
	var doc yaml.Node
	parsed := yaml.Unmarshal([]byte(text), &doc) == nil && len(doc.Content) == 1
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		if parsed {
			if n := resolveAlias(doc.Content[0]); n.Kind != yaml.ScalarNode {
				return n
			}
		}
		return scalarNode(text)
	}
	if parsed {
		if n := doc.Content[0]; n.Kind == yaml.ScalarNode && (n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle)) != 0 {
			return scalarNode(n.Value)
		}
	}
	if t.Kind() != reflect.String {
		text = strings.TrimSpace(text)
	}
	return scalarNode(text)
}

// isNull reports whether a YAML scalar is null (nothing, ~ or null).
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// shownValue is a value as the user wrote it, for a message: an empty one
// is shown as "".
func shownValue(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value == "" {
			return `""`
		}
		return n.Value
	case yaml.SequenceNode, yaml.MappingNode:
		c := *n
		c.Style = yaml.FlowStyle
		out, err := yaml.Marshal(&c)
		if err != nil {
			return "a " + map[yaml.Kind]string{yaml.SequenceNode: "list", yaml.MappingNode: "mapping"}[n.Kind]
		}
		return msg.OneLine(string(out))
	}
	return "(empty)"
}

// rangeOf returns what an integer key allows (its own range, from its
// stage's Validate), or "" for the full range of its type.
type rangeOf func(key string) string

// decodeNode parses n as a value of type t for the key: the one place
// where config text becomes a number.
func decodeNode(key string, t reflect.Type, n *yaml.Node, ranges rangeOf) (reflect.Value, error) {
	n = resolveAlias(n)
	out := reflect.New(t).Elem()
	bad := func(allowed string) (reflect.Value, error) {
		return out, pipeline.Invalid(key, shownValue(n), allowed)
	}
	switch t.Kind() {
	case reflect.Slice:
		if t.Elem().Kind() != reflect.String {
			return bad("a value of type " + t.String())
		}
		var items []string
		switch {
		case isNull(n):
		case n.Kind == yaml.SequenceNode:
			for _, item := range n.Content {
				item = resolveAlias(item)
				if item.Kind != yaml.ScalarNode || isNull(item) {
					return bad("a list of names, such as [a, b]")
				}
				items = append(items, item.Value)
			}
		case n.Kind == yaml.ScalarNode:
			if n.Value != "" {
				items = strings.Split(n.Value, ",")
			}
		default:
			return bad("a list, such as [a, b]")
		}
		out.Set(reflect.MakeSlice(t, 0, len(items)))
		for _, s := range items {
			out = reflect.Append(out, reflect.ValueOf(s).Convert(t.Elem()))
		}
		return out, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return bad("a value of type " + t.String())
		}
		out.Set(reflect.MakeMap(t))
		if isNull(n) {
			return out, nil
		}
		if n.Kind != yaml.MappingNode {
			return bad("a mapping, such as {3x3: 1000}")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolveAlias(n.Content[i])
			if k.Kind != yaml.ScalarNode {
				return bad("a mapping whose keys are names")
			}
			name := strings.ToLower(k.Value)
			if out.MapIndex(reflect.ValueOf(name)).IsValid() {
				return out, pipeline.Invalid(key+"."+name, shownValue(n.Content[i+1]), "one value per key: "+name+" is given twice")
			}
			v, err := decodeNode(key+"."+name, t.Elem(), n.Content[i+1], ranges)
			if err != nil {
				return out, err
			}
			out.SetMapIndex(reflect.ValueOf(name), v)
		}
		return out, nil
	}
	if n.Kind != yaml.ScalarNode {
		return bad(scalarKind(t, key, ranges))
	}
	if t.Kind() == reflect.String {
		if !isNull(n) {
			out.SetString(n.Value)
		}
		return out, nil
	}
	if isNull(n) {
		return bad(scalarKind(t, key, ranges))
	}
	text := n.Value
	switch t.Kind() {
	case reflect.Bool:
		switch strings.ToLower(text) {
		case "true":
			out.SetBool(true)
		case "false":
		default:
			return bad("true or false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := strconv.ParseInt(text, 10, t.Bits())
		if err != nil {
			return bad(scalarKind(t, key, ranges))
		}
		out.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x, err := strconv.ParseUint(text, 10, t.Bits())
		if err != nil {
			return bad(scalarKind(t, key, ranges))
		}
		out.SetUint(x)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(text, t.Bits())
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return bad(scalarKind(t, key, ranges))
		}
		out.SetFloat(x)
	default:
		return bad("a value of type " + t.String())
	}
	return out, nil
}

// scalarKind says what a key of type t takes.
func scalarKind(t reflect.Type, key string, ranges rangeOf) string {
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if ranges != nil {
			if r := ranges(key); r != "" {
				return r
			}
		}
		bits := t.Bits()
		return fmt.Sprintf("an integer from %d to %d", int64(-1)<<(bits-1), int64(uint64(1)<<(bits-1)-1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if ranges != nil {
			if r := ranges(key); r != "" {
				return r
			}
		}
		return fmt.Sprintf("an integer from 0 to %d", uint64(math.MaxUint64)>>(64-t.Bits()))
	case reflect.Float32, reflect.Float64:
		return "a finite number, such as 0.5 or 2e-3"
	}
	return "a value of type " + t.String()
}

// probeRange returns the range an integer key of a config allows, as its
// Validate words it: the key set to the least, then the greatest value of
// its type in a fresh default config. "" when Validate accepts both.
func probeRange(newConfig func() pipeline.Config, stage string, key string) string {
	for _, extreme := range []int{-1, 1} {
		cfg := newConfig()
		rv := reflect.ValueOf(cfg).Elem()
		if !setExtreme(rv, stage, key, extreme) {
			return ""
		}
		var ce *pipeline.ConfigError
		if err := cfg.Validate(); errors.As(err, &ce) && ce.Key == key {
			return ce.Allowed
		}
	}
	return ""
}

// setExtreme sets the integer field (or map entry) of key in the config
// struct rv to the least (extreme < 0) or greatest value of its type.
func setExtreme(rv reflect.Value, stage, key string, extreme int) bool {
	for _, l := range leaves(stage, rv.Type(), nil) {
		field := rv.FieldByIndex(l.field)
		var entry string
		switch {
		case l.key == key:
		case l.open && strings.HasPrefix(key, l.key+"."):
			entry = strings.TrimPrefix(key, l.key+".")
		default:
			continue
		}
		t := l.typ
		if entry != "" {
			t = t.Elem()
		}
		v := reflect.New(t).Elem()
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			x := int64(uint64(1)<<(t.Bits()-1) - 1)
			if extreme < 0 {
				x = -x - 1
			}
			v.SetInt(x)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			x := uint64(math.MaxUint64) >> (64 - t.Bits())
			if extreme < 0 {
				x = 0
			}
			v.SetUint(x)
		default:
			return false
		}
		if entry == "" {
			field.Set(v)
			return true
		}
		m := reflect.MakeMap(l.typ)
		if !field.IsNil() {
			iter := field.MapRange()
			for iter.Next() {
				m.SetMapIndex(iter.Key(), iter.Value())
			}
		}
		m.SetMapIndex(reflect.ValueOf(entry), v)
		field.Set(m)
		return true
	}
	return false
}
