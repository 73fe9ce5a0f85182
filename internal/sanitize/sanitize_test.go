package sanitize

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	osc52  = "\x1b]52;c;SEFDS0VEX0NMSVBCT0FSRA==\x07"
	title  = "\x1b]0;PWNED\x07"
	osc8   = "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"
	sgrRed = "\x1b[31;1m"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "Observability Summit", "Observability Summit"},
		{"unicode kept", "Café 東京 🎉", "Café 東京 🎉"},
		{"clipboard and title", "Name" + osc52 + title, "Name\uFFFD\uFFFD"},
		{"hyperlink", "see " + osc8, "see \uFFFDclick\uFFFD"},
		{"colour", sgrRed + "red\x1b[0m", "\uFFFDred\uFFFD"},
		{"cursor moves", "a\x1b[2J\x1b[H\x1b[10;20Hb", "a\uFFFD\uFFFD\uFFFDb"},
		{"two-byte escapes", "a\x1bcb\x1b(Bc\x1b7d", "a\uFFFDb\uFFFDc\uFFFDd"},
		{"lone escape at end", "a\x1b", "a\uFFFD"},
		{"unterminated OSC keeps the rest visible", "a\x1b]0;title", "a\uFFFD]0;title"},
		{"OSC ended by C1 ST", "a\x1b]0;t\u009cb", "a\uFFFDb"},
		{"C0 controls", "a\x00b\x07c\x08d\x7fe", "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe"},
		{"C1 controls", "a\u0085b\u0090c", "a\uFFFDb\uFFFDc"},
		{"C1 CSI sequence", "a\u009b31mb", "a\uFFFDb"},
		{"C1 OSC sequence", "a\u009d0;PWNED\u0007b", "a\uFFFDb"},
		{"bidi override", "invoice\u202egnp.exe", "invoice\uFFFDgnp.exe"},
		{"bidi isolates", "\u2066a\u2069\u2067b\u2068", "\uFFFDa\uFFFD\uFFFDb\uFFFD"},
		{"marks that do not override stay", "a\u200fb\u200dc", "a\u200fb\u200dc"},
		{"newlines", "one\ntwo\r\nthree\rfour", "one⏎two⏎three⏎four"},
		{"separators", "a\u2028b\u2029c", "a⏎b⏎c"},
		{"tab", "a\tb", "a b"},
		{"invalid UTF-8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Line(tc.in); got != tc.want {
				t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"keeps line breaks", "one\ntwo\r\nthree\rfour", "one\ntwo\nthree\nfour"},
		{"expands tabs", "a\tb", "a    b"},
		{"still strips escapes", "a\n" + title + "b", "a\n\uFFFDb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestPlainTextIsNotCopied(t *testing.T) {
	s := "plain ASCII text"
	if n := testing.AllocsPerRun(100, func() { _ = Line(s) }); n != 0 {
		t.Fatalf("Line allocated %v times on plain text", n)
	}
}

func TestWriter(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	// A rune cut by the write boundary arrives whole.
	euro := []byte("€")
	for _, chunk := range [][]byte{[]byte("price\t"), euro[:1], euro[1:], []byte("\n" + title + sgrRed + "x\u202e\n")} {
		if n, err := w.Write(chunk); err != nil || n != len(chunk) {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "price\t€\n\uFFFD\uFFFDx\uFFFD\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	out.Reset()
	_, _ = w.Write([]byte{0xe2, 0x82})
	_ = w.Flush()
	if out.String() != "\uFFFD" {
		t.Fatalf("a dangling rune at the end: %q", out.String())
	}
}

func TestJSONStaysExactAndSafe(t *testing.T) {
	in := map[string]string{"name": "a" + title + "\u0085\u202eb\u2028"}
	enc, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	safe := JSON(enc)
	if bytes.ContainsFunc(safe, func(r rune) bool { return r < 0x20 || isC1(r) || isBidiControl(r) }) {
		t.Fatalf("unsafe character left in %q", safe)
	}
	var back map[string]string
	if err := json.Unmarshal(safe, &back); err != nil {
		t.Fatal(err)
	}
	if back["name"] != in["name"] {
		t.Fatalf("data changed: %q, want %q", back["name"], in["name"])
	}
	if !strings.Contains(string(safe), `\u0085\u202e`) {
		t.Fatalf("C1 and bidi not escaped: %s", safe)
	}
}

// unsafeRune reports a rune that must never reach a terminal from Line.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || isC1(r) || isBidiControl(r) || r == '\u2028' || r == '\u2029'
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"plain", osc52 + title, osc8, sgrRed, "a\u009b1m", "\u202e", "x\r\ny", "\xff\xfe", "\x1b]0;\x1b\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line, text := Line(s), Text(s)
		if !utf8.ValidString(line) || !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		if strings.ContainsFunc(line, unsafeRune) {
			t.Fatalf("Line(%q) = %q keeps a control", s, line)
		}
		if strings.ContainsFunc(text, func(r rune) bool { return r != '\n' && unsafeRune(r) }) {
			t.Fatalf("Text(%q) = %q keeps a control", s, text)
		}
		if Line(line) != line || Text(text) != text {
			t.Fatalf("not idempotent on %q", s)
		}
	})
}

func BenchmarkLinePlain(b *testing.B) {
	s := strings.Repeat("Observability Summit APAC ", 4)
	for b.Loop() {
		_ = Line(s)
	}
}

func BenchmarkLineHostile(b *testing.B) {
	s := strings.Repeat("Name"+osc52+title+"\u202e", 4)
	for b.Loop() {
		_ = Line(s)
	}
}

func TestCSVCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"alice@example.com", "alice@example.com"},
		{"=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\n=1"},
		{"-12.5", "-12.5"},
		{"+44", "+44"},
		{"-", "'-"},
		{"a" + title + "b", "a\uFFFDb"},
		{"", ""},
	} {
		if got := CSVCell(tc.in); got != tc.want {
			t.Errorf("CSVCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFrame(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"theme colours pass", "\x1b[1;38;2;10:20:30mTitle\x1b[m\nrow", "\x1b[1;38;2;10:20:30mTitle\x1b[m\nrow"},
		{"other escapes go", "a" + osc52 + title + osc8 + "\x1b[2J\x1b[?1049lb", "aclickb"},
		{"controls, C1 and bidi marked", "a\x07b\u0085c\u202ed\te", "a\uFFFDb\uFFFDc\uFFFDd e"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Frame(tc.in); got != tc.want {
				t.Errorf("Frame(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func BenchmarkFrame(b *testing.B) {
	row := "\x1b[38;2;120;120;120m  row of a table with some text \x1b[m│ café\n"
	s := strings.Repeat(row, 40)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Frame(s)
	}
}
