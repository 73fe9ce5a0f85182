// Package tiernames keeps the names a user gives to sponsor tiers. The
// events API knows a tier by its id only and lists no tiers with names, so
// evdesk keeps a small file, tiers.toml in its config directory, mapping
// each tier id to a name that the console and the CLI show instead of the
// id.
package tiernames

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/sanitize"
)

const (
	// FileName is the file's name inside config.Dir().
	FileName = "tiers.toml"
	// MaxFileSize bounds the file: an event has a handful of tiers, and a
	// bigger file is not one evdesk wrote.
	MaxFileSize = 64 << 10
	// MaxNameLen is the longest name, in characters: it has to fit a
	// table column and a heading.
	MaxNameLen = 40
	// MaxIDLen is the longest tier id accepted (the API's are 22).
	MaxIDLen = 100
)

// Path is where the names live: $XDG_CONFIG_HOME/evdesk/tiers.toml (read
// at call time, like config.Dir).
func Path() string { return filepath.Join(config.Dir(), FileName) }

// Names maps a tier id to the name the user gave it.
type Names map[string]string

// Name is the name of tier id, or "" when it has none.
func (n Names) Name(id string) string { return n[id] }

// Label is the name of tier id, or the id itself when it has none.
func (n Names) Label(id string) string {
	if name := n[id]; name != "" {
		return name
	}
	return id
}

// CheckName says what is wrong with a tier name, or nil.
func CheckName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("tier name is empty: give the tier a name such as Gold (or clear the name instead)")
	case !oneLine(name):
		return errors.New("tier name must be one line of printable text (no line breaks, tabs, control characters or escape sequences)")
	case utf8.RuneCountInString(name) > MaxNameLen:
		return fmt.Errorf("tier name is %d characters long: at most %d fit the tables", utf8.RuneCountInString(name), MaxNameLen)
	}
	return nil
}

// CheckID says what is wrong with a tier id, or nil.
func CheckID(id string) error {
	switch {
	case strings.TrimSpace(id) == "":
		return errors.New("tier id is empty: give the id an exhibitor's tier_id shows")
	case !oneLine(id) || strings.ContainsAny(id, " "):
		return errors.New("tier id must be one word of printable text (no spaces, control characters or escape sequences)")
	case utf8.RuneCountInString(id) > MaxIDLen:
		return fmt.Errorf("tier id is %d characters long: at most %d", utf8.RuneCountInString(id), MaxIDLen)
	}
	return nil
}

// oneLine is true when s shows on one line as it is: the sanitiser would
// change nothing, and there is no tab.
func oneLine(s string) bool { return sanitize.Line(s) == s && !strings.ContainsRune(s, '\t') }

// limits bound a tiers file: an event has a handful of tiers.
var limits = config.TOMLLimits{What: "tiers file", MaxBytes: MaxFileSize, MaxEntries: 1000}

// Load reads the names at path. A missing file holds no names; a file
// evdesk cannot use is an error naming the file and, where it can, the
// line (*config.FileError).
func Load(path string) (Names, error) {
	src, err := config.ReadCapped(path, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Names{}, nil
	case errors.Is(err, config.ErrTooLarge):
		return nil, &config.FileError{File: path, Msg: fmt.Sprintf("the file is over %d KiB, far more than a list of tier names: is it the right file?", MaxFileSize>>10)}
	case err != nil:
		return nil, fmt.Errorf("read the tier names: %w", err)
	}
	return Parse(path, src)
}

