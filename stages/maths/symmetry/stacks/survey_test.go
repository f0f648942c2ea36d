package stacks

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// TestSurvey2x6 is exploratory (it runs only with STACKS_SURVEY set to the
// path of a TSV file to write): it projects the CPU time of Fixed on every
// 2×6 class that admits a relabelling type (the 488 units of the symmetry
// stage's bundle, in increasing order of the most cycles of a σ type, as
// the setup grows with them), or on the classes STACKS_SURVEY_CLASSES lists
// (comma separated), less those listed in the file STACKS_SURVEY_SKIP.
//
// For each class it lists the term classes of each σ type
// (assignmentClasses) and times a sample of terms on one goroutine: terms
// are drawn from the σ type least sampled in proportion to its number of
// terms, each type's terms in van der Corput order (so that any prefix is
// spread evenly over the list), until every term is timed or the class has
// used STACKS_SURVEY_SECONDS CPU-seconds on terms (default 3) and sampled
// at least STACKS_SURVEY_MIN terms (default 4) and one of each σ type. A
// term that runs longer than STACKS_SURVEY_TERM_CAP seconds (default 60) is
// cancelled and counted at the cap, and the projection is then marked as a
// lower bound (">="). A class's projection is the CPU time of its setup
// (newStackProblem, SigmaTypes and assignmentClasses, which Fixed does too)
// plus, per σ type, the sampled CPU-s scaled to all its terms: by their
// number, or, with STACKS_SURVEY_RATIO set, by a cost predictor x (the
// halves' pairstacks.StateBound for plain counts, the twisted DP's layer
// bound for twisted ones) as Σ_all x · Σ_sampled cpu / Σ_sampled x, the
// terms being sampled in van der Corput order of x. STACKS_SURVEY_FIT
// (with RATIO) samples the top twentieth of x first and fits cpu = a·x^b
// instead (slow: the top terms of the heavy classes take minutes).
// STACKS_SURVEY_VERBOSE logs every term.
//
// The terms' cost is heavy-tailed (class 10's largest term takes 105 s,
// its median well under a second), so few samples underestimate: with 3 s
// a class, the heavy 2^6 classes came out 1.5 to 2.8 times low; with RATIO
// and 60 s, classes 21 and 32 came out +14 % and -11 % of their bundle
// times and class 37 (setup-bound) within 2 %. (Class 10's bundle time,
// 4,456 CPU-s, was taken with the full DP before the split-and-join
// kernel, about 4 to 5 times slower; 849 CPU-s projected now.)
//
// Survey of 2026-11-27 (3 s a class, then RATIO with 60 s on the 12 plain
// exchange classes and 20 s on the 31 other 2^6 classes above a minute):
// 479 classes project to 20.7 CPU-h, 16.8 of them the 12 classes of σ type
// 2^6 that exchange the stacks with ρ² = id (plain counts: 65, 98, 131, 87,
// 43 and 32 above an hour each, 12,100 to 4,300 CPU-s), 3.8 the 51 of σ
// type 2^6 that keep them (twisted), 0.07 the other 416. The other 9
// classes (142, 153, 164, 174, 175, 192, 1912, 1948, 1951) admit σ type
// 1^12 and do not fit in memory.
//
// Classes that admit the σ type 1^12 are not run unless listed: for them
// assignmentClasses keeps every equivariant assignment of 12 fixed symbols
// (of the order of 10^9) and passed 15 GB within minutes (class 142); their
// rows say "oom". STACKS_SURVEY_LEAVES counts the assignments per σ type
// without keeping them, STACKS_SURVEY_ORBITS the distinct pair-method
// orbits (package pair) among the plain terms of the swap classes.
//
// Columns: class, description, σ types, term classes per type, total term
// classes, setup CPU-s, sampled terms, measured CPU-s, projected CPU-s,
// bound ("=", ">=" or "oom"), kind (swap: κ exchanges the stacks; keep),
// stacks (plain: every stack count goes to pairstacks' kernel; twisted:
// every one to the twisted DP; mixed).
func TestSurvey2x6(t *testing.T) {
	out := os.Getenv("STACKS_SURVEY")
	if out == "" {
		t.Skip("exploratory: set STACKS_SURVEY=FILE.tsv")
	}
	envFloat := func(name string, def float64) float64 {
		if v := os.Getenv(name); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return f
		}
		return def
	}
	budget := envFloat("STACKS_SURVEY_SECONDS", 3)
	minTerms := int(envFloat("STACKS_SURVEY_MIN", 4))
	ratio := os.Getenv("STACKS_SURVEY_RATIO") != ""
	verbose := os.Getenv("STACKS_SURVEY_VERBOSE") != ""
	termCap := time.Duration(envFloat("STACKS_SURVEY_TERM_CAP", 60) * float64(time.Second))
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	var which []int
	if v := os.Getenv("STACKS_SURVEY_CLASSES"); v != "" {
		for _, f := range strings.Split(v, ",") {
			i, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			which = append(which, i)
		}
	} else {
		for _, c := range g.Classes[1:] {
			if len(search.SigmaTypes(s, c.Rep)) > 0 {
				which = append(which, c.Index)
			}
		}
		if len(which) != 488 {
			t.Errorf("%d classes admit a relabelling type, want 488", len(which))
		}
		// Cheapest setup first: assignmentClasses enumerates the
		// assignments, whose number grows with the number of cycles of σ.
		cycles := map[int]int{}
		for _, i := range which {
			for _, lam := range search.SigmaTypes(s, g.Classes[i].Rep) {
				cycles[i] = max(cycles[i], len(lam))
			}
		}
		slices.SortStableFunc(which, func(a, b int) int { return cycles[a] - cycles[b] })
	}
	if skip := os.Getenv("STACKS_SURVEY_SKIP"); skip != "" {
		data, err := os.ReadFile(skip)
		if err != nil {
			t.Fatal(err)
		}
		done := map[int]bool{}
		for _, line := range strings.Fields(string(data)) {
			if i, err := strconv.Atoi(line); err == nil {
				done[i] = true
			}
		}
		which = slices.DeleteFunc(which, func(i int) bool { return done[i] })
	}
	if os.Getenv("STACKS_SURVEY_ORBITS") != "" {
		// The plain terms are pair-method stack counts E(T): how many
		// distinct orbits of B_c (package pair) do they need?
		union := map[string]bool{}
		for _, i := range which {
			cl := g.Classes[i]
			p := newStackProblem(s.C, cl.Rep)
			if !p.swap {
				continue
			}
			mine := map[string]bool{}
			terms := 0
			for _, lam := range search.SigmaTypes(s, cl.Rep) {
				sigma := perm.WithCycleType(lam)
				if !plainCount(perm.Compose(sigma, sigma), perm.Compose(p.rho, p.rho), perm.Compose(p.k1, p.k0)) {
					continue
				}
				classes, err := p.assignmentClasses(lam)
				if err != nil {
					t.Fatal(err)
				}
				for _, tc := range classes {
					patterns := make([]uint8, len(tc.rows))
					for x, q := range tc.rows {
						for b := range s.C {
							patterns[x] |= uint8(q>>(2*b)&1) << b
						}
					}
					o, err := pair.NewOrbit(s.C, patterns)
					if err != nil {
						t.Fatal(err)
					}
					mine[o.String()] = true
					union[o.String()] = true
					terms++
				}
			}
			t.Logf("class %d (%s): %d plain terms, %d distinct pair orbits; %d in all so far", i, cl.Desc, terms, len(mine), len(union))
		}
		return
	}
	if os.Getenv("STACKS_SURVEY_LEAVES") != "" {
		for _, i := range which {
			var lams []string
			for _, lam := range search.SigmaTypes(s, g.Classes[i].Rep) {
				lams = append(lams, typeString(lam))
			}
			t.Logf("class %d (%s): σ types %s", i, g.Classes[i].Desc, strings.Join(lams, " "))
		}
		for _, i := range which {
			cl := g.Classes[i]
			p := newStackProblem(s.C, cl.Rep)
			for _, lam := range search.SigmaTypes(s, cl.Rep) {
				c0 := cpuSeconds(t)
				n := p.countLeaves(lam)
				t.Logf("class %d (%s): σ type %s: %d assignments (leaves), counted in %.1f CPU-s; %d band-map generators",
					i, cl.Desc, typeString(lam), n, cpuSeconds(t)-c0, len(p.gens))
			}
		}
		return
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintln(f, "class\tdesc\tsigma_types\tterm_classes_per_type\tterm_classes\tsetup_cpu_s\tsampled\tmeasured_cpu_s\tprojected_cpu_s\tbound\tkind\tstacks")
	var total float64
	for _, i := range which {
		cl, err := g.Class(i)
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("STACKS_SURVEY_CLASSES") == "" && hasIdentityType(search.SigmaTypes(s, cl.Rep)) {
			var lams []string
			for _, lam := range search.SigmaTypes(s, cl.Rep) {
				lams = append(lams, typeString(lam))
			}
			fmt.Fprintf(f, "%d\t%s\t%s\t\t\t\t\t\t\toom\t\t\n", i, cl.Desc, strings.Join(lams, " "))
			t.Logf("class %d (%s): not run (σ type 1^12: assignmentClasses would keep ~10^9 assignments)", i, cl.Desc)
			continue
		}
		setup0 := cpuSeconds(t)
		p := newStackProblem(s.C, cl.Rep)
		types := search.SigmaTypes(s, cl.Rep)
		var st []*surveyStratum
		nPlain, nTwisted := 0, 0
		for _, lam := range types {
			sigma := perm.WithCycleType(lam)
			classes, err := p.assignmentClasses(lam)
			if err != nil {
				t.Fatal(err)
			}
			x := &surveyStratum{sigma: sigma, classes: classes, order: vdcOrder(len(classes))}
			st = append(st, x)
			if p.swap {
				if plainCount(perm.Compose(sigma, sigma), perm.Compose(p.rho, p.rho), perm.Compose(p.k1, p.k0)) {
					if ratio {
						x.predict(s.C)
					}
					nPlain++
				} else {
					nTwisted++
				}
			} else {
				if ratio {
					x.predictTwisted(p)
				}
				for _, k := range [][]int{p.k0, p.k1} {
					if plainCount(sigma, p.rho, k) {
						nPlain++
					} else {
						nTwisted++
					}
				}
			}
		}
		setup := cpuSeconds(t) - setup0
		all := 0
		for _, x := range st {
			all += len(x.classes)
		}
		measured, sampled, capped := 0.0, 0, false
		for {
			// the stratum least sampled in proportion to its terms
			var next *surveyStratum
			for _, x := range st {
				if x.n == len(x.classes) {
					continue
				}
				if next == nil || float64(x.n)/float64(len(x.classes)) < float64(next.n)/float64(len(next.classes)) {
					next = x
				}
			}
			if next == nil {
				break
			}
			unsampledType := false
			for _, x := range st {
				if x.n == 0 && len(x.classes) > 0 {
					unsampledType = true
				}
			}
			if measured >= budget && sampled >= minTerms && !unsampledType {
				break
			}
			k := next.order[next.n]
			ctx, cancel := context.WithTimeout(context.Background(), termCap)
			c0 := cpuSeconds(t)
			_, err := p.term(ctx, next.sigma, next.classes[k].rows)
			d := cpuSeconds(t) - c0
			cancel()
			if errors.Is(err, context.DeadlineExceeded) {
				capped = true
			} else if err != nil {
				t.Fatal(err)
			}
			next.cpu += d
			next.ts = append(next.ts, d)
			if verbose {
				xk := 0.0
				if next.x != nil {
					xk = next.x[k]
				}
				t.Logf("class %d term %d: %.2f CPU-s, predictor %.3g, error %v", i, k, d, xk, err)
			}
			if next.x != nil {
				next.xs += next.x[k]
			}
			next.n++
			measured += d
			sampled++
		}
		projected := setup
		var lams, counts []string
		for j, x := range st {
			lams = append(lams, typeString(types[j]))
			counts = append(counts, strconv.Itoa(len(x.classes)))
			projected += x.estimate()
		}
		bound := "="
		if capped {
			bound = ">="
		}
		kind := "keep"
		if p.swap {
			kind = "swap"
		}
		stk := "mixed"
		switch {
		case nTwisted == 0:
			stk = "plain"
		case nPlain == 0:
			stk = "twisted"
		}
		total += projected
		fmt.Fprintf(f, "%d\t%s\t%s\t%s\t%d\t%.2f\t%d\t%.3f\t%.1f\t%s\t%s\t%s\n", i, cl.Desc, strings.Join(lams, " "), strings.Join(counts, " "),
			all, setup, sampled, measured, projected, bound, kind, stk)
		t.Logf("class %d (%s): setup %.2f CPU-s, %d/%d terms, %.2f CPU-s measured, %s%.1f CPU-s projected (%s, %s); total so far %.2f CPU-h",
			i, cl.Desc, setup, sampled, all, measured, bound, projected, kind, stk, total/3600)
	}
	t.Logf("total projected %.2f CPU-h over %d classes", total/3600, len(which))
}

