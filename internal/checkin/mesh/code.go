package mesh

import (
	"bytes"
	"compress/flate"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// A venue's secret as a code: what the QR code of `evdesk venue init --qr`
// holds, and what a desk's 2D scanner types back, as one line, into
// `evdesk venue import`. The secret, compact and deflated, in base32: its
// capital letters and digits are QR's denser alphanumeric mode, and a
// scanner types them as they are.

// codePrefix starts a venue's code (its version with it).
const codePrefix = "EVDESK-VENUE1:"

// maxCodeChars bounds a code read back: a real one is about 1,800.
const maxCodeChars = 8 << 10

var codeEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// Code is the secret as a code.
func (s *Secret) Code() (string, error) {
	data, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := w.Write(data); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return codePrefix + codeEncoding.EncodeToString(b.Bytes()), nil
}

// errNotACode is what a line that is no venue's code gets.
var errNotACode = errors.New("that is not a venue's code: scan the QR code `evdesk venue init --qr` made (it starts " + codePrefix + ")")

// SecretFromCode reads and checks a secret from its code. A scanner may
// type the letters in either case; spaces and line ends around it do not
// count. What went wrong never repeats the code (it is a secret).
func SecretFromCode(code string) (*Secret, error) {
	code = strings.TrimSpace(code)
	if len(code) > maxCodeChars {
		return nil, fmt.Errorf("the code is %d characters long: a venue's is under %d", len(code), maxCodeChars)
	}
	code = strings.ToUpper(code)
	body, ok := strings.CutPrefix(code, codePrefix)
	if !ok {
		return nil, errNotACode
	}
	packed, err := codeEncoding.DecodeString(body)
	if err != nil {
		return nil, errors.New("the code is damaged (a character is not one of its letters and digits): scan it again")
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(packed)), maxSecretBytes+1))
	if err != nil {
		return nil, errors.New("the code is damaged (it does not unpack): scan it again")
	}
	if len(data) > maxSecretBytes {
		return nil, fmt.Errorf("the code unpacks to over %d KiB: it is not a venue's", maxSecretBytes>>10)
	}
	return parseSecret(data, "the code")
}