// Parse decodes the content of a tiers file; path names it in errors.
func Parse(path string, src []byte) (Names, error) {
	var f struct {
		Tiers map[string]any `toml:"tiers"`
	}
	md, err := config.DecodeTOML(path, src, limits, &f)
	if err != nil {
		return nil, err
	}
	names := Names{}
	// In the file's order, so the first problem in it is the one reported.
	for _, k := range md.Keys() {
		bad := func(msg string) error {
			key := k[0]
			if len(k) > 1 {
				key += "." + strconv.Quote(k[1])
			}
			return &config.FileError{File: path, Line: config.KeyLine(src, k...), Key: key, Msg: msg}
		}
		switch {
		case k[0] != "tiers":
			return nil, bad(`unknown key: the file holds one table, [tiers], of "TIER_ID" = "Name" lines`)
		case len(k) == 1 && md.Type(k...) != "Hash":
			return nil, bad(fmt.Sprintf("is a %s: it must be the table [tiers]", typeWord(md.Type(k...))))
		case len(k) != 2:
			continue // tiers itself, or inside a value reported as it
		}
		id := k[1]
		if err := CheckID(id); err != nil {
			return nil, bad(err.Error())
		}
		name, ok := f.Tiers[id].(string)
		if !ok {
			return nil, bad(fmt.Sprintf("is a %s: a tier name is a quoted string, such as \"Gold\"", typeWord(md.Type(k...))))
		}
		if err := CheckName(name); err != nil {
			return nil, bad(err.Error())
		}
		names[id] = strings.TrimSpace(name)
	}
	return names, nil
}

// typeWords puts the decoder's type names in a person's words.
var typeWords = map[string]string{"String": "string", "Integer": "number", "Float": "number", "Bool": "true/false value",
	"Array": "list", "Hash": "table", "Datetime": "date", "DatetimeLocal": "date", "DateLocal": "date", "TimeLocal": "time"}

func typeWord(t string) string {
	if w, ok := typeWords[t]; ok {
		return w
	}
	return "value of another kind"
}

// header starts the file evdesk writes.
const header = `# Sponsor tier names for evdesk.
#
# The events API names a sponsor tier by its id only, so evdesk shows the
# names given here in place of the ids: on the console's exhibitors screen
# (press e on a sponsor) and in ` + "`evdesk exhibitors list`" + `. Each line of
# [tiers] gives one tier id a name of at most 40 characters, on one line.
# ` + "`evdesk exhibitors name-tier TIER_ID NAME`" + ` writes this file too;
# edits by hand are kept, comments are not.

`

// Write encodes names as the file's content: the header, then [tiers] in
// id order.
func Write(w io.Writer, names Names) error {
	var body bytes.Buffer
	enc := toml.NewEncoder(&body)
	enc.Indent = ""
	if err := enc.Encode(struct {
		Tiers Names `toml:"tiers"`
	}{names}); err != nil {
		return fmt.Errorf("encode the tier names: %w", err)
	}
	if !bytes.HasSuffix(body.Bytes(), []byte("\n")) {
		body.WriteByte('\n')
	}
	_, err := io.WriteString(w, header+body.String())
	return err
}

// Save writes names to path atomically, creating its directory.
func Save(path string, names Names) error {
	for _, id := range slices.Sorted(maps.Keys(names)) {
		if err := CheckID(id); err != nil {
			return err
		}
		if err := CheckName(names[id]); err != nil {
			return fmt.Errorf("tier %s: %w", id, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create the config directory: %w", err)
	}
	if err := atomicfile.Write(path, 0o600, func(w io.Writer) error { return Write(w, names) }); err != nil {
		return fmt.Errorf("write the tier names: %w", err)
	}
	return nil
}

// Set names tier id in the file at path, or clears its name when name is
// empty, and returns all the names now in the file. The file is read again
// first, so a name given elsewhere meanwhile is kept; a file evdesk cannot
// read is left as it is.
func Set(path, id, name string) (Names, error) {
	id, name = strings.TrimSpace(id), strings.TrimSpace(name)
	if err := CheckID(id); err != nil {
		return nil, err
	}
	if name != "" {
		if err := CheckName(name); err != nil {
			return nil, err
		}
	}
	names, err := Load(path)
	if err != nil {
		return nil, fmt.Errorf("fix or remove the file first: %w", err)
	}
	if name == "" {
		delete(names, id)
	} else {
		names[id] = name
	}
	if err := Save(path, names); err != nil {
		return nil, err
	}
	return names, nil
}
