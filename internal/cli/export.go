package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"
	"text/tabwriter"
	"text/template"
	"text/template/parse"
	"time"
	"unicode"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// The output formats a command may offer.
const (
	formatTable = "table"
	formatJSON  = "json"
	formatCSV   = "csv"
)

// exporter is a command's output: -o (the formats it offers, the default
// first), and with json, --jq and --template (gh's flags): every command
// writes through one, so a format, a filter or a header style is decided
// here once.
type exporter struct {
	allowed  []string
	format   string
	jq       string
	template string
}

// newExporter is an exporter with formats, the default first; it is bound
// to a command's flags by addFlags.
func newExporter(formats ...string) *exporter {
	return &exporter{allowed: formats, format: formats[0]}
}

// addExporter adds -o (and, when json is offered, --jq and --template) to
// cmd and returns the exporter they set.
func addExporter(cmd *cobra.Command, formats ...string) *exporter {
	e := newExporter(formats...)
	e.addFlags(cmd)
	return e
}

func (e *exporter) addFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.VarP((*formatValue)(e), "output", "o", "output format: "+orList(e.allowed))
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(e.allowed, cobra.ShellCompDirectiveNoFileComp))
	if slices.Contains(e.allowed, formatJSON) {
		fl.StringVarP(&e.jq, "jq", "q", "", "filter the JSON output with a jq `EXPRESSION` (implies -o json)")
		fl.StringVarP(&e.template, "template", "t", "", "format the JSON output with a Go `TEMPLATE` (implies -o json)")
		_ = cmd.RegisterFlagCompletionFunc("jq", cobra.NoFileCompletions)
		_ = cmd.RegisterFlagCompletionFunc("template", cobra.NoFileCompletions)
	}
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := e.check(c); err != nil {
			return err
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// formatValue is the -o flag.
type formatValue exporter

func (v *formatValue) String() string { return v.format }
func (v *formatValue) Type() string   { return "format" }
func (v *formatValue) Set(s string) error {
	if !slices.Contains(v.allowed, s) {
		return fmt.Errorf("%q is not an output format here; use %s", s, orList(v.allowed))
	}
	v.format = s
	return nil
}

// check settles the format once the flags are parsed: --jq and --template
// mean json, and do not go with each other or another -o.
func (e *exporter) check(cmd *cobra.Command) error {
	if e.jq == "" && e.template == "" {
		return nil
	}
	if e.jq != "" && e.template != "" {
		return flagErrorf("--jq and --template do not go together: use one")
	}
	if cmd.Flags().Changed("output") && e.format != formatJSON {
		return flagErrorf("--jq and --template filter JSON: leave -o out or use -o json, not -o %s", e.format)
	}
	e.format = formatJSON
	return nil
}

// Is reports whether the chosen format is f.
func (e *exporter) Is(f string) bool { return e.format == f }

// rows is what a command prints as a table or as CSV. Headers are written
// in capitals for a table (START (UTC)) and in snake case for CSV
// (start_utc): one style each. A row built for CSV holds full dates and
// raw values; for a table, words a person reads.
type rows struct {
	header []string
	cells  [][]string
}

// rowsFunc builds the rows for a table (csv false) or for CSV (csv true).
type rowsFunc func(csv bool) rows

// Write prints data in the chosen format: json (filtered by --jq or
// --template) from data, table or CSV from rowsOf.
func (e *exporter) Write(w io.Writer, data any, rowsOf rowsFunc) error {
	switch e.format {
	case formatJSON:
		return e.writeJSON(w, data)
	case formatCSV:
		return writeCSV(w, rowsOf(true))
	}
	return writeTable(w, rowsOf(false))
}

// WriteText prints data as JSON (filtered), or with text for any other
// format: for answers that read better as sentences than as a table.
func (e *exporter) WriteText(w io.Writer, data any, text func(io.Writer) error) error {
	if e.format == formatJSON {
		return e.writeJSON(w, data)
	}
	return text(w)
}

// writeJSON prints data as JSON: indented and faithful by default, through
// --jq or --template when given.
func (e *exporter) writeJSON(w io.Writer, data any) error {
	switch {
	case e.jq != "":
		return runJQ(w, e.jq, data)
	case e.template != "":
		return runTemplate(w, e.template, data)
	}
	return writeJSON(w, data)
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

// writeTable prints aligned columns. Cells are never cut: a table piped to
// a file holds every character; each cell is sanitised to one line.
func writeTable(w io.Writer, r rows) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(r.header, "\t"))
	for _, c := range r.cells {
		fmt.Fprintln(tw, strings.Join(sanitize.Lines(c), "\t"))
	}
	return tw.Flush()
}

