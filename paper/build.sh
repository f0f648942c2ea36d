#!/bin/sh
# Builds paper/main.pdf from main.tex and the generated parts (run the
# report stage first: `make paper`). Fails on any LaTeX error, undefined
# reference, citation or control sequence. Without latexmk it installs TeX
# when it runs as root with apt-get (saying so in one line); otherwise it
# prints how to install TeX and succeeds, except under CI=true, where the PDF
# is required. The same inputs give a byte-identical PDF.
set -eu
cd "$(dirname "$0")"

packages="latexmk texlive-latex-base texlive-latex-recommended texlive-fonts-recommended"
if ! command -v latexmk >/dev/null 2>&1; then
	# Set-up in one command: root on Debian or Ubuntu installs TeX here.
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "paper: latexmk not found; installing TeX from Debian packages: $packages"
		apt-get update -qq >/dev/null &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages >/dev/null ||
			{ echo "paper: installing TeX failed (apt-get install -y $packages)" >&2; exit 1; }
	elif [ "${CI:-}" = "true" ]; then
		echo "paper: latexmk not found; CI must build the PDF (apt-get install -y $packages)" >&2
		exit 1
	else
		echo "paper: skipped, latexmk not found (install: sudo apt-get install -y $packages)"
		exit 0
	fi
fi
# Reproducible PDF: the dates come from SOURCE_DATE_EPOCH (the Unix epoch
# unless the caller sets it), so the same inputs give the same bytes.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-0}"
export FORCE_SOURCE_DATE=1
if [ ! -f generated/numbers.tex ]; then
	echo "paper: generated/numbers.tex is missing: run the report stage first (make report)" >&2
	exit 1
fi

latexmk -pdf -interaction=nonstopmode -halt-on-error -file-line-error main.tex >build-latexmk.log 2>&1 || {
	grep -E -A3 '^[^:]+:[0-9]+:|^! ' main.log build-latexmk.log 2>/dev/null | head -40 >&2 || tail -40 build-latexmk.log >&2
	echo "paper: LaTeX failed (full output in paper/build-latexmk.log)" >&2
	exit 1
}
# latexmk succeeds with undefined references or citations; the paper may not.
if grep -E -i "undefined|Reference .* on page .* undefined|There were undefined|Citation .* undefined" main.log main.blg 2>/dev/null; then
	echo "paper: undefined references, citations or macros (see paper/main.log)" >&2
	exit 1
fi
echo "paper: built paper/main.pdf"
