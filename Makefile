# sudoku-census: `make all` regenerates every artifact, figure and the paper;
# `make test` runs the test suite. CONFIG picks the configuration.
GO      ?= go
CENSUS  := bin/census
CONFIG  ?= configs/default.yaml
# ROOT is the project root the run writes below (data/, figures/, paper/).
ROOT    ?= .
# The smoke run has a root of its own, so that it never overwrites the
# paper's committed figures (figures/*.png) or data/; it gets a copy of the
# hand-written sources the stages read (a test checks this list against
# the stages' Sources).
SMOKE_ROOT    := build/smoke
SMOKE_SOURCES := paper/main.tex paper/references.bib CITATION.cff
# make all then recomputes units of every committed result bundle
# (data/bundles) and compares them byte for byte (RECOMPUTE=0 skips it, as
# the smoke run does): of K units, the costliest half within the bound and
# one per cost stratum of the rest. When each unit is bad with probability
# 1/100, independently, the K checked are all good with probability 0.99^K:
# K = 69 catches a bad one with probability 1 - 0.99^69 = 0.5002 (bad units
# chosen to share one cost stratum would do better against the strata; the
# lock, not the draw, is what stops an edit after the commit). In about 2.5
# CPU-minutes (projected):
#   symmetry-12: K = 69 within 1 s (7,241 units, mean 0.24 s): 35×1 + 34×0.24 ≈ 43 s;
#   shapes-2x6:  K = 16 within 4 s (projected, 480 units): ≤ 64 s, P = 0.15,
#                plus about 30 s planning the 63,199 orbits;
#   knuth-long:  K = 1 within 15 s (its 25 cheapest units take 12–15 s);
#   symmetry-checks: K = 2 within 10 s (the second counts of issue 47).
# The 2x6 and long-run units cost too much for 69 of each in that time:
# the lock pins every bundle's bytes, and `census verify --recompute all`
# recomputes everything (the bundles' CPU-days, on this machine).
RECOMPUTE ?= 1
STAGES  := bands reduce classes exact shapes symmetry kilfoil knuth importance figures report paper htmlreport

.PHONY: all build test bench status verify clean tex smoke $(STAGES)

# The paper stage needs TeX: install-tex.sh installs it as root with
# apt-get, and otherwise says how (the paper stage then skips itself).
all: build
	@./paper/install-tex.sh
	$(CENSUS) --root $(ROOT) run --config $(CONFIG)
ifneq ($(RECOMPUTE),0)
	$(CENSUS) --root $(ROOT) verify --config $(CONFIG) --recompute 69 --max-unit-cpu 1s --bundle symmetry-12
	$(CENSUS) --root $(ROOT) verify --config $(CONFIG) --recompute 16 --max-unit-cpu 4s --bundle shapes-2x6
	$(CENSUS) --root $(ROOT) verify --config $(CONFIG) --recompute 1 --max-unit-cpu 15s --bundle knuth-long
	$(CENSUS) --root $(ROOT) verify --config $(CONFIG) --recompute 2 --max-unit-cpu 10s --bundle symmetry-checks
endif

tex:
	./paper/install-tex.sh

build:
	$(GO) build -buildvcs=auto -o $(CENSUS) ./pipeline/cmd/census # -buildvcs: the commit goes into the manifest (census cite)

# Every package's tests run under the race detector (-short leaves out the
# whole-pipeline runs, which the race detector makes ten times slower), then
# once more in full without it: the stages' tests check every count the
# literature gives.
test:
	$(GO) vet ./...
	$(GO) test -timeout 40m -race -short ./...
	$(GO) test -timeout 40m ./...

# One iteration of every benchmark, as a smoke test of the benchmarks; for
# real figures run e.g. `go test -run '^$$' -bench . -count 5 ./stages/exact`.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

# One target per stage: brings that stage (and what it needs) up to date.
$(STAGES): build
	$(CENSUS) --root $(ROOT) run --config $(CONFIG) $@

status: build
	$(CENSUS) --root $(ROOT) status --config $(CONFIG)

verify: build
	$(CENSUS) --root $(ROOT) verify --config $(CONFIG)

# The whole chain with the small configuration, as CI runs it, below
# build/smoke (its paper: build/smoke/paper/main.pdf).
smoke:
	mkdir -p $(SMOKE_ROOT)
	cp --parents $(SMOKE_SOURCES) $(SMOKE_ROOT)/
	$(MAKE) all CONFIG=configs/smoke.yaml RECOMPUTE=0 ROOT=$(SMOKE_ROOT)

# clean spares data/bundles/ (the committed results, CPU-days of work):
# it removes everything else below data/.
clean:
	rm -rf bin build paper/generated
	if [ -d data ]; then find data -mindepth 1 -maxdepth 1 ! -name bundles -exec rm -rf {} +; fi
	rm -f figures/*.pdf # the PNGs of the paper's run are committed: make all rewrites them
	cd paper && rm -f main.pdf report.html *.aux *.log *.out *.fls *.fdb_latexmk *.bbl *.blg *.toc