// predict sets the cost predictor of the terms of a stratum whose stack
// counts are plain (pairstacks' split and join): the sum of the two halves'
// StateBound, roughly the sizes of the tables BuildHalf makes; and orders
// the terms by it, so that the van der Corput order samples every range of
// it (with the ratio estimator, cost = Σ x · Σ_sampled cpu / Σ_sampled x).
func (x *surveyStratum) predict(c int) {
	x.x = make([]float64, len(x.classes))
	for k, tc := range x.classes {
		patterns := make([]uint8, len(tc.rows))
		for i, q := range tc.rows {
			for b := range c {
				patterns[i] |= uint8(q>>(2*b)&1) << b
			}
		}
		first, second := pairstacks.Split(c, patterns, c)
		x.x[k] = float64(pairstacks.StateBound(c, first)) + float64(pairstacks.StateBound(c, second))
		x.xAll += x.x[k]
	}
	x.orderByX()
}

// predictTwisted sets the cost predictor of the terms of a stratum of a
// class that keeps the stacks: for the two twisted counts, the bound that
// cycleOrder minimises (Σ over the prefixes of the symbol cycles of
// Π_r C(c, d(r))), summed.
func (x *surveyStratum) predictTwisted(p *stackProblem) {
	x.x = make([]float64, len(x.classes))
	for k, tc := range x.classes {
		comp := make([]uint16, len(tc.rows))
		for i, q := range tc.rows {
			comp[i] = q ^ p.full
		}
		for j, rows := range [][]uint16{tc.rows, comp} {
			kappa := p.k0
			if j == 1 {
				kappa = p.k1
			}
			tw := newTwisted(p.c, rows, x.sigma, p.rho, kappa)
			if tw == nil {
				continue
			}
			var d [16]int
			for _, cy := range tw.symCycles {
				for _, y := range cy {
					for m := rows[y]; m != 0; m &= m - 1 {
						d[bits.TrailingZeros16(m)]++
					}
				}
				cost := 1.0
				for r := range 2 * p.c {
					cost *= float64(binomialU(p.c, min(d[r], p.c)))
				}
				x.x[k] += cost
			}
		}
		x.xAll += x.x[k]
	}
	x.orderByX()
}

