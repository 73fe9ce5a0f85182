package config

import "fmt"

// Bounds on a config file, checked before the TOML decoder sees it. The
// decoder's time and memory grow with the square of a key's length and the
// depth of nesting: a 20 KB key of 10,000 dotted parts costs it 2 GB, a
// megabyte of '[' a gigabyte. evdesk's own keys have three parts
// (profiles.NAME.field) and its values nest one level (scopes).
const (
	// MaxFileSize is the largest config file evdesk reads.
	MaxFileSize = 1 << 20
	// maxNesting bounds arrays and inline tables inside one another.
	maxNesting = 16
	// maxKeyParts bounds the dotted parts of one key or table header.
	maxKeyParts = 16
)

// tooLarge is the error for a file over MaxFileSize.
func tooLarge(path string) error {
	return &FileError{File: path, Msg: fmt.Sprintf("the file is over %d MiB, the most a config file may hold: is it the right file?", MaxFileSize>>20)}
}

// checkShape refuses TOML nested deeper than maxNesting or with a key of
// more than maxKeyParts parts. It follows strings and comments so that
// brackets and dots inside them do not count; anything else malformed is
// left to the decoder to report.
func checkShape(path string, src []byte) error {
	var (
		line   = 1
		nest   []byte // '[' and '{' of open values
		inKey  = true // reading a key (line start, table header, inline table)
		parts  = 1
		bad    = func(msg string) error { return &FileError{File: path, Line: line, Msg: msg} }
		inline = func() bool { return len(nest) > 0 && nest[len(nest)-1] == '{' }
	)
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			line++
			if len(nest) == 0 {
				inKey, parts = true, 1
			}
		case c == '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			end, newlines, ok := skipString(src, i)
			if !ok {
				return nil // unterminated: the decoder says where
			}
			i, line = end, line+newlines
		case inKey && c == '.':
			if parts++; parts > maxKeyParts {
				return bad(fmt.Sprintf("a key with more than %d dotted parts (evdesk's keys have 3, such as profiles.NAME.base_url)", maxKeyParts))
			}
		case inKey && c == '=':
			inKey = false
		case inKey && c == '[' && len(nest) == 0: // a table header: its name is a key
		case c == '[' || c == '{':
			if nest = append(nest, c); len(nest) > maxNesting {
				return bad(fmt.Sprintf("values nested more than %d deep (evdesk's settings nest at most 1 deep, such as scopes = [\"a\", \"b\"])", maxNesting))
			}
			inKey, parts = c == '{', 1
		case (c == ']' || c == '}') && len(nest) > 0:
			nest, inKey = nest[:len(nest)-1], false
		case c == ',' && inline():
			inKey, parts = true, 1
		}
	}
	return nil
}

// skipString returns the index of the last byte of the TOML string that
// starts at src[i] (basic or literal, single- or multi-line) and the
// newlines inside it; ok is false when it never ends.
func skipString(src []byte, i int) (end, newlines int, ok bool) {
	q := src[i]
	width := 1
	if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		width = 3
	}
	for j := i + width; j < len(src); j++ {
		switch {
		case src[j] == '\\' && q == '"':
			j++ // skip the escaped byte
			if j < len(src) && src[j] == '\n' {
				newlines++
			}
		case src[j] == '\n':
			if width == 1 {
				return 0, 0, false
			}
			newlines++
		case src[j] == q && (width == 1 || (j+2 < len(src) && src[j+1] == q && src[j+2] == q)):
			end = j + width - 1
			for end+1 < len(src) && src[end+1] == q && width == 3 { // """a"""" ends on the last quote
				end++
			}
			return end, newlines, true
		}
	}
	return 0, 0, false
}
