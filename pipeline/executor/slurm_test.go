package executor

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func TestUnitsPerTask(t *testing.T) {
	cfg := Default().Slurm
	cases := []struct {
		per, max, parallel int
		minutes            float64
		mean               time.Duration
		missing, want      int
	}{
		{0, 1000, 1, 10, 0, 500, 1},                       // nothing known: one unit per task
		{0, 1000, 1, 10, time.Second, 5000, 600},          // ten minutes of one-second units
		{0, 1000, 4, 1, 30 * time.Second, 100, 8},         // four at once
		{0, 100, 1, 10, 0, 1001, 11},                      // capped at max_tasks
		{7, 1000, 1, 10, time.Hour, 20, 7},                // fixed
		{0, 1000, 1, 10, 2 * time.Hour, 3, 1},             // units longer than a task
		{3, 2, 1, 10, 0, 20, 10},                          // fixed, but capped
		{0, 1000, 1, 0.5, 100 * time.Millisecond, 10, 10}, // more per task than missing: one task of them all
		{math.MaxInt, 1000, 1, 10, 0, 20, 20},             // hostile sizes: no overflow, one task
		{0, 1000, 1, 1e300, time.Nanosecond, 20, 20},      // a fill beyond int is clamped, not wrapped
		{0, 1000000, math.MaxInt, 1e300, time.Second, 7, 7},
	}
	for _, c := range cases {
		cfg.UnitsPerTask, cfg.MaxTasks, cfg.TaskMinutes = c.per, c.max, c.minutes
		if got := unitsPerTask(cfg, c.parallel, c.mean, c.missing); got != c.want {
			t.Errorf("%+v: %d units per task, want %d", c, got, c.want)
		}
	}
	ids := []string{"a", "b", "c", "d", "e", "f", "g"}
	if got := fmt.Sprint(splitTasks(ids, 3)); got != "[[a b] [c d] [e f g]]" {
		t.Errorf("splitTasks(7, 3) = %s", got)
	}
	if got := fmt.Sprint(splitTasks(ids, 300)); got != "[[a b c d e f g]]" {
		t.Errorf("splitTasks(7, 300) = %s", got)
	}
}