// orderByX orders the terms for sampling by the predictor (see predict).
func (x *surveyStratum) orderByX() {
	byX := make([]int, len(x.classes))
	for k := range byX {
		byX[k] = k
	}
	slices.SortStableFunc(byX, func(a, b int) int { return cmp.Compare(x.x[a], x.x[b]) })
	// The top twentieth by x, largest first (the cost has a heavy tail),
	// alternating with the rest in van der Corput order of x.
	if os.Getenv("STACKS_SURVEY_FIT") == "" {
		x.top = 0
		vdc := vdcOrder(len(byX))
		for j, k := range vdc {
			x.order[j] = byX[k]
		}
		return
	}
	x.top = (len(byX) + 19) / 20
	rest := byX[:len(byX)-x.top]
	x.order = x.order[:0]
	vdc := vdcOrder(len(rest))
	for j := 0; j < x.top || j < len(rest); j++ {
		if j < x.top {
			x.order = append(x.order, byX[len(byX)-1-j])
		}
		if j < len(rest) {
			x.order = append(x.order, rest[vdc[j]])
		}
	}
}

// estimate is the stratum's projected CPU-s: the sampled terms as timed
// plus the others projected. Without a predictor, the others are the mean;
// with one, t = a·x^b fitted (least squares in logs) on the sampled terms,
// which come from the whole range of x and include its top (the cost grows
// faster than x: a ratio estimator would underestimate the heavy tail).
func (x *surveyStratum) estimate() float64 {
	if x.n == 0 {
		return 0
	}
	if x.n == len(x.classes) {
		return x.cpu
	}
	if x.x == nil {
		return x.cpu * float64(len(x.classes)) / float64(x.n)
	}
	if x.top == 0 {
		if x.xs > 0 {
			return x.cpu * x.xAll / x.xs
		}
		return x.cpu * float64(len(x.classes)) / float64(x.n)
	}
	var sx, sy, sxx, sxy, m float64
	for j, t := range x.ts {
		xv := x.x[x.order[j]]
		if xv <= 0 || t <= 1e-4 {
			continue
		}
		lx, ly := math.Log(xv), math.Log(t)
		sx, sy, sxx, sxy, m = sx+lx, sy+ly, sxx+lx*lx, sxy+lx*ly, m+1
	}
	if m < 3 || m*sxx-sx*sx <= 0 {
		if x.xs > 0 {
			return x.cpu * x.xAll / x.xs
		}
		return x.cpu * float64(len(x.classes)) / float64(x.n)
	}
	b := (m*sxy - sx*sy) / (m*sxx - sx*sx)
	a := (sy - b*sx) / m
	est := x.cpu
	for _, k := range x.order[x.n:] {
		if xv := x.x[k]; xv > 0 {
			est += math.Exp(a + b*math.Log(xv))
		}
	}
	return est
}

