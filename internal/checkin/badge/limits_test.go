package badge

import (
	"strings"
	"testing"

	"github.com/evdesk/evdesk/config"
)

// A layout passes the guard every TOML file of evdesk passes, with limits
// within the config file's (whose benchmark of the costliest shapes bounds
// them): a key of thousands of dotted parts is refused before decoding.
func TestALayoutGoesThroughTheTOMLGuard(t *testing.T) {
	if layoutLimits.MaxBytes > config.ConfigLimits.MaxBytes || layoutLimits.MaxEntries > config.ConfigLimits.MaxEntries {
		t.Fatalf("layout limits %+v exceed the config file's %+v", layoutLimits, config.ConfigLimits)
	}
	_, err := ParseLayout([]byte("name = \"x\"\n"+strings.Repeat("a.", 8000)+"a = 1\n"), "quad.toml")
	if err == nil || !strings.Contains(err.Error(), "badge layout quad.toml:2: a key with more than 6 dotted parts") {
		t.Fatalf("%v", err)
	}
}
