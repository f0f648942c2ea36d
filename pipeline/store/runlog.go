package store

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
)

// RunLogPath is the run log: one JSON line per stage per run, with timings.
// No stage reads it.
const RunLogPath = "data/runs.jsonl"

// RunLogLine is what the engine reads back of a line of the run log.
type RunLogLine struct {
	Time        string         `json:"time"`
	Stage       string         `json:"stage"`
	Action      string         `json:"action"`
	Fingerprint string         `json:"fingerprint"`
	Wall        float64        `json:"wall_seconds"`
	CPU         float64        `json:"cpu_seconds"`
	Metrics     map[string]any `json:"metrics"`
}

// EachRun calls f with every line of the run log, oldest first; a missing
// log has none, and damaged lines are passed over.
func EachRun(root string, f func(RunLogLine)) {
	file, err := os.Open(filepath.Join(root, filepath.FromSlash(RunLogPath)))
	if err != nil {
		return
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line RunLogLine
		if json.Unmarshal(sc.Bytes(), &line) == nil {
			f(line)
		}
	}
}
