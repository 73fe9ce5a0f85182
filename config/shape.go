package config

import "fmt"

// Bounds on every TOML file evdesk reads, checked before the TOML decoder
// sees it. The decoder's time and memory grow with the square of a key's
// length, with the depth of nesting and, steeply, with the number of keys
// and values: a 20 KB key of 10,000 dotted parts costs it 2 GB, a megabyte
// of '[' a gigabyte, and a megabyte of 25,000 keys of 16 parts 7 s and
// 600 MB. evdesk's own keys have at most five parts (profiles.NAME.field;
// expect."a.b.c".one_of) and its values nest at most two levels.
const (
	// MaxFileSize is the largest config file evdesk reads.
	MaxFileSize = 1 << 20
	// maxNesting bounds arrays and inline tables inside one another.
	maxNesting = 8
	// maxKeyParts bounds the dotted parts of one key or table header.
	maxKeyParts = 6
	// maxKeyLen bounds one key or table header in bytes: the decoder
	// copies a key for each of its parts, and again for each value under it.
	maxKeyLen = 256
)

// TOMLLimits are the size and count bounds of one kind of TOML file.
type TOMLLimits struct {
	// What names the kind of file in messages ("config file").
	What string
	// MaxBytes bounds the file's size.
	MaxBytes int
	// MaxEntries bounds the keys, table headers and array elements
	// together: the decoder's cost grows with them.
	MaxEntries int
}

// ConfigLimits bound config.toml: a profile has about fifteen settings.
var ConfigLimits = TOMLLimits{What: "config file", MaxBytes: MaxFileSize, MaxEntries: 2000}

// tooLarge is the error for a file over MaxFileSize.
func tooLarge(path string) error { return ConfigLimits.tooLarge(path) }

// tooLarge is the error for a file over the limits' size.
func (l TOMLLimits) tooLarge(path string) error {
	return &FileError{File: path, Msg: fmt.Sprintf("the file is over %s, the most a %s may hold: is it the right file?", sizeWords(l.MaxBytes), l.What)}
}

// sizeWords writes a byte count in MiB or KiB when it is a whole number of
// them.
func sizeWords(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// checkShape refuses TOML nested deeper than maxNesting, with a key of
// more than maxKeyParts parts, or with more than maxEntries keys, table
// headers and array elements. It follows strings and comments so that
// brackets, dots and commas inside them do not count; anything else
// malformed is left to the decoder to report.
func checkShape(path string, src []byte, maxEntries int) error {
	var (
		line    = 1
		nest    []byte // '[' and '{' of open values
		inKey   = true // reading a key (line start, table header, inline table)
		parts   = 1
		entries = 0
		keyLen  = 0 // bytes of the key being read, quotes and spaces included
		bad     = func(msg string) error { return &FileError{File: path, Line: line, Msg: msg} }
		inline  = func() bool { return len(nest) > 0 && nest[len(nest)-1] == '{' }
		count   = func() error {
			if entries++; entries > maxEntries {
				return bad(fmt.Sprintf("more than %d keys and values: far more than evdesk reads from such a file", maxEntries))
			}
			return nil
		}
	)
	for i := 0; i < len(src); i++ {
		start := i
		switch c := src[i]; {
		case c == '\n':
			line++
			if len(nest) == 0 {
				inKey, parts, keyLen = true, 1, 0
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
			if err := count(); err != nil { // each part costs the decoder as much as a key
				return err
			}
			if parts++; parts > maxKeyParts {
				return bad(fmt.Sprintf("a key with more than %d dotted parts (evdesk's keys have at most 5, such as profiles.NAME.base_url)", maxKeyParts))
			}
		case inKey && c == '=':
			inKey = false
			if err := count(); err != nil {
				return err
			}
		case inKey && c == '[' && len(nest) == 0: // a table header: its name is a key
			if err := count(); err != nil {
				return err
			}
		case c == '[' || c == '{':
			if nest = append(nest, c); len(nest) > maxNesting {
				return bad(fmt.Sprintf("values nested more than %d deep (evdesk's settings nest at most 2 deep, such as scopes = [\"a\", \"b\"])", maxNesting))
			}
			inKey, parts, keyLen = c == '{', 1, 0
			if c == '[' { // the first element
				if err := count(); err != nil {
					return err
				}
			}
		case (c == ']' || c == '}') && len(nest) > 0:
			nest, inKey = nest[:len(nest)-1], false
		case c == ',' && inline():
			inKey, parts, keyLen = true, 1, 0
		case c == ',' && len(nest) > 0: // the next element of an array
			if err := count(); err != nil {
				return err
			}
		}
		if inKey {
			if keyLen += i - start + 1; keyLen > maxKeyLen {
				return bad(fmt.Sprintf("a key longer than %d bytes (evdesk's keys are short, such as profiles.NAME.base_url)", maxKeyLen))
			}
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
