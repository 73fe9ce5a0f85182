package badge

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"sync"
)

// The fonts come with the program, so a badge looks the same on every desk
// (fonts/LICENSE-*.txt: DejaVu under the Bitstream Vera licence, Droid
// Sans Fallback under Apache 2.0, both from Debian's packages). They are
// kept gzipped, 5.5 MB as 2.9 MB, and opened once, by the first badge:
// every user's binary carries them, few users print.
var (
	//go:embed fonts/DejaVuSans.ttf.gz
	sansGz []byte
	//go:embed fonts/DejaVuSans-Bold.ttf.gz
	sansBoldGz []byte
	//go:embed fonts/DroidSansFallbackFull.ttf.gz
	cjkGz []byte

	sansTTF     = gunzipOnce(sansGz)
	sansBoldTTF = gunzipOnce(sansBoldGz)
	cjkTTF      = gunzipOnce(cjkGz)
)

// gunzipOnce is the font gz holds, unpacked on the first call and kept.
func gunzipOnce(gz []byte) func() []byte {
	return sync.OnceValue(func() []byte {
		r, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			panic("badge: an embedded font is damaged: " + err.Error()) // the build's own file
		}
		ttf, err := io.ReadAll(r)
		if err != nil {
			panic("badge: an embedded font is damaged: " + err.Error())
		}
		return ttf
	})
}

func fontBytes(bold bool) []byte {
	if bold {
		return sansBoldTTF()
	}
	return sansTTF()
}
