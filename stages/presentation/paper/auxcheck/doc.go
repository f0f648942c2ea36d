// Package auxcheck reads the paper's main.aux, the labels with their pages
// and the scale of each generated table that main.tex's \fittable and
// \longtableinput write,
// and checks the layout rules of issue 51 on it: the body's length, no
// float of the body after the Conclusion, no table set below a font size.
// The paper stage runs it after LaTeX and sets the limits; its doc says
// what main.tex must mark.
package auxcheck
