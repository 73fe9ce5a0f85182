package badge

import _ "embed"

// The fonts come with the program, so a badge looks the same on every desk
// (fonts/LICENSE-*.txt: DejaVu under the Bitstream Vera licence, Droid
// Sans Fallback under Apache 2.0, both from Debian's packages).
var (
	//go:embed fonts/DejaVuSans.ttf
	sansTTF []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	sansBoldTTF []byte
	//go:embed fonts/DroidSansFallbackFull.ttf
	cjkTTF []byte
)

func fontBytes(bold bool) []byte {
	if bold {
		return sansBoldTTF
	}
	return sansTTF
}
