package badge

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// EnvRealParts, set by .ci/run, runs the tests that need real tools
// (poppler's pdftotext and pdftoppm, zbar's zbarimg, CUPS); without it they
// skip, so a bare clone passes.
const EnvRealParts = "EVDESK_REAL_PRINT"

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	if os.Getenv(EnvRealParts) == "" {
		t.Skip("set " + EnvRealParts + "=1 to run with the real tools (.ci/run does)")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s=1 but %s is missing: %v", EnvRealParts, tool, err)
		}
	}
}

// TestPDFTextAndCodeWithRealTools reads each rendered badge as a person's
// tools would: pdftotext finds the name (Arabic in its logical order once
// the drawn forms are normalised), and zbarimg decodes the printed code.
func TestPDFTextAndCodeWithRealTools(t *testing.T) {
	needTools(t, "pdftotext", "pdftoppm", "zbarimg")
	l, err := LoadLayout("4x3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, who := range []string{"latin", "cjk", "arabic"} {
		b := people[who]
		pdf := filepath.Join(dir, who+".pdf")
		var buf bytes.Buffer
		if err := l.Render(&buf, b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(pdf, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pdftotext", "-layout", pdf, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		text := norm.NFKC.String(string(out))
		for _, want := range []string{b.Name, b.Company, "Launch Week 2026"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: pdftotext lacks %q:\n%s", who, want, text)
			}
		}
		png := filepath.Join(dir, who)
		if out, err := exec.Command("pdftoppm", "-r", "300", "-png", "-singlefile", pdf, png).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v %s", err, out)
		}
		code, err := exec.Command("zbarimg", "--raw", "-q", png+".png").Output()
		if err != nil {
			t.Fatalf("zbarimg found no code: %v", err)
		}
		if got := strings.TrimSpace(string(code)); got != b.Code {
			t.Errorf("%s: code reads %q, want %q", who, got, b.Code)
		}
	}
}
