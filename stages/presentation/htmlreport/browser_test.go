package htmlreport_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// requireBrowser, when "1", makes a missing browser fail the browser test
// instead of skipping it: CI sets it (.ci/run installs chromium).
const requireBrowser = "SUDOKU_CENSUS_REQUIRE_BROWSER"

// findBrowser returns the path of a Chromium-based browser, or "" when
// none is installed.
func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}

// browserOrSkip returns the browser's path, skipping t when there is none
// unless requireBrowser is set.
func browserOrSkip(t *testing.T) string {
	t.Helper()
	path := findBrowser()
	if path == "" {
		if os.Getenv(requireBrowser) == "1" {
			t.Fatalf("%s=1 but no chromium is installed (apt-get install chromium)", requireBrowser)
		}
		t.Skipf("no chromium found (apt-get install chromium; set %s=1 to fail instead)", requireBrowser)
	}
	return path
}

// figureBox is what the browser says of one figure's image.
type figureBox struct {
	ID                        string
	Complete                  bool
	NaturalWidth, NaturalHigh float64
	Width, Height             float64
}

// pageFacts is what a page showed in the browser.
type pageFacts struct {
	Errors   []string    // console errors, uncaught exceptions, error log entries
	Requests []string    // URLs requested other than the page itself and data: URIs
	Figures  []figureBox // every figure's image
	Text     string      // the visible text (innerText of the body)
	Hashes   []shownHash // every code.sha256 element
	// Wide lists what reaches past the window's width outside any
	// element that scrolls sideways (cut off, or scrolling the page).
	Wide  []string
	Width int // the window's width
}

// shownHash is a SHA-256 the page shows, and the artifact it names.
type shownHash struct{ Path, Hash string }

// inspect loads the page at pageURL in a headless browser and returns
// what it showed.
func inspect(t *testing.T, browser, pageURL string, width int) pageFacts {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.WindowSize(width, 1024))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()

	var mu sync.Mutex
	var facts pageFacts
	// Console calls, uncaught exceptions and the browser's error log (a
	// resource that fails to load).
	messages := chromedp.Console(ctx)
	if err := chromedp.Listen(ctx, func(ev any) {
		if req, ok := ev.(*network.EventRequestWillBeSent); ok && req.Request != nil {
			if u := req.Request.URL; u != pageURL && !strings.HasPrefix(u, "data:") {
				mu.Lock()
				facts.Requests = append(facts.Requests, u)
				mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatalf("browser %s: %v", browser, err)
	}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() || m.Type == "assert" {
				mu.Lock()
				facts.Errors = append(facts.Errors, "console "+m.String()+" "+m.URL)
				mu.Unlock()
			}
		}
	}()

	runCtx, cancelRun := context.WithTimeout(ctx, 60*time.Second)
	defer cancelRun()
	err := chromedp.Do(runCtx, chromedp.Navigate(pageURL), chromedp.WaitReady("body"))
	var figures []figureBox
	var hashes []shownHash
	var text string
	var wide []string
	if err == nil {
		// Every image decoded (or failed) before measuring.
		_, err = chromedp.Run(runCtx, chromedp.Poll[bool](`Array.from(document.images).every(i => i.complete)`, chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err == nil {
		figures, err = chromedp.Run(runCtx, chromedp.Evaluate[[]figureBox](`Array.from(document.querySelectorAll("figure")).map(f => {
			const i = f.querySelector("img"); const r = i ? i.getBoundingClientRect() : {width: 0, height: 0};
			return {ID: f.id, Complete: !!i && i.complete, NaturalWidth: i ? i.naturalWidth : 0, NaturalHigh: i ? i.naturalHeight : 0,
				Width: r.width, Height: r.height};
		})`))
	}
	if err == nil {
		hashes, err = chromedp.Run(runCtx, chromedp.Evaluate[[]shownHash](
			`Array.from(document.querySelectorAll("code.sha256")).map(c => ({Path: c.dataset.path, Hash: c.innerText}))`))
	}
	if err == nil {
		text, err = chromedp.Run(runCtx, chromedp.Evaluate[string](`document.body.innerText`))
	}
	if err == nil {
		wide, err = chromedp.Run(runCtx, chromedp.Evaluate[[]string](`(() => {
			const W = document.documentElement.clientWidth, out = [];
			const scrolls = e => { for (let p = e.parentElement; p; p = p.parentElement) {
				const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll") return true; } return false; };
			for (const e of document.body.querySelectorAll("*")) {
				const r = e.getBoundingClientRect();
				if (r.width > 0 && (r.right > W + 1 || r.left < -1) && !scrolls(e)) {
					out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " reaches " + Math.round(r.right) + " px");
				}
			}
			if (document.documentElement.scrollWidth > W + 1) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
			return out.slice(0, 20);
		})()`))
	}
	if err != nil {
		t.Fatalf("browser on %s: %v", pageURL, err)
	}
	// Messages of the load may still be on their way.
	time.Sleep(300 * time.Millisecond)
	cancel()
	<-readDone
	mu.Lock()
	defer mu.Unlock()
	facts.Figures, facts.Text, facts.Hashes, facts.Wide, facts.Width = figures, text, hashes, wide, width
	return facts
}

// expectations are what a correct page shows.
type expectations struct {
	figures int               // figures in the figure index
	number  string            // a number that must be visible, as the paper prints it
	hashes  map[string]string // path -> SHA-256 of every input artifact, from the manifest
}

// problems returns what is wrong with the page the facts describe.
func problems(f pageFacts, want expectations) []string {
	var out []string
	out = append(out, f.Errors...)
	for _, w := range f.Wide {
		out = append(out, fmt.Sprintf("at %d px wide, %s", f.Width, w))
	}
	for _, r := range f.Requests {
		out = append(out, "page fetched "+r)
	}
	if len(f.Figures) != want.figures {
		out = append(out, fmt.Sprintf("page has %d figures, the figure index %d", len(f.Figures), want.figures))
	}
	for _, b := range f.Figures {
		if !b.Complete || b.NaturalWidth == 0 || b.NaturalHigh == 0 || b.Width == 0 || b.Height == 0 {
			out = append(out, fmt.Sprintf("figure %s does not render: %+v", b.ID, b))
		}
	}
	if !strings.Contains(f.Text, want.number) {
		out = append(out, "page does not show "+want.number)
	}
	shown := map[string]bool{}
	for _, h := range f.Hashes {
		hash, ok := want.hashes[h.Path]
		switch {
		case !ok:
			out = append(out, "page shows a hash for "+h.Path+", which is not an input in the manifest")
		case h.Hash != hash:
			out = append(out, fmt.Sprintf("page shows %s for %s, the manifest %s", h.Hash, h.Path, hash))
		}
		shown[h.Path] = true
	}
	var missing []string
	for path := range want.hashes {
		if !shown[path] {
			missing = append(missing, path)
		}
	}
	sort.Strings(missing)
	for _, path := range missing {
		out = append(out, "page shows no hash for "+path)
	}
	return out
}

// fileURL is the file: URL of path.
func fileURL(path string) string {
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: abs}).String()
}
