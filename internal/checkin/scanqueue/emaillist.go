package scanqueue

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// EmailList is what a list of emails to check in held.
type EmailList struct {
	Emails []string
	Lines  []int // the line of each email
	Bad    []BadLine
}

// BadLine is a line of a list that holds no email address, and why.
type BadLine struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// emailHeaders are the column names taken for the email column of a CSV.
var emailHeaders = []string{"email", "e-mail", "email address", "email_address", "emailaddress", "mail"}

// ParseEmailList reads one email per line, or a CSV with a header row naming
// an email column. Blank lines and lines starting with # are skipped; every
// other line that holds no email address is reported with its number.
func ParseEmailList(data []byte) *EmailList {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	in := &EmailList{}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	first := -1
	for i, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			first = i
			break
		}
	}
	if first < 0 {
		return in
	}
	if col, ok := csvEmailColumn(lines[first]); ok {
		parseCSV(in, data, col)
		return in
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		in.add(i+1, t)
	}
	return in
}

func (in *EmailList) add(line int, text string) {
	if err := api.CheckEmail(api.NormalizeEmail(text)); err != nil {
		in.Bad = append(in.Bad, BadLine{Line: line, Text: text, Reason: err.Error()})
		return
	}
	in.Emails = append(in.Emails, text)
	in.Lines = append(in.Lines, line)
}

// csvEmailColumn finds the email column in a header line.
func csvEmailColumn(header string) (int, bool) {
	if !strings.ContainsAny(header, ",;\t") {
		return 0, false
	}
	r := csv.NewReader(strings.NewReader(header))
	r.Comma = detectComma(header)
	fields, err := r.Read()
	if err != nil {
		return 0, false
	}
	for i, f := range fields {
		if slices.Contains(emailHeaders, strings.ToLower(strings.TrimSpace(f))) {
			return i, true
		}
	}
	return 0, false
}

// detectComma picks the separator a header line uses most.
func detectComma(header string) rune {
	best, n := ',', strings.Count(header, ",")
	for _, c := range []rune{';', '\t'} {
		if k := strings.Count(header, string(c)); k > n {
			best, n = c, k
		}
	}
	return best
}

func parseCSV(in *EmailList, data []byte, col int) {
	text := string(data)
	header := text
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		header = text[:i]
	}
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = detectComma(header)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.TrimLeadingSpace = true
	r.Comment = '#'
	headerSeen := false
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				in.Bad = append(in.Bad, BadLine{Line: pe.Line, Reason: pe.Err.Error()})
				continue
			}
			in.Bad = append(in.Bad, BadLine{Line: line, Reason: err.Error()})
			return
		}
		if !headerSeen {
			headerSeen = true
			continue
		}
		if strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue
		}
		if col >= len(rec) {
			in.Bad = append(in.Bad, BadLine{Line: line, Text: strings.Join(rec, string(r.Comma)),
				Reason: fmt.Sprintf("has %d fields; the email column is field %d", len(rec), col+1)})
			continue
		}
		line, _ = r.FieldPos(col)
		in.add(line, strings.TrimSpace(rec[col]))
	}
}
