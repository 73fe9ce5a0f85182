package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
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

// writeRows prints a header and rows as an aligned table or as CSV.
func (o *outputFormat) writeRows(w io.Writer, header []string, rows [][]string) error {
	if o.value == "csv" {
		cw := csv.NewWriter(w)
		if err := cw.Write(header); err != nil {
			return err
		}
		if err := cw.WriteAll(rows); err != nil {
			return err
		}
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