// surveyStratum is the terms of one σ type of a class in TestSurvey2x6.
type surveyStratum struct {
	sigma   []int
	classes []termClass
	order   []int     // the order in which terms are sampled
	cpu     float64   // CPU-s of the sampled terms
	n       int       // terms sampled
	x       []float64 // the cost predictor of each term, or nil
	xAll    float64   // Σ x
	xs      float64   // Σ x over the sampled terms
	top     int       // the terms of largest x, sampled first
	ts      []float64 // the CPU-s of the sampled terms, order[:n]
}

// hasIdentityType reports whether the σ types include 1^n.
func hasIdentityType(types [][]int) bool {
	for _, lam := range types {
		if slices.Max(lam) == 1 {
			return true
		}
	}
	return false
}

// plainCount reports whether stackCount hands (τ, ρ', κ') to pairstacks.
func plainCount(tau, rho, kappa []int) bool {
	return perm.IsIdentity(tau) && perm.IsIdentity(rho) && perm.IsIdentity(kappa)
}

// typeString writes a cycle type as 1^a 2^b … without spaces, e.g. 1^4.2^4.
func typeString(lam []int) string {
	count := map[int]int{}
	for _, l := range lam {
		count[l]++
	}
	var ls []int
	for l := range count {
		ls = append(ls, l)
	}
	sort.Ints(ls)
	var parts []string
	for _, l := range ls {
		parts = append(parts, fmt.Sprintf("%d^%d", l, count[l]))
	}
	return strings.Join(parts, ".")
}

