package bands

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// Stage writes data/bands.parquet.
var Stage = &pipeline.Stage{
	Name:    "bands",
	Doc:     "every top band with B1 = 123/456/789 (2,612,736)",
	Version: 1,
	Outputs: []pipeline.Output{Table.Output},
	Run:     run,
}

// Table is data/bands.parquet.
var Table = pipeline.NewTable[Row]("bands",
	"one row per band with B1 = 123/456/789, in dictionary order of its 27 digits")

// Row is one band. Rows are strings of nine digits; top_row_case numbers
// the choice of B2's top-row digits among the 20 three-digit subsets of
// {4,...,9} in dictionary order ({4,5,6} = 1, {4,5,7} = 2, ..., {7,8,9} =
// 20); cases 1 and 20 are pure.
type Row struct {
	Row1       string `parquet:"row1,dict"`
	Row2       string `parquet:"row2"`
	Row3       string `parquet:"row3"`
	TopRowCase int32  `parquet:"top_row_case"`
	Kind       string `parquet:"kind,dict"`
}

// RowOf returns the row of band b, which must be valid with canonical B1.
func RowOf(b sudoku.Band) Row {
	rows := b.Rows()
	c := b.TopRowCase()
	return Row{Row1: rows[0], Row2: rows[1], Row3: rows[2], TopRowCase: int32(c), Kind: sudoku.Kind(c)}
}

// Band parses the row's band and checks it is valid with canonical B1.
func (r Row) Band() (sudoku.Band, error) {
	b, err := sudoku.ParseBand(r.Row1, r.Row2, r.Row3)
	if err != nil {
		return b, err
	}
	if !b.HasCanonicalB1() {
		return b, fmt.Errorf("band %s: B1 is not 123/456/789", b)
	}
	return b, nil
}

// Rows returns the table: every band with canonical B1, in dictionary
// order.
func Rows() []Row {
	// All digits go into one string and the rows are substrings of it:
	// one allocation instead of three per band.
	buf := make([]byte, 0, 27*sudoku.BandCount)
	var cases []int32
	for b := range sudoku.AllBands() {
		for r := range 3 {
			for c := range 9 {
				buf = append(buf, '0'+b[r][c])
			}
		}
		cases = append(cases, int32(b.TopRowCase()))
	}
	digits := string(buf)
	rows := make([]Row, len(cases))
	for i, c := range cases {
		d := digits[27*i : 27*i+27]
		rows[i] = Row{Row1: d[:9], Row2: d[9:18], Row3: d[18:], TopRowCase: c, Kind: sudoku.Kind(int(c))}
	}
	return rows
}

func run(p *pipeline.Pass) error {
	rows := Rows()
	perCase := make(map[int32]int)
	for _, r := range rows {
		perCase[r.TopRowCase]++
	}
	if len(rows) != sudoku.BandCount || len(perCase) != sudoku.TopRowCases {
		return fmt.Errorf("bands: enumerated %d bands in %d top-row cases, want %d in %d",
			len(rows), len(perCase), sudoku.BandCount, sudoku.TopRowCases)
	}
	for c, n := range perCase {
		if n != sudoku.CaseBands(int(c)) {
			return fmt.Errorf("bands: top-row case %d has %d bands, want %d", c, n, sudoku.CaseBands(int(c)))
		}
	}
	p.Log.Info("bands enumerated", "bands", len(rows))
	return Table.Write(p, rows)
}
