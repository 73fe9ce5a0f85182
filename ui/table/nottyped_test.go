package table

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/ui"
)

// A burst the filter did not take (too fast for a person: the shell's
// scan gate) is named in the footer, until the next key.
func TestTheFilterSaysWhatWasNotTyped(t *testing.T) {
	m := New(ui.NewTheme(true, true), Column{Title: "Name", Width: 20})
	m.SetSize(80, 10)
	m.SetRows(rowsOf([]Row{{ID: "1", Cells: []string{"Kubernetes Day"}}}))
	m, _ = m.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	m, _ = m.Update(ui.NotTypedMsg{Text: "kubernetes day"})
	if v := ansi.Strip(m.View()); !strings.Contains(v, `NOT TYPED: 14 characters came at once, too fast for typing: "kubernetes day"`) {
		t.Fatalf("the footer does not say it:\n%s", v)
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	if v := ansi.Strip(m.View()); strings.Contains(v, "NOT TYPED") || !strings.Contains(v, "row 1 of 1") {
		t.Fatalf("the note stayed after a key:\n%s", v)
	}
}
