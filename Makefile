# sudoku-census: `make all` regenerates every artifact, figure and the paper;
# `make test` runs the test suite. CONFIG picks the configuration.
GO      ?= go
CENSUS  := bin/census
CONFIG  ?= configs/default.yaml
# make all then recomputes RECOMPUTE units of every committed result bundle
# (data/bundles), drawn at random among those that took at most 30 CPU-s,
# and compares them byte for byte; 0 skips it (the smoke run does).
RECOMPUTE ?= 1
STAGES  := bands reduce classes exact shapes symmetry kilfoil knuth importance figures report paper htmlreport

.PHONY: all build test bench status verify clean tex smoke $(STAGES)

# The paper stage needs TeX: install-tex.sh installs it as root with
# apt-get, and otherwise says how (the paper stage then skips itself).
all: build
	@./paper/install-tex.sh
	$(CENSUS) run --config $(CONFIG)
ifneq ($(RECOMPUTE),0)
	$(CENSUS) verify --config $(CONFIG) --recompute $(RECOMPUTE) --max-unit-cpu 30s
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
	$(GO) test -race -short ./...
	$(GO) test ./...

# One iteration of every benchmark, as a smoke test of the benchmarks; for
# real figures run e.g. `go test -run '^$$' -bench . -count 5 ./stages/exact`.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

# One target per stage: brings that stage (and what it needs) up to date.
$(STAGES): build
	$(CENSUS) run --config $(CONFIG) $@

status: build
	$(CENSUS) status --config $(CONFIG)

verify: build
	$(CENSUS) verify --config $(CONFIG)

# The whole chain with the small configuration, as CI runs it.
smoke:
	$(MAKE) all CONFIG=configs/smoke.yaml RECOMPUTE=0

clean:
	rm -rf bin data paper/generated
	rm -f figures/*.pdf # the PNGs of the paper's run are committed: make all rewrites them
	cd paper && rm -f main.pdf report.html *.aux *.log *.out *.fls *.fdb_latexmk *.bbl *.blg *.toc
