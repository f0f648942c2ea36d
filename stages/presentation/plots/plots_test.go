package plots

import "testing"

func TestPowerLabel(t *testing.T) {
	for _, c := range []struct {
		m, k int
		want string
	}{{1, 0, "1"}, {5, -3, "0.005"}, {2, 3, "2000"}, {1, 4, "10k"}, {5, 5, "500k"}, {1, 6, "1M"}, {2, 9, "2G"}, {1, 21, "1e21"}, {1, -5, "1e-5"}} {
		if got := powerLabel(c.m, c.k); got != c.want {
			t.Errorf("powerLabel(%d, %d) = %q, want %q", c.m, c.k, got, c.want)
		}
	}
}

func TestPowerTicks(t *testing.T) {
	ticks := powerTicks{}.Ticks(3, 2000)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"1", "10", "100", "1000", "10k"}
	if len(labels) != len(want) {
		t.Fatalf("labels %q, want %q", labels, want)
	}
	for i := range want {
		if labels[i] != want[i] {
			t.Errorf("label %d = %q, want %q", i, labels[i], want[i])
		}
	}
}

func TestToCP1252(t *testing.T) {
	if got, want := toCP1252("4×4 10²¹ √"), "4\xd74 10\xb2\xb9 ?"; got != want {
		t.Errorf("toCP1252 = %q, want %q", got, want)
	}
}

func TestNiceTicks(t *testing.T) {
	var labels []string
	for _, tk := range (niceTicks{}).Ticks(0.93, 1.16) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"0.95", "1.00", "1.05", "1.10", "1.15"}
	if len(labels) != len(want) {
		t.Fatalf("labels %q, want %q", labels, want)
	}
	for i := range want {
		if labels[i] != want[i] {
			t.Errorf("label %d = %q, want %q", i, labels[i], want[i])
		}
	}
}
