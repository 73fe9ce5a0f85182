package cli

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/evdesk/evdesk/internal/checkin/mesh"
)

// A venue made with --qr: its QR code, read back with a QR reader, is the
// line a desk's scanner types into venue import, which saves the same
// venue's file.
func TestVenueTravelsAsAQRCodeToADesk(t *testing.T) {
	isolateXDG(t)
	dir := t.TempDir()
	file, img := filepath.Join(dir, "venue.json"), filepath.Join(dir, "venue-qr.png")
	out, _, err := execute(t, "--demo", "venue", "init", "Lisbon Congress Centre", "--out", file, "--qr", img)
	if err != nil || !strings.Contains(out, "its QR code drawn in "+img) {
		t.Fatalf("venue init --qr: %v\n%s", err, out)
	}
	if st, err := os.Stat(img); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the QR code's file: %v %v", st, err)
	}
	scanned := readQR(t, img)
	if !strings.HasPrefix(scanned, "EVDESK-VENUE1:") {
		t.Fatalf("the QR code holds %.30q…", scanned)
	}
	desk := filepath.Join(t.TempDir(), "venue.json")
	out, _, err = runWithInput(t, scanned+"\r\n", "venue", "import", "--out", desk)
	if err != nil || !strings.Contains(out, `venue "Lisbon Congress Centre"`) || !strings.Contains(out, "--venue "+desk) {
		t.Fatalf("venue import: %v\n%s", err, out)
	}
	if strings.Contains(out, scanned[14:40]) {
		t.Fatal("venue import repeated the code")
	}
	want, err := mesh.ReadSecret(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mesh.ReadSecret(desk)
	if err != nil {
		t.Fatal(err)
	}
	if *got != *want {
		t.Fatal("the imported venue differs from the one made")
	}
	// venue qr draws the same code from the file.
	again := filepath.Join(dir, "again.png")
	if _, _, err := execute(t, "venue", "qr", file, "--out", again); err != nil {
		t.Fatal(err)
	}
	if readQR(t, again) != scanned {
		t.Fatal("venue qr drew another code")
	}
	// The file is not replaced without --force.
	if _, _, err := runWithInput(t, scanned+"\n", "venue", "import", "--out", desk); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("import over a file: %v", err)
	}
}

func TestVenueImportRefusesWhatIsNoVenuesCode(t *testing.T) {
	isolateXDG(t)
	out := filepath.Join(t.TempDir(), "venue.json")
	for _, c := range []struct{ in, want string }{
		{"", "no code read"},
		{"dana.cole@example.com\n", "not a venue's code"},
		{"EVDESK-VENUE1:ABC?DEF\n", "damaged"},
		{strings.Repeat("A", 20<<10) + "\n", "over 16384 bytes"},
	} {
		_, _, err := runWithInput(t, c.in, "venue", "import", "--out", out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.30q: %v, want %q", c.in, err, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%.30q: a file was written", c.in)
		}
	}
	if _, _, err := execute(t, "venue", "import"); err == nil || !strings.Contains(err.Error(), "--out is required") {
		t.Fatalf("no --out: %v", err)
	}
}

// readQR reads the QR code in a PNG with a QR reader (gozxing).
func readQR(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	// PURE_BARCODE: the image is the code alone, as drawn; the reader's
	// search for finder patterns misplaces a dense code's about 3 times
	// in 100 (a reader's heuristic, not the code: read pure, 200 of 200).
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatalf("read the QR code in %s: %v", path, err)
	}
	return res.GetText()
}
