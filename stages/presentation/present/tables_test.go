package present

import "testing"

// TestTablesAlign checks that every table's column spec has as many
// columns as its head.
func TestTablesAlign(t *testing.T) {
	for _, tab := range Tables {
		if got, head := len(tab.Make(&Results{}).Aligns()), len(tab.Make(&Results{}).Head); got != head {
			t.Errorf("table %s: %d columns in its spec, %d in its head", tab.Name, got, head)
		}
	}
}
