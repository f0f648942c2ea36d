package inspect

import "testing"

func TestPublicURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:token@example.org/o/r.git": "https://example.org/o/r.git",
		"git@example.org:o/r.git":                "ssh://git@example.org/o/r.git",
		"ssh://git:pw@example.org/o/r":           "ssh://git@example.org/o/r",
		"/srv/git/r.git":                         "/srv/git/r.git",
	} {
		if got := publicURL(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
