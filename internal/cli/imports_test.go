package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMainBinaryLeavesOutWhatUsersDoNotNeed holds the binary's import graph
// to what a user runs: the screenshot renderer (x/vt, the Go fonts), the
// conformance checker (kin-openapi), the testing packages and the tests'
// helpers stay out of it, and so does html/template (one page of the
// simulator).
func TestMainBinaryLeavesOutWhatUsersDoNotNeed(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/evdesk/evdesk").Output()
	if err != nil {
		t.Skipf("go list: %v", err) // no go tool beside the test binary
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/charmbracelet/x/vt", "golang.org/x/image/font/gofont", "github.com/getkin/kin-openapi",
			"html/template", "testing", "net/http/httptest",
			"github.com/evdesk/evdesk/screenshots", "github.com/evdesk/evdesk/e2e", "github.com/evdesk/evdesk/ui/uitest",
			"github.com/evdesk/evdesk/views/viewtest", "github.com/evdesk/evdesk/api/sim/hostile",
			"github.com/evdesk/evdesk/internal/fakeclock", "github.com/evdesk/evdesk/internal/testdir"} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("the evdesk binary imports %s", pkg)
			}
		}
	}
}
