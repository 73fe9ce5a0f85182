package checkin

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scancode"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// refusal is the entry for a scan that names nobody to check in: a ticket
// the roster cannot answer, or text scancode does not read. Nothing of it
// is journaled: the journal holds check-ins to send by email, and such a
// scan has no email; the operator's remedy (the search, the person's
// email, a scan once the roster is in) is at hand.
func refusal(at time.Time, typed string, err error, rs venue.RosterState, local *time.Location) entry {
	e := entry{at: at, email: typed, kind: kindInvalid, msg: err.Error()}
	var ut *roster.UnknownTicket
	var se *scancode.Error
	switch {
	case errors.As(err, &ut):
		e.email, e.form = "ticket "+ut.ID, ut.Form
		switch {
		case !ut.Updated.IsZero():
			e.kind, e.headline = kindUnknownTicket, ut.Words(local)
			e.msg = "nothing was sent: find them with ctrl+f, or type their email"
		case rs.Refused && !rs.Loading:
			e.kind, e.headline = kindNoRoster, "ticket "+ut.ID+" cannot be looked up: the desk works by email only"
			e.msg = roster.EmailOnly + ": type or scan their email instead"
		case rs.Err != nil && !rs.Loading:
			e.kind, e.headline = kindNoRoster, "ticket "+ut.ID+" cannot be looked up: no roster yet"
			e.msg = "the roster could not be downloaded (" + offlineReason(rs.Err) + "); type their email instead"
		default:
			e.kind, e.headline = kindNoRoster, "ticket "+ut.ID+" cannot be looked up yet"
			e.msg = "the roster is still loading; scan again in a moment"
		}
	case errors.As(err, &se):
		// What was read on the box's second line; what is expected below.
		e.headline = se.Reason
		if se.Read != "" {
			e.headline = fmt.Sprintf("read %q", se.Read)
			if se.Reason != "" {
				e.headline += ": " + se.Reason
			}
		}
		e.msg = "expected " + scancode.Expected
	}
	return e
}

// scanText says which ticket was scanned and how the scan came, for the
// result box: "ticket UASe4Eg74boZ · SPEAKER · via ticket link", or "via
// vCard" for an email that came in a card. Empty for a plain email.
func scanText(e entry) string {
	var parts []string
	if e.ticket != nil {
		parts = append(parts, "ticket "+roster.ShortID(e.ticket.ID))
		if e.ticket.Role != "" {
			parts = append(parts, sanitize.Line(e.ticket.Role))
		}
	}
	if e.form != scancode.NoForm && e.form != scancode.PlainEmail {
		parts = append(parts, "via "+e.form.String())
	}
	return strings.Join(parts, " · ")
}

// takeLine is what one Enter hands over for reading. A scanner that types a
// vCard's line breaks as Enter sends it a line at a time: the lines are
// kept until END:VCARD (scancode.Unfinished), then read together. A line
// that cannot belong to a vCard (an email, a link, a new card) ends the
// one being kept: that card is read as it is (and refused as cut short),
// so a broken card never swallows the scans after it. It appends what is
// ready to lines.
func (d *Desk) takeLine(lines []string, raw string) []string {
	if d.card == nil {
		if scancode.Unfinished(raw) {
			d.card = []string{raw}
			return lines
		}
		return append(lines, raw)
	}
	if !continuesCard(raw) {
		cut := strings.Join(d.card, "\n")
		d.card = nil
		return d.takeLine(append(lines, cut), raw)
	}
	d.card = append(d.card, raw)
	joined := strings.Join(d.card, "\n")
	if scancode.Unfinished(joined) {
		return lines
	}
	d.card = nil
	return append(lines, joined)
}

// continuesCard reports whether line can be a vCard's next line: a folded
// line (starting with a space or tab) or NAME[;PARAMS]:value, where NAME is
// no link's scheme and the line is not a new BEGIN:VCARD.
func continuesCard(line string) bool {
	if line != "" && (line[0] == ' ' || line[0] == '\t') {
		return true
	}
	t := strings.TrimSpace(line)
	name, _, ok := strings.Cut(t, ":")
	if !ok || name == "" || strings.ContainsAny(name, " @/") {
		return false
	}
	switch strings.ToLower(name) {
	case "http", "https", "mailto", "mecard":
		return false
	}
	return !strings.EqualFold(t, "BEGIN:VCARD")
}

// cardVerdict is the result box while a vCard's lines are coming.
func (d *Desk) cardVerdict() verdict {
	return verdict{mark: "..", word: "READING A VCARD", role: roleInfo,
		detail: fmt.Sprintf("%d lines so far; waiting for END:VCARD (esc discards it)", len(d.card))}
}
