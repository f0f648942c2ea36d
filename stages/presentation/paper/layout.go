package paper

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Limits of issue 51, a paper for a journal such as Experimental
// Mathematics, checked on main.aux by auxcheck.Check.
const (
	// maxBodyPages is how many A4 pages the body (title page to the end of
	// the Conclusion) may take: the detail goes to the appendices after the
	// references.
	maxBodyPages = 14
	// minTableFontPt is the smallest font, in points, a table may be set in
	// once \fittable has scaled it: a table that needs less is split,
	// turned sideways or moved to an appendix instead.
	minTableFontPt = 8.0
)

// hboxTolerance is how far, in points, a line may stick out into the
// margin before the paper stage fails: LaTeX reports lines 0.1 pt too
// wide, which no reader sees.
const hboxTolerance = 2.0

var (
	// overfullVbox: a page or box taller than the space it is given, its
	// bottom cut off or set over the page number (a figure too tall for
	// its page, in the issue that brought this check).
	overfullVbox = regexp.MustCompile(`^Overfull \\vbox`)
	// floatTooLarge: LaTeX's warning for a float taller than the page.
	floatTooLarge = regexp.MustCompile(`Float too large for page`)
	// overfullHbox: a line wider than the text, by how many points.
	overfullHbox = regexp.MustCompile(`^Overfull \\hbox \(([0-9.]+)pt too wide\)`)
)

// layoutError returns the first line of the LaTeX log log that reports
// content beyond the text area: an overfull \vbox, a float too large for
// its page, or a line more than hboxTolerance too wide. Such a paper
// builds, but a figure or table runs off its page or into the margin.
func layoutError(log string) error {
	for _, line := range strings.Split(log, "\n") {
		line = strings.TrimSpace(line)
		if overfullVbox.MatchString(line) || floatTooLarge.MatchString(line) {
			return fmt.Errorf("paper/main.log: %s: content beyond the text area", line)
		}
		if m := overfullHbox.FindStringSubmatch(line); m != nil {
			if pt, err := strconv.ParseFloat(m[1], 64); err == nil && pt > hboxTolerance {
				return fmt.Errorf("paper/main.log: %s: content beyond the text area (more than %gpt)", line, hboxTolerance)
			}
		}
	}
	return nil
}
