package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// maxEmbeddedBytes bounds the files the evdesk binary's packages embed
// (go:embed): today the badge fonts, gzipped (2.87 MB; 5.5 MB as they
// were), are nearly all of it. A new embedded file must fit, or say why
// every user's binary carries it.
const maxEmbeddedBytes = 3_000_000

// TestMainBinaryEmbedsLittle holds the bytes the binary's packages embed to
// maxEmbeddedBytes, naming each package's share when it is over.
func TestMainBinaryEmbedsLittle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{if .EmbedFiles}}{{.ImportPath}}|{{.Dir}}|{{join .EmbedFiles "|"}}{{end}}`,
		"github.com/evdesk/evdesk").Output()
	if err != nil {
		t.Skipf("go list: %v", err) // no go tool beside the test binary
	}
	var total int64
	var shares []string
	for _, line := range strings.Fields(string(out)) {
		f := strings.Split(line, "|")
		var n int64
		for _, name := range f[2:] {
			fi, err := os.Stat(filepath.Join(f[1], name))
			if err != nil {
				t.Fatal(err)
			}
			n += fi.Size()
		}
		total += n
		shares = append(shares, fmt.Sprintf("%s %.2f MB", f[0], float64(n)/1e6))
	}
	if total > maxEmbeddedBytes {
		t.Errorf("the evdesk binary embeds %.2f MB, over its budget of %.2f MB: %s",
			float64(total)/1e6, float64(maxEmbeddedBytes)/1e6, strings.Join(shares, ", "))
	}
}
