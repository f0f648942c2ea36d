#!/bin/sh
# Installs the TeX the paper stage needs (latexmk and the LaTeX packages
# paper/main.tex uses, and poppler-utils, whose pdftotext its tests read the
# paper with), when latexmk is missing: as root with apt-get it
# installs Debian's packages, saying so in one line; otherwise it prints the
# one-line install command and succeeds, and the paper stage skips itself
# (every other artifact is still built).
set -eu
packages="latexmk texlive-latex-base texlive-latex-recommended texlive-fonts-recommended poppler-utils"
command -v latexmk >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "paper: latexmk not found; installing TeX from Debian packages: $packages"
	apt-get update -qq >/dev/null &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages >/dev/null ||
		{ echo "paper: installing TeX failed (apt-get install -y $packages)" >&2; exit 1; }
	exit 0
fi
echo "paper: latexmk not found, the paper will be skipped (install: sudo apt-get install -y $packages)"
