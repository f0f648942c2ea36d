package classes

// Fixture gives the external tests the 36,288 reduced bands and their
// classes.
var Fixture = fixture
