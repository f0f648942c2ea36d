package figures

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pngDPI is the resolution of the PNG copies: sharp in a browser without
// making the files large.
const pngDPI = 150

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
	paint(draw.New(pc))
	var pdf bytes.Buffer
	if _, err := pc.WriteTo(&pdf); err != nil {
		return enc, fmt.Errorf("encode PDF: %w", err)
	}
	enc.PDF = pdf.Bytes()

	ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))
	paint(draw.New(ic))
	var png bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&png); err != nil {
		return enc, fmt.Errorf("encode PNG: %w", err)
	}
	enc.PNG = png.Bytes()
	return enc, nil
}
