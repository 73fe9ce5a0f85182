package sim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheSimulatorChecksOnItsOwn: no file of the simulator calls a client
// validator (any Validate method, the api package's Check*, Is*, Lookup*,
// Parse* and Normalize* helpers) or uses the client's limits (api.Max*):
// the server's rules are written apart, so the two can catch each other.
func TestTheSimulatorChecksOnItsOwn(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if sel.Sel.Name == "Validate" {
				t.Errorf("%s: calls a Validate method", fset.Position(sel.Pos()))
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "api" {
				for _, prefix := range []string{"Check", "Is", "Lookup", "Parse", "Normalize", "Max", "Nearest"} {
					if strings.HasPrefix(sel.Sel.Name, prefix) {
						t.Errorf("%s: uses the client's api.%s", fset.Position(sel.Pos()), sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
}
