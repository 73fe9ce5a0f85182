package badge

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestFontsUnpackToDebiansFiles: the gzipped fonts the binary carries are,
// unpacked, byte for byte the files Debian ships (fonts-dejavu-core,
// fonts-droid-fallback), and unpacked once.
func TestFontsUnpackToDebiansFiles(t *testing.T) {
	for name, c := range map[string]struct {
		ttf  func() []byte
		want string
	}{
		"DejaVuSans.ttf":            {sansTTF, "abdc775b21b1bc470d50c97e790d276f2054b7504e56e5bd3e64f48d68582322"},
		"DejaVuSans-Bold.ttf":       {sansBoldTTF, "0d977336a6d5fba34eab8e3199eb218327161b5143749f802982c2bc34df0c96"},
		"DroidSansFallbackFull.ttf": {cjkTTF, "acb6440a713d880a13a21b468ba7cd43f5a2b2934972e51be791c880730777b8"},
	} {
		sum := sha256.Sum256(c.ttf())
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("%s unpacks to sha256 %s, want %s", name, got, c.want)
		}
		if first, again := c.ttf(), c.ttf(); &first[0] != &again[0] {
			t.Errorf("%s is unpacked on every call", name)
		}
	}
}
