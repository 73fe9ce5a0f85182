package scancode

import (
	"strconv"
	"strings"
)

// notPreferred ranks an EMAIL line without a preference; vCard 4's PREF
// runs from 1 (most preferred) to 100.
const notPreferred = 101

// readVCard reads the first vCard in s (which starts with BEGIN:VCARD): the
// most preferred EMAIL that is an address, ties going to the first.
func readVCard(s string) (Scan, string) {
	lines, ended := vcardLines(s)
	if !ended {
		return Scan{}, "a vCard without an END:VCARD line (cut short, or its line breaks lost?)"
	}
	best, bestRank := Scan{}, notPreferred+1
	firstProblem := ""
	for _, l := range lines {
		name, params, value, ok := vcardProperty(l)
		if !ok || !strings.EqualFold(name, "EMAIL") {
			continue
		}
		value = unescapeVCard(value)
		if strings.TrimSpace(value) == "" {
			continue
		}
		rank := emailRank(params)
		if rank >= bestRank {
			continue
		}
		sc, why := emailScan(value, VCard)
		if sc.Kind == None {
			if firstProblem == "" {
				firstProblem = why
			}
			continue
		}
		best, bestRank = sc, rank
	}
	switch {
	case best.Kind != None:
		return best, ""
	case firstProblem != "":
		return Scan{}, firstProblem
	}
	return Scan{}, "a vCard without an EMAIL line"
}

// vcardLines unfolds the lines of the first vCard in s (CRLF, LF or CR
// ends; a line starting with a space or tab continues the one before) and
// returns them up to END:VCARD (BEGIN:VCARD first), and whether it came.
func vcardLines(s string) (lines []string, ended bool) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	begin, rest, _ := strings.Cut(s, "\n")
	var cur strings.Builder
	cur.WriteString(begin) // BEGIN:VCARD, kept with the rest: harmless
	for l := range strings.SplitSeq(rest, "\n") {
		if l != "" && (l[0] == ' ' || l[0] == '\t') {
			cur.WriteString(l[1:]) // a folded line continues the one before
			continue
		}
		done := cur.String()
		if isEndVCard(done) {
			return lines, true
		}
		lines = append(lines, done)
		cur.Reset()
		cur.WriteString(l)
	}
	return lines, isEndVCard(cur.String())
}

func isEndVCard(l string) bool { return strings.EqualFold(strings.TrimSpace(l), "END:VCARD") }

// vcardProperty splits "group.NAME;PARAM=x;PARAM:value" at the first colon
// outside double quotes. The group is dropped; params keeps the raw
// parameters.
func vcardProperty(l string) (name string, params []string, value string, ok bool) {
	quoted := false
	colon := -1
	for i := 0; i < len(l) && colon < 0; i++ {
		switch l[i] {
		case '"':
			quoted = !quoted
		case ':':
			if !quoted {
				colon = i
			}
		}
	}
	if colon < 0 {
		return "", nil, "", false
	}
	parts := splitUnquoted(l[:colon], ';')
	name = strings.TrimSpace(parts[0])
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name, parts[1:], l[colon+1:], true
}

// splitUnquoted splits s at sep outside double quotes.
func splitUnquoted(s string, sep byte) []string {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case sep:
			if !quoted {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// emailRank is an EMAIL line's preference: PREF=n (vCard 4) gives n;
// TYPE=pref (vCard 3) or a bare PREF (vCard 2.1) gives 1; else notPreferred.
func emailRank(params []string) int {
	rank := notPreferred
	for _, p := range params {
		key, val, hasVal := strings.Cut(strings.TrimSpace(p), "=")
		switch {
		case !hasVal && strings.EqualFold(key, "PREF"):
			rank = min(rank, 1)
		case strings.EqualFold(key, "PREF"):
			if n, err := strconv.Atoi(strings.Trim(val, `"`)); err == nil && n >= 1 && n <= 100 {
				rank = min(rank, n)
			}
		case strings.EqualFold(key, "TYPE"):
			for t := range strings.SplitSeq(strings.Trim(val, `"`), ",") {
				if strings.EqualFold(strings.TrimSpace(t), "pref") {
					rank = min(rank, 1)
				}
			}
		}
	}
	return rank
}

// unescapeVCard undoes a vCard text value's escapes: \, \; \\ and \n.
func unescapeVCard(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			if v[i] == 'n' || v[i] == 'N' {
				b.WriteByte('\n')
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// readMECARD reads the fields after "MECARD:": NAME:value pairs separated by
// semicolons, a backslash escaping the next character. The first EMAIL field
// that holds something is taken.
func readMECARD(body string) (Scan, string) {
	var field strings.Builder
	for i := 0; i <= len(body); i++ {
		if i < len(body) && body[i] == '\\' && i+1 < len(body) {
			i++
			field.WriteByte(body[i])
			continue
		}
		if i < len(body) && body[i] != ';' {
			field.WriteByte(body[i])
			continue
		}
		name, value, _ := strings.Cut(field.String(), ":")
		field.Reset()
		if strings.EqualFold(strings.TrimSpace(name), "EMAIL") && strings.TrimSpace(value) != "" {
			return emailScan(value, MECARD)
		}
	}
	return Scan{}, "a MECARD without an EMAIL field"
}
