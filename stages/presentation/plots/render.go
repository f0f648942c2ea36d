package plots

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// PNGDPI is the resolution of the PNG copies: sharp in a browser without
// making the files large.
const PNGDPI = 150

// pdfEpoch is the creation and modification date written into every PDF.
// vgpdf's backend (fpdf) otherwise stamps the wall-clock time, and the same
// inputs must give the same bytes.
var pdfEpoch = time.Unix(0, 0).UTC()

var reproduciblePDF sync.Once

// Encoded is one figure in both formats.
type Encoded struct {
	PDF, PNG []byte
}

// Render draws a figure of size w×h twice, as PDF and as PNG. paint
// draws onto the whole canvas it is given.
func Render(w, h vg.Length, paint func(dc draw.Canvas)) (Encoded, error) {
	reproduciblePDF.Do(func() {
		fpdf.SetDefaultCreationDate(pdfEpoch)
		fpdf.SetDefaultModificationDate(pdfEpoch)
		fpdf.SetDefaultCatalogSort(true) // resources in a fixed order
	})
	var enc Encoded

	pc := vgpdf.New(w, h)
	paint(draw.New(cp1252Canvas{pc}))
	var pdf bytes.Buffer
	if _, err := pc.WriteTo(&pdf); err != nil {
		return enc, fmt.Errorf("encode PDF: %w", err)
	}
	enc.PDF = pdf.Bytes()

	ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))
	paint(draw.New(ic))
	var png bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&png); err != nil {
		return enc, fmt.Errorf("encode PNG: %w", err)
	}
	enc.PNG = png.Bytes()
	return enc, nil
}

// cp1252Canvas passes text to the PDF backend in Windows-1252, the only
// encoding its embedded fonts are set up for: vgpdf hands Go's UTF-8
// strings through unchanged, which garbles every non-ASCII character.
// Characters outside Windows-1252 (there are none in these figures) print
// as "?".
type cp1252Canvas struct{ *vgpdf.Canvas }

func (c cp1252Canvas) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, toCP1252(s))
}

func toCP1252(s string) string {
	enc := charmap.Windows1252.NewEncoder()
	b := make([]byte, 0, len(s))
	for _, r := range s {
		out, err := enc.String(string(r))
		if err != nil {
			out = "?"
		}
		b = append(b, out...)
	}
	return string(b)
}
