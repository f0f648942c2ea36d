// Package msg shapes what the pipeline's packages put in an error message
// or a log line: one line of text, a short digest, a system error without
// the path the message already names.
package msg

import (
	"os"
	"strings"
)

// OneLine joins the lines of s, and collapses its runs of white space, into
// one line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// PathErr returns the system's error inside a *os.PathError, for a message
// that names the path itself; any other error as it is.
func PathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Short is the first twelve characters of a hex digest, for messages and
// citation keys.
func Short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}