// vdcOrder returns 0…n-1 in van der Corput order: the indices ⌊v·n⌋ for
// the base-2 radical inverses v of 0, 1, 2, …, each once, then the rest in
// increasing order, so that every prefix is spread over 0…n-1.
func vdcOrder(n int) []int {
	seen := make([]bool, n)
	var order []int
	for i := 0; len(order) < n && i < 4*n+64; i++ {
		v, b := 0.0, 0.5
		for x := i; x > 0; x >>= 1 {
			if x&1 == 1 {
				v += b
			}
			b /= 2
		}
		k := int(v * float64(n))
		if k < n && !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	for k := range n {
		if !seen[k] {
			order = append(order, k)
		}
	}
	if len(order) != n || len(slices.Compact(slices.Sorted(slices.Values(order)))) != n {
		panic("vdcOrder")
	}
	return order
}

// countLeaves is the number of assignments (leaves) assignmentClasses lists
// for σ type lam, by the same recursion without keeping them.
func (p *stackProblem) countLeaves(lam []int) int64 {
	var starts []int
	at := 0
	for _, l := range lam {
		starts = append(starts, at)
		at += l
	}
	var reps []uint16
	for _, q := range p.valid {
		if p.orbitRep[q] == q {
			reps = append(reps, q)
		}
	}
	slices.Sort(reps)
	rows := make([]uint16, p.n)
	chosen := make([]int, len(lam))
	var count [16]int
	var leaves int64
	var rec func(j int)
	rec = func(j int) {
		if j == len(lam) {
			leaves++
			return
		}
		l := lam[j]
		from := 0
		if j > 0 && lam[j-1] == l {
			from = chosen[j-1]
		}
		for ri := from; ri < len(reps); ri++ {
			q := reps[ri]
			if l%p.orbitLen[q] != 0 {
				continue
			}
			ok := true
			y := q
			for k := range l {
				rows[starts[j]+k] = y
				for m := y; m != 0; m &= m - 1 {
					r := bits.TrailingZeros16(m)
					count[r]++
					if count[r] > p.c {
						ok = false
					}
				}
				y = p.hat[y]
			}
			if ok {
				chosen[j] = ri
				rec(j + 1)
			}
			for k := range l {
				for m := rows[starts[j]+k]; m != 0; m &= m - 1 {
					count[bits.TrailingZeros16(m)]--
				}
			}
		}
	}
	rec(0)
	return leaves
}
