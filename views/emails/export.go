package emails

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
)

type exportDoneMsg struct {
	path    string
	n       int
	partial bool // the listing was still loading
	err     error
}

// ExportHeader is the CSV's first line: the API's field names, but for
// the send time, named with its zone as `evdesk emails status -o csv`
// names it (one name in the console and the CLI).
var ExportHeader = []string{"email", "name", "status", "failure_reason", "sent_utc"}

// defaultExportPath is a file in the export folder named after the event
// and the email.
func (s *SendStatusScreen) defaultExportPath() string {
	name := slug(s.eventName) + "-" + slug(s.et.Name) + "-send-status.csv"
	if s.filtered() || s.table.FilterText() != "" {
		name = strings.TrimSuffix(name, ".csv") + "-filtered.csv"
	}
	return filepath.Join(s.opts.dir, name)
}

func (s *SendStatusScreen) openExport() tea.Cmd {
	path := new(string)
	*path = s.defaultExportPath()
	what := "all " + ui.Count(len(s.recs), "recipient")
	if len(s.recs) == 1 {
		what = "the 1 recipient"
	}
	if s.filtered() || s.table.FilterText() != "" {
		what = "the " + ui.Count(s.table.VisibleLen(), "recipient") + " shown"
	}
	if s.loading {
		what = "the recipients shown so far" // more arrive until it is written
	}
	// One short description line: huh v2.0.3 hides the input line under a
	// description that wraps.
	f := ui.NewForm(s.Ctx.Theme, "Export "+what+" to CSV",
		func() tea.Cmd {
			return s.Dialog.Replace(s.Ctx.Theme, strings.TrimSpace(*path), func() tea.Cmd { return s.startExport(*path) })
		},
		huh.NewGroup(
			huh.NewInput().Title("Save as").Description("Relative to the current folder.").
				Value(path).Validate(checkExportPath),
		))
	return s.Dialog.ShowForm(f)
}

// checkExportPath accepts a file path whose folder exists.
func checkExportPath(p string) error {
	p = strings.TrimSpace(p)
	if p == "" {
		return errors.New("enter a file name, for example send-status.csv")
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a folder; add a file name", p)
	}
	dir := filepath.Dir(p)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("folder %s does not exist", dir)
	}
	return nil
}

// exportRows picks the recipients shown, in the order shown: the table
// applies the status and reason filters, its text filter and its sort.
func (s *SendStatusScreen) exportRows() []int32 {
	at := make(map[string]int32, len(s.recs))
	for i, r := range s.recs {
		at[api.NormalizeEmail(r.email)] = int32(i)
	}
	out := make([]int32, 0, s.table.VisibleLen())
	for row := range s.table.Shown() {
		if i, ok := at[row.ID]; ok {
			out = append(out, i)
		}
	}
	return out
}

func (s *SendStatusScreen) startExport(path string) tea.Cmd {
	abs, err := filepath.Abs(strings.TrimSpace(path))
	if err != nil {
		return ui.Fail("Export", err)
	}
	// The slice only grows by appending and its elements never change: this
	// header stays valid while more pages arrive.
	recs, picked := s.recs, s.exportRows()
	partial := s.loading
	return s.export.Detached(func() tea.Msg {
		// Private to the user (0600): the file holds people's addresses.
		err := atomicfile.Write(abs, 0o600, func(w io.Writer) error { return writeCSV(w, recs, picked) })
		return exportDoneMsg{path: abs, n: len(picked), partial: partial, err: err}
	})
}

func (s *SendStatusScreen) onExported(m exportDoneMsg) tea.Cmd {
	if m.err != nil {
		return ui.Fail("Export", m.err)
	}
	text := "Exported " + ui.Count(m.n, "recipient") + " to " + m.path
	if m.partial {
		text += " (the list was still loading)"
	}
	return ui.Toast(ui.ToastSuccess, text)
}

// writeCSV writes the picked recipients with the API's values: status and
// reason words as the API sends them, sent_utc in RFC 3339.
func writeCSV(w io.Writer, recs []sendRec, picked []int32) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ExportHeader); err != nil {
		return err
	}
	line := make([]string, len(ExportHeader))
	for _, i := range picked {
		r := recs[i]
		line[0], line[1], line[2], line[3], line[4] = r.email, r.name, "", "", ""
		if r.unlisted != nil { // another word, as received
			line[2], line[3] = r.unlisted.status, r.unlisted.reason
		}
		if r.status > 0 {
			line[2] = api.SendStatuses[r.status-1].Value
		}
		if r.reason > 0 && r.reason != otherReason {
			line[3] = api.FailureReasons[r.reason-1].Value
		}
		if r.sent != 0 {
			line[4] = time.Unix(r.sent, 0).UTC().Format(time.RFC3339)
		}
		if err := cw.Write(sanitize.CSVRow(line)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
