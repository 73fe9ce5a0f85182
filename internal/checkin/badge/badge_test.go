package badge

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	qrimage "github.com/evdesk/evdesk/internal/qrcode"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// people are the three scripts a badge must get right.
var people = map[string]Badge{
	"latin":  {Name: "Ana Costa-Lima", Company: "Contoso Ltd", Event: "Launch Week 2026", Role: "SPEAKER", Code: "https://events.vendor.example/qr?t=UASe4Eg74boZ"},
	"cjk":    {Name: "山田 太郎", Company: "株式会社サンプル", Event: "Launch Week 2026", Role: "ATTENDEE", Code: "tk_7Hq2"},
	"arabic": {Name: "محمد عبد الله", Company: "شركة المثال", Event: "Launch Week 2026", Role: "ATTENDEE", Code: "tk_9Zp4"},
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Fatalf("%s differs (go test -update rewrites it):\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}

// TestLinesOfEachScript is the golden text of each badge as laid out: the
// fonts chosen per script, Arabic shaped into its joined forms and in
// drawing order, sizes shrunk to fit.
func TestLinesOfEachScript(t *testing.T) {
	l, err := LoadLayout("4x3")
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"latin", "cjk", "arabic"} {
		lines, err := l.Lines(people[who])
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, ln := range lines {
			b.WriteString(ln.String() + "\n")
		}
		golden(t, "lines-"+who+".golden", b.String())
	}
}

// TestArabicIsShapedAndReversed checks the shaping itself, apart from the
// golden file: "محمد" is drawn left to right as final dal, medial meem,
// medial hah, initial meem.
func TestArabicIsShapedAndReversed(t *testing.T) {
	segs := visual("محمد", true)
	if len(segs) != 1 || segs[0].text != "\ufeaa\ufee4\ufea4\ufee3" {
		t.Fatalf("segments %+q", segs)
	}
	// A Latin name with an Arabic part keeps the Latin part first.
	segs = visual("Ali محمد", false)
	if got := segs[0].text; !strings.HasPrefix(got, "Ali ") {
		t.Fatalf("mixed line drawn as %q", got)
	}
}

// TestHostileNames: controls, bidi overrides and huge names never reach
// the page as such.
func TestHostileNames(t *testing.T) {
	if got := clean("Ana\x1b[31m\u202eCosta\u200b\n\tX"); got != "Ana[31mCosta X" {
		t.Fatalf("clean: %q", got)
	}
	long := strings.Repeat("W", 5000)
	if n := len([]rune(clean(long))); n != maxFieldRunes {
		t.Fatalf("clean kept %d runes", n)
	}
	l, _ := LoadLayout("4x3")
	lines, err := l.Lines(Badge{Name: long})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || !strings.HasSuffix(lines[0].Parts[len(lines[0].Parts)-1].Text, "…") || lines[0].SizePt != 12 {
		t.Fatalf("a long name was not cut to fit: %v", lines)
	}
	var buf bytes.Buffer
	if err := l.Render(&buf, Badge{Name: "x", Code: strings.Repeat("q", 5000)}); err == nil {
		t.Fatal("a 5000-byte code was rendered")
	}
}

// TestQRDecodes reads the code back with a QR reader (gozxing), from the
// same modules the PDF draws.
func TestQRDecodes(t *testing.T) {
	for _, code := range []string{people["latin"].Code, "tk_7Hq2"} {
		m, err := Encode(code)
		if err != nil {
			t.Fatal(err)
		}
		bmp, err := gozxing.NewBinaryBitmapFromImage(qrimage.Image(m, 4)) // as drawQR lays it out: a four-module quiet zone
		if err != nil {
			t.Fatal(err)
		}
		res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if res.GetText() != code {
			t.Fatalf("decoded %q, want %q", res.GetText(), code)
		}
	}
}

func TestEveryBuiltinLayoutRenders(t *testing.T) {
	for _, name := range Builtin {
		l, err := LoadLayout(name)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := l.Render(&buf, people["latin"], people["arabic"]); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) || bytes.Count(buf.Bytes(), []byte("/Type /Page\n")) != 2 {
			t.Fatalf("%s: not a two-page PDF", name)
		}
	}
}

func TestBadLayoutsNameTheProblem(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{"name='x'\nwidth_mm=0\nheight_mm=10\n", "width_mm and height_mm must be between 0 and 420"},
		{"width_mm=50\nheight_mm=50\n[[text]]\nfield='nick'\nx_mm=1\ny_mm=1\nwidth_mm=10\nheight_mm=10\nsize_pt=10\n", `field "nick" is not one of name, company`},
		{"width_mm=50\nheight_mm=50\n[[text]]\nfield='name'\nx_mm=45\ny_mm=1\nwidth_mm=10\nheight_mm=10\nsize_pt=10\n", "does not lie on the 50 x 50 mm page"},
		{"width_mm=50\nheight_mm=50\ncolour='red'\n", "unknown key colour"},
		{"width_mm=50\nheight_mm=50\n[qr]\nx_mm=40\ny_mm=40\nsize_mm=20\n", "qr: the box"},
	} {
		_, err := ParseLayout([]byte(tc.toml), "test.toml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "test.toml") {
			t.Errorf("%q: %v, want %q", tc.toml, err, tc.want)
		}
	}
	if _, err := LoadLayout("5x7"); err == nil || !strings.Contains(err.Error(), "4x3, 4x6, a6, 62mm") {
		t.Fatalf("unknown layout: %v", err)
	}
	big := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#\n"), maxLayoutBytes), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLayout(big); err == nil || !strings.Contains(err.Error(), "larger than 64 KiB") {
		t.Fatalf("huge layout: %v", err)
	}
}

func TestNameOrLocal(t *testing.T) {
	if NameOrLocal(" ", "ana.costa@example.org") != "ana.costa" || NameOrLocal("Ana", "a@b") != "Ana" {
		t.Fatal("NameOrLocal")
	}
}
