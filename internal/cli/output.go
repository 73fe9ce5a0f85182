package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// outputFormat is the -o flag. Each command states the formats it offers.
type outputFormat struct {
	value   string
	allowed []string
}

// newOutput builds the flag value with its default first in allowed.
func newOutput(allowed ...string) *outputFormat {
	return &outputFormat{value: allowed[0], allowed: allowed}
}

func (o *outputFormat) String() string { return o.value }
func (o *outputFormat) Type() string   { return strings.Join(o.allowed, "|") }
func (o *outputFormat) Set(v string) error {
	if !slices.Contains(o.allowed, v) {
		return fmt.Errorf("%q is not an output format; use %s", v, strings.Join(o.allowed, ", "))
	}
	o.value = v
	return nil
}

// writeRows prints a header and rows as an aligned table or as CSV. Cells
// come from the server: each passes the sanitiser (one line for the table;
// formula-safe for CSV).
func (o *outputFormat) writeRows(w io.Writer, header []string, rows [][]string) error {
	if o.value == "csv" {
		cw := csv.NewWriter(w)
		if err := cw.Write(header); err != nil {
			return err
		}
		for _, r := range rows {
			if err := cw.Write(sanitize.CSVRow(r)); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(sanitize.Lines(r), "\t"))
	}
	return tw.Flush()
}

// writeJSON prints v as indented JSON: faithful data, with the characters a
// terminal could act on written as \u escapes.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(sanitize.JSON(buf.Bytes()))
	return err
}
