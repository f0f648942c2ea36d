// Package paper is the stage that builds the paper, paper/main.pdf, with
// latexmk -pdf from its hand-written text and the generated parts: the
// report stage's TeX and the figures stage's PDFs. It requires report and
// figures. The PDF is an artifact like the others: in the manifest and the
// locks, checked by `census verify`.
//
// # Sources and tools
//
// paper/main.tex, paper/references.bib and CITATION.cff are the stage's
// sources (Sources; release.go): their SHA-256 enters its fingerprint, so
// editing one makes it stale. Before LaTeX runs, the stage writes
// paper/generated/release.tex into its build directory: \ReleaseVersion and
// \ReleaseDate from CITATION.cff's version and date-released (read by
// pipeline.ReadCitation; a malformed file fails the stage naming the key and
// value) for the title page; \ReleaseRepository (repository-code, the
// public address census cite gives, set by \url; an address with characters
// \url cannot take verbatim is refused) and \ReleaseTag (v<version>, the
// release's git tag), and \GoVersion, \PdfTeXVersion, \BibTeXVersion and
// \LatexmkVersion for the reproducibility section. The Go release that
// built census and the first line of `latexmk --version`, `pdflatex
// --version` and `bibtex --version` (the stage's tools, Stage.Tools) enter
// its fingerprint and the manifest, so another Go or TeX makes it stale and a
// lock made with another says so by the paper's fingerprint. The git commit
// is not printed in the paper (its bytes must not depend on it; `census
// cite` and the manifest give it).
//
// # Reproducible bytes
//
// The build runs in a fresh temporary directory with FORCE_SOURCE_DATE=1
// and SOURCE_DATE_EPOCH set to the release date of CITATION.cff
// (date-released, midnight UTC), which becomes the PDF's CreationDate and
// ModDate, so a new release date rebuilds the PDF (tested with pdfinfo), and
// main.tex empties the PDF trailer ID, so the same inputs give the same
// bytes (tested, and CI rebuilds it and checks the smoke lock); its metadata
// holds the title and author.
//
// # Failures and skipping
//
// The stage fails on any LaTeX error; on any undefined reference, citation
// or control sequence in the logs; and on content beyond the text area (an
// overfull \vbox, a float too large for its page, a line more than 2 pt too
// wide: a figure that runs off its page lost its caption once). Generated
// tables are set by main.tex's \fittable, scaled down to the text width and
// 0.8 of its height when a configuration's numbers make them larger.
//
// # Layout
//
// The body (title page to the Conclusion) holds what the results need; the
// detail is in appendices after the references. After LaTeX the stage
// reads main.aux (package auxcheck) and fails, with one line naming the
// problem and its page or table, when the layout breaks a rule of issue 51:
//
//   - The body is over 14 pages (maxBodyPages). Its pages are counted to the
//     page of \label{census:bodyend}, which ends the Conclusion; the
//     bibliography starts on the next page (\clearpage).
//   - A table or figure of the body is printed on a later page than
//     census:bodyend. main.tex's \FloatBarrier before the Conclusion prints
//     the floats still waiting. Floats whose labels follow
//     \label{census:appendix} (after \appendix) in main.aux, on its page or
//     later, are the appendices' and exempt. A float is a label with a
//     table. or figure. anchor (hyperref), or named tab: or fig:.
//   - A table or figure is never referred to in the text, or is printed on
//     an earlier page than its first reference. main.tex's \ref, outside
//     floats, writes \censusref{label}{page} when its page ships out.
//   - A table is set below 8 pt (minTableFontPt): \fittable (and, for a
//     longtable, \longtableinput, at scale 1) writes
//     \censustablescale{name}{scale}{font size} for each generated table,
//     and scale times size must reach 8 pt. A table too wide turns sideways
//     (sidewaystable) and one longer than a page is a longtable (the
//     report stage writes it with its head repeated on every page), in an
//     appendix if the body cannot spare the page.
//
// Its tests check these rules on small .aux texts, that every figure
// drawn from data that main.tex includes has its caption in pdftotext's
// output, that every references.bib entry is cited and that no citation
// names a local path.
//
// Without latexmk the stage skips itself (pipeline.Skip: one warning line,
// nothing published, it stays stale, the run succeeds), except under
// CI=true, where it fails. `make tex` (paper/install-tex.sh, also run by
// `make all`) installs Debian's latexmk texlive-latex-base
// texlive-latex-recommended texlive-fonts-recommended poppler-utils
// (pdftotext and pdfinfo, for the paper's tests) as root, and otherwise
// prints that command.
//
// # Artifact
//
// paper/main.pdf, the paper. `make paper` (or `bin/census run paper`)
// rebuilds it alone.
//
// # Configuration
//
// None.
//
// # Cost
//
// 2 s within `make all` from a fresh clone (the project's 2-core
// machine).
package paper
