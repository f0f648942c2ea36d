package pipeline

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progressSink is where progress bars draw: a terminal, or nothing.
type progressSink struct {
	mu  sync.Mutex
	out io.Writer // nil: progress is not shown (a pipe, a file, CI)
}

// Progress counts work done towards a total and, on a terminal, draws a
// bar at most ten times a second. It is safe for concurrent use.
type Progress struct {
	sink  *progressSink
	label string
	total int64
	done  atomic.Int64
	last  atomic.Int64 // unix nanoseconds of the last draw
	start time.Time
}

// Progress starts a progress bar for total units of work named label.
func (p *Pass) Progress(label string, total int64) *Progress {
	return &Progress{sink: p.progress, label: p.Stage.Name + ": " + label, total: total, start: time.Now()}
}

// NewProgress starts a progress bar outside a stage (a command's own long
// work): drawn on out, or not at all when out is nil (a pipe, a file, CI).
func NewProgress(out io.Writer, label string, total int64) *Progress {
	return &Progress{sink: &progressSink{out: out}, label: label, total: total, start: time.Now()}
}

// Add records n more units done.
func (g *Progress) Add(n int64) {
	done := g.done.Add(n)
	if g.sink == nil || g.sink.out == nil {
		return
	}
	now := time.Now().UnixNano()
	last := g.last.Load()
	if now-last < int64(100*time.Millisecond) || !g.last.CompareAndSwap(last, now) {
		return
	}
	g.draw(done, false)
}

// Done clears the bar.
func (g *Progress) Done() {
	if g.sink == nil || g.sink.out == nil {
		return
	}
	g.draw(g.done.Load(), true)
}

func (g *Progress) draw(done int64, final bool) {
	const width = 30
	frac := 0.0
	if g.total > 0 {
		frac = min(1, float64(done)/float64(g.total))
	}
	filled := int(frac * width)
	line := fmt.Sprintf("\r%s [%s%s] %5.1f%% %d/%d %s", g.label, strings.Repeat("=", filled),
		strings.Repeat(" ", width-filled), 100*frac, done, g.total, time.Since(g.start).Round(time.Second))
	g.sink.mu.Lock()
	defer g.sink.mu.Unlock()
	if final {
		fmt.Fprintf(g.sink.out, "\r%s\r", strings.Repeat(" ", len(line)))
		return
	}
	fmt.Fprint(g.sink.out, line)
}

// Shown reports whether the bar is drawn (on a terminal).
func (g *Progress) Shown() bool { return g != nil && g.sink != nil && g.sink.out != nil }
