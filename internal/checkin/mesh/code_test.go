package mesh

import (
	"bytes"
	"compress/flate"
	"strings"
	"testing"
)

func TestASecretGoesRoundItsCode(t *testing.T) {
	sec, err := NewSecret("Lisbon Congress Centre")
	if err != nil {
		t.Fatal(err)
	}
	sec.Server = "https://api.example.com/v2"
	code, err := sec.Code()
	if err != nil {
		t.Fatal(err)
	}
	// QR's alphanumeric mode: capital letters, digits and a few signs.
	if strings.Trim(code, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:") != "" {
		t.Fatalf("the code holds characters outside QR's alphanumeric mode: %q", code)
	}
	if len(code) > 2500 {
		t.Fatalf("the code is %d characters: too dense for a printed QR code", len(code))
	}
	// A scanner may type it in lower case, with a line end.
	for _, typed := range []string{code, strings.ToLower(code) + "\r\n", "  " + code + "\n"} {
		got, err := SecretFromCode(typed)
		if err != nil {
			t.Fatal(err)
		}
		if *got != *sec {
			t.Fatalf("round trip: %+v, want %+v", got, sec)
		}
	}
}

func TestALineThatIsNoVenuesCodeIsRefusedWithoutRepeatingIt(t *testing.T) {
	sec, err := NewSecret("Hall")
	if err != nil {
		t.Fatal(err)
	}
	code, err := sec.Code()
	if err != nil {
		t.Fatal(err)
	}
	var bomb bytes.Buffer
	w, _ := flate.NewWriter(&bomb, flate.BestCompression)
	_, _ = w.Write(make([]byte, 4<<20)) // 4 MiB of zeros, in a few KB
	_ = w.Close()
	var junk bytes.Buffer
	w, _ = flate.NewWriter(&junk, flate.BestCompression)
	_, _ = w.Write([]byte(`{"version":1,"name":"Hall","id":"zz"}`))
	_ = w.Close()
	for _, c := range []struct{ in, want string }{
		{"", "not a venue's code"},
		{"dana.cole@example.com", "not a venue's code"},
		{codePrefix + "!!!!", "damaged (a character"},
		{code[:len(code)-40], "damaged"},
		{codePrefix + codeEncoding.EncodeToString(bomb.Bytes()), "over 64 KiB"},
		{codePrefix + codeEncoding.EncodeToString(junk.Bytes()), "id: 16 hexadecimal digits"},
		{codePrefix + strings.Repeat("A", maxCodeChars), "characters long"},
	} {
		_, err := SecretFromCode(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.want)
			continue
		}
		if len(c.in) > 30 && strings.Contains(err.Error(), c.in[len(codePrefix):len(codePrefix)+16]) {
			t.Errorf("the error repeats the code: %v", err)
		}
	}
}
