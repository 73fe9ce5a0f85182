package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"

	"github.com/BurntSushi/toml"
)

// ErrTooLarge is ReadCapped's answer for a file over its cap.
var ErrTooLarge = errors.New("the file is larger than evdesk reads")

// ReadCapped reads the file at path, refusing one of more than limit bytes
// with ErrTooLarge. The read itself is bounded, even when the size the
// system reports lies (a device, a file still growing). A missing file's
// error matches fs.ErrNotExist.
func ReadCapped(path string, limit int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err == nil && fi.Size() > limit {
		return nil, ErrTooLarge
	}
	src, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > limit {
		return nil, ErrTooLarge
	}
	return src, nil
}

// decodeErrPattern matches the decoder's type errors, which are not
// toml.ParseError values: `toml: line 3 (last key "a.b"): message`.
var decodeErrPattern = regexp.MustCompile(`^toml: line (\d+) \(last key "(.*?)"\): (.*)$`)

// ReadTOML reads the TOML file at path and decodes it into v through
// DecodeTOML, reading no more than the limits allow. A missing file's error
// matches fs.ErrNotExist; every other failure names the file.
func ReadTOML(path string, lim TOMLLimits, v any) (toml.MetaData, []byte, error) {
	src, err := ReadCapped(path, int64(lim.MaxBytes))
	switch {
	case errors.Is(err, ErrTooLarge):
		return toml.MetaData{}, nil, lim.tooLarge(path)
	case err != nil:
		return toml.MetaData{}, nil, err
	}
	md, err := DecodeTOML(path, src, lim, v)
	return md, src, err
}

// DecodeTOML decodes src, the content of the file at path, into v with the
// guards every TOML file evdesk reads gets: its size and the shape bounds
// (nesting, key parts, the count of keys and values) checked first, a
// panic of the decoder turned into an error, and every failure a
// *FileError naming the file, line and key.
func DecodeTOML(path string, src []byte, lim TOMLLimits, v any) (toml.MetaData, error) {
	if len(src) > lim.MaxBytes {
		return toml.MetaData{}, lim.tooLarge(path)
	}
	if err := checkShape(path, src, lim.MaxEntries); err != nil {
		return toml.MetaData{}, err
	}
	md, err := decode(src, v)
	if err != nil {
		fe := &FileError{File: path, Msg: err.Error(), Err: err}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line, fe.Key, fe.Msg = pe.Position.Line, pe.LastKey, pe.Message
		} else if m := decodeErrPattern.FindStringSubmatch(err.Error()); m != nil {
			fe.Line, _ = strconv.Atoi(m[1])
			fe.Key, fe.Msg = m[2], m[3]
		}
		return md, fe
	}
	return md, nil
}

// KeyLine is the line (1-based) of TOML source src that defines key, or 0:
// the decoder keeps no positions, and messages should point at a line.
func KeyLine(src []byte, key ...string) int { return locateKey(src, key) }

// tomlDecode is the decoder (a variable so a test can make it panic).
var tomlDecode = toml.Decode

// decode runs the TOML decoder; a panic in it becomes an error.
func decode(src []byte, v any) (md toml.MetaData, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the TOML decoder failed on this file: %v", r)
		}
	}()
	return tomlDecode(string(src), v)
}