// writeCSV prints a snake-case header and the rows, each cell made safe to
// open in a spreadsheet.
func writeCSV(w io.Writer, r rows) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader(r.header)); err != nil {
		return err
	}
	for _, c := range r.cells {
		if err := cw.Write(sanitize.CSVRow(c)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvHeader turns table headers (FIRST SEEN HERE, START (UTC)) into CSV's
// snake case (first_seen_here, start_utc).
func csvHeader(header []string) []string {
	out := make([]string, len(header))
	for i, h := range header {
		words := strings.FieldsFunc(strings.ToLower(h), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		out[i] = strings.Join(words, "_")
	}
	return out
}

// exportStream prints items as they arrive: JSON as a streamed array and
// CSV row by row, so a 100,000-item listing needs no more memory than a
// page; a table, --jq and --template need the whole list first.
func exportStream[T any](e *exporter, w io.Writer, items iter.Seq2[T, error], header []string, row func(T, bool) []string) error {
	switch {
	case e.format == formatJSON && e.jq == "" && e.template == "":
		return streamJSON(w, items)
	case e.format == formatCSV:
		cw := csv.NewWriter(w)
		if err := cw.Write(csvHeader(header)); err != nil {
			return err
		}
		for it, err := range items {
			if err != nil {
				cw.Flush()
				return err
			}
			if err := cw.Write(sanitize.CSVRow(row(it, true))); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	all := []T{}
	for it, err := range items {
		if err != nil {
			return err
		}
		all = append(all, it)
	}
	return e.Write(w, all, func(csv bool) rows {
		r := rows{header: header}
		for _, it := range all {
			r.cells = append(r.cells, row(it, csv))
		}
		return r
	})
}

// streamJSON writes a JSON array of items as they arrive.
func streamJSON[T any](w io.Writer, items iter.Seq2[T, error]) error {
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	first := true
	for it, err := range items {
		if err != nil {
			return err
		}
		b, err := json.Marshal(it)
		if err != nil {
			return err
		}
		sep := ",\n  "
		if first {
			sep, first = "\n  ", false
		}
		if _, err := w.Write(sanitize.JSON(append([]byte(sep), b...))); err != nil {
			return err
		}
	}
	end := "\n]\n"
	if first {
		end = "]\n"
	}
	_, err := io.WriteString(w, end)
	return err
}

// plainJSON turns v into the plain values (maps, slices, strings, float64
// or int numbers, bools, nil) that jq and templates work on, through its
// JSON form: a filter sees exactly what -o json prints.
func plainJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return numbers(out), nil
}

// numbers replaces json.Number with int where whole, float64 otherwise
// (gojq's types), so ids stay exact.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && int64(int(i)) == i {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	}
	return v
}

// runJQ prints the results of a jq expression on data, one a line: strings
// raw (as jq -r), anything else as compact JSON.
func runJQ(w io.Writer, expr string, data any) error {
	q, err := gojq.Parse(expr)
	if err != nil {
		return flagErrorf("--jq %q: %v", expr, err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return flagErrorf("--jq %q: %v", expr, err)
	}
	in, err := plainJSON(data)
	if err != nil {
		return err
	}
	iter := code.Run(in)
	for {
		v, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := v.(error); ok {
			if h, ok := err.(*gojq.HaltError); ok && h.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %w", err)
		}
		// Strings raw, as jq -r (@tsv keeps its tabs): the output stream's
		// sanitiser removes what a terminal could act on.
		var line []byte
		if s, ok := v.(string); ok {
			line = []byte(s)
		} else if line, err = gojq.Marshal(v); err != nil {
			return err
		} else {
			line = sanitize.JSON(line)
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
}

// templateFuncs are the helpers a --template may call, after gh's.
var templateFuncs = template.FuncMap{
	"join": func(sep string, list []any) string {
		parts := make([]string, len(list))
		for i, v := range list {
			parts[i] = fmt.Sprint(v)
		}
		return strings.Join(parts, sep)
	},
	"pluck": func(field string, list []any) []any {
		var out []any
		for _, v := range list {
			if m, ok := v.(map[string]any); ok {
				out = append(out, m[field])
			}
		}
		return out
	},
	// timefmt formats an RFC 3339 time with a Go layout.
	"timefmt": func(layout string, v any) (string, error) {
		s, _ := v.(string)
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return "", fmt.Errorf("timefmt: %q is not an RFC 3339 time", s)
		}
		return t.Format(layout), nil
	},
	"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	},
	"upper": strings.ToUpper,
	"lower": strings.ToLower,
}

// runTemplate prints data through a Go template, as gh's --template does.
// A template fails whole: nothing is printed from a half-run one.
func runTemplate(w io.Writer, text string, data any) error {
	t, err := template.New("--template").Funcs(templateFuncs).Funcs(template.FuncMap{blankFunc: blankMissing}).
		Option("missingkey=zero").Parse(text)
	if err != nil {
		return flagErrorf("--template: %v", err)
	}
	for _, tt := range t.Templates() {
		if tt.Tree != nil {
			printBlanks(tt.Root)
		}
	}
	in, err := plainJSON(data)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, in); err != nil {
		return fmt.Errorf("--template: %w", err)
	}
	_, err = w.Write(buf.Bytes()) // the output stream's sanitiser cleans it
	return err
}

// blankFunc is the name printBlanks pipes every printed value through.
const blankFunc = "evdeskBlankMissing"

// blankMissing prints a key the answer lacks (JSON leaves empty fields
// out) or a null as nothing, where text/template would print "<no value>".
func blankMissing(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// printBlanks ends each pipeline the template prints with blankMissing,
// in every branch and loop of the tree.
func printBlanks(n parse.Node) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			printBlanks(c)
		}
	case *parse.ActionNode:
		if len(n.Pipe.Decl) == 0 { // {{$x := ...}} prints nothing
			n.Pipe.Cmds = append(n.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand,
				Args: []parse.Node{parse.NewIdentifier(blankFunc).SetTree(nil).SetPos(n.Pos)}})
		}
	case *parse.IfNode:
		printBlanks(n.List)
		printBlanks(n.ElseList)
	case *parse.RangeNode:
		printBlanks(n.List)
		printBlanks(n.ElseList)
	case *parse.WithNode:
		printBlanks(n.List)
		printBlanks(n.ElseList)
	}
}

// rowsOf is rows from a header and cells.
func rowsOf(header []string, cells [][]string) rows { return rows{header: header, cells: cells} }

// fullTime is a time as CSV and JSON carry it: RFC 3339 in UTC, "" when unknown.
func fullTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
