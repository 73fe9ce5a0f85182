package checkin

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scancode"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/walkin"
	"github.com/evdesk/evdesk/ui"
)

// kind is what the desk knows about one scan.
type kind int

const (
	kindSaving        kind = iota // entered; the journal has not answered yet
	kindPending                   // journaled; not yet answered by the server
	kindCheckedIn                 // the server checked the attendee in
	kindAlready                   // this desk had the attendee already
	kindRejected                  // the server refused the attendee
	kindInvalid                   // names nobody (scancode refused it); nothing recorded
	kindNotRecorded               // the journal failed; nothing recorded
	kindUnknownTicket             // a ticket the roster does not list; nothing recorded
	kindNoRoster                  // a ticket, and no roster to look it up; nothing recorded
)

// entry is one line of the recent scans, and the result box for the latest.
type entry struct {
	key   string // placeholder key while saving, then the scan id
	id    string // scan id; "" until journaled and for refused input
	at    time.Time
	email string // normalised, or the input as typed when refused
	kind  kind
	msg   string
	// What the roster said at Enter: the person (nil when not on it, or
	// no roster), its verdict, and when the roster was taken.
	person   *roster.Person
	expect   scanqueue.Expect
	rosterAt time.Time
	// earlier: from the journal, before this desk opened (the result box
	// shows this desk session's scans only).
	earlier bool
	// The ticket scanned (nil for an email in any form) and the form the
	// scan came in.
	ticket *roster.Ticket
	form   scancode.Form
	// headline is what a refused scan was, for the result box's second
	// line ("read \"...\": ..."); msg then says what to do.
	headline string
	// walk is the walk-in this entry registers (kindWalkIn), or came from.
	walk *walkin.Walkin
	// What the desk drew of it: its time of day (at does not change), who
	// it is (personText) and its line of the recent scans.
	whenText string
	drawnWho *whoDrawn
	drawn    *recentDrawn
}

// whoDrawn is an entry's personText and what it was made from: a walk-in
// gets its person from the roster once checked in.
type whoDrawn struct {
	person *roster.Person
	ticket *roster.Ticket
	text   string
}

// who is personText(e), made again only when the entry's person or ticket
// changed (a Person is never changed in place).
func (e *entry) who() string {
	if w := e.drawnWho; w == nil || w.person != e.person || w.ticket != e.ticket {
		e.drawnWho = &whoDrawn{person: e.person, ticket: e.ticket, text: personText(*e)}
	}
	return e.drawnWho.text
}

// when is the entry's time of day, formatted once; blanks when it has
// none.
func (e *entry) when(local *time.Location) string {
	switch {
	case e.at.IsZero():
		return "        "
	case e.whenText == "":
		e.whenText = clock(e.at, local)
	}
	return e.whenText
}

// disagrees: the server's answer contradicts the roster's.
func (e entry) disagrees() bool {
	return (e.expect == scanqueue.ExpectUnknown && e.kind == kindCheckedIn) ||
		(e.expect == scanqueue.ExpectRegistered && e.kind == kindRejected)
}

// byRoster names the roster an answer comes from: "by roster, updated 09:12".
func (e entry) byRoster(local *time.Location) string {
	return "by roster, updated " + e.rosterAt.In(local).Format("15:04")
}

// role is the colour and border family of a result.
type role int

const (
	roleOK role = iota
	roleWarn
	roleErr
	roleInfo
)

// verdict is an entry in words: a word mark that reads without colour, an
// ASCII mark, the role and a line of detail.
type verdict struct {
	mark, word, detail string
	role               role
}

// conn sums the sender's state for the verdicts of pending scans.
type conn struct {
	known   bool
	st      scanqueue.Status
	pending int
	// reached: the server answered this desk (a listing or a send);
	// probeErr: the desk's first request failed.
	reached  bool
	probeErr error
	// upstream names the venue's desk that sends this desk's scans, while
	// the desk works with its venue ("" otherwise).
	upstream string
}

func (c conn) online() bool {
	return !c.known || (c.st.Online && c.st.State != scanqueue.Blocked && c.st.State != scanqueue.Stopped &&
		c.st.State != scanqueue.Unwritable)
}

// describe words an entry; it takes pointers, as the recent scans are
// described in every frame.
func describe(e *entry, c *conn, local *time.Location) verdict {
	switch e.kind {
	case kindSaving:
		return verdict{mark: "..", word: "SAVING", role: roleInfo,
			detail: "writing the scan to this computer's journal"}
	case kindPending:
		return describePending(*e, *c, local)
	case kindCheckedIn:
		v := verdict{mark: "OK", word: "CHECKED IN", role: roleOK, detail: "the server confirmed the check-in"}
		if e.disagrees() {
			v.role = roleWarn
			v.detail = "the server checked them in, though the roster (updated " + e.rosterAt.In(local).Format("15:04") +
				") did not list them"
		}
		return v
	case kindAlready:
		return verdict{mark: "==", word: "ALREADY CHECKED IN", role: roleWarn, detail: e.msg}
	case kindRejected:
		word := "REJECTED"
		if strings.Contains(strings.ToLower(e.msg), "not registered") {
			word = "NOT REGISTERED"
		}
		v := verdict{mark: "!!", word: word, role: roleErr, detail: "server: " + e.msg}
		if e.disagrees() {
			v.detail += " (the roster, updated " + e.rosterAt.In(local).Format("15:04") + ", lists them)"
		}
		return v
	case kindInvalid:
		return verdict{mark: "XX", word: "NOT RECOGNISED", role: roleErr, detail: e.msg}
	case kindUnknownTicket:
		return verdict{mark: "XX", word: "UNKNOWN TICKET", role: roleErr, detail: e.msg}
	case kindNoRoster:
		return verdict{mark: "..", word: "ROSTER NOT READY", role: roleWarn, detail: e.msg}
	case kindWalkIn:
		return describeWalkIn(*e, *c)
	default:
		return verdict{mark: "XX", word: "NOT RECORDED", role: roleErr, detail: e.msg}
	}
}

// describePending words a scan on disk that the server has not answered:
// while the server cannot confirm, the roster answers.
func describePending(e entry, c conn, local *time.Location) verdict {
	held := c.known && (c.st.State == scanqueue.Blocked || c.st.State == scanqueue.Stopped || c.st.State == scanqueue.Refused ||
		c.st.State == scanqueue.Unwritable)
	if e.expect == scanqueue.ExpectUnknown && (held || !c.online()) {
		return verdict{mark: "!?", word: "NOT REGISTERED", role: roleWarn,
			detail: e.byRoster(local) + "; saved, and the server will have the last word when it answers"}
	}
	// The person line under the word says "registered" from the roster;
	// while the server cannot confirm, the detail says where that is from.
	registered := ""
	if e.expect == scanqueue.ExpectRegistered {
		registered = e.byRoster(local) + "; "
	}
	switch {
	case held:
		return verdict{mark: "..", word: "QUEUED, NOT SENDING", role: roleWarn,
			detail: registered + "saved here; the server refuses check-ins for now (see the top line)"}
	case c.online():
		v := verdict{mark: ">>", word: "RECORDED, SENDING", role: roleInfo,
			detail: "saved on this computer; sending to the server"}
		if c.upstream != "" {
			v.detail = "saved here and at the venue's desks; " + c.upstream + " sends it to the server"
		}
		if e.expect == scanqueue.ExpectUnknown {
			v.detail = "not on the roster (updated " + e.rosterAt.In(local).Format("15:04") + "); saved, the server decides"
		}
		return v
	}
	return verdict{mark: "..", word: "QUEUED OFFLINE", role: roleWarn,
		detail: fmt.Sprintf("%ssaved here; sent when the server answers (%d waiting)", registered, c.pending)}
}

// failed reports whether an entry is a failure (the bell rings).
func (e entry) failed() bool {
	switch e.kind {
	case kindInvalid, kindRejected, kindNotRecorded, kindUnknownTicket, kindNoRoster:
		return true
	case kindWalkIn:
		return e.walk != nil && e.walk.State == walkin.Refused
	}
	return false
}

// refused reports whether an entry named nobody to check in.
func (e entry) refused() bool {
	return e.kind == kindInvalid || e.kind == kindUnknownTicket || e.kind == kindNoRoster
}

// entryFromScan describes a journaled scan.
func entryFromScan(sc scanqueue.Scan, earlier time.Time, local *time.Location) entry {
	e := entry{key: sc.ID, id: sc.ID, at: sc.At, email: sc.Email, msg: sc.Message, expect: sc.Expect}
	switch sc.Outcome {
	case scanqueue.Pending:
		e.kind = kindPending
	case scanqueue.CheckedIn:
		e.kind = kindCheckedIn
	case scanqueue.Already:
		e.kind = kindAlready
		if !earlier.IsZero() {
			e.msg += "; first scanned " + clock(earlier, local)
		}
	default:
		e.kind = kindRejected
		if e.msg == "" {
			e.msg = "refused by the server"
		}
	}
	return e
}

func clock(t time.Time, local *time.Location) string { return t.In(local).Format("15:04:05") }

// connWords renders the sender's state: a word badge and a detail.
func connWords(c conn, now time.Time, local *time.Location) (role, string, string) {
	st := c.st
	if c.known {
		switch st.State {
		case scanqueue.Offline:
			return roleErr, "OFFLINE", offlineReason(st.LastError) + "; " + retryWords(c, now, local)
		case scanqueue.Throttled:
			return roleWarn, "SLOWED DOWN", "the server asked to wait; next try " + ui.ClockAt(st.RetryAt, now, local)
		case scanqueue.Blocked:
			return roleErr, "NOT SENDING", errText(st.LastError)
		case scanqueue.Refused:
			// The message first, the hint short: the retry is automatic.
			return roleErr, "SERVER REFUSED THE BATCH", "server: " + serverSaid(st.LastError) + "; kept, ctrl+r retries"
		case scanqueue.Unwritable:
			// Short: it must fit beside the count at 80 columns.
			return roleErr, unwritableWord(st.LastError), "answers held; auto-retry " +
				ui.ClockAt(st.RetryAt, now, local) + " (ctrl+r: now)"
		case scanqueue.Stopped:
			return roleErr, "STOPPED", errText(st.LastError) + "; close and reopen the desk"
		}
	}
	if !c.reached && st.LastSent.IsZero() {
		if c.probeErr != nil {
			return roleWarn, "NO ANSWER", offlineReason(c.probeErr) + "; scans are kept and sent once it answers"
		}
		return roleInfo, "CONNECTING", ""
	}
	if c.known && st.State == scanqueue.Sending {
		return roleOK, "ONLINE", fmt.Sprintf("sending %d", st.InFlight)
	}
	return roleOK, "ONLINE", ""
}

// retryWords says when an offline sender tries again ("" when it is not
// offline): the part of the connection line that must stay in view.
func retryWords(c conn, now time.Time, local *time.Location) string {
	if !c.known || c.st.State != scanqueue.Offline {
		return ""
	}
	return "next try " + ui.ClockAt(c.st.RetryAt, now, local) + " (ctrl+r: now)"
}

// unwritableWord names why the journal cannot record: a full disk, or
// another failure to write.
func unwritableWord(err error) string {
	if scanqueue.DiskFull(err) {
		return "DISK FULL"
	}
	return "CANNOT SAVE"
}

// offlineReason names an outage without the volatile parts of the error
// (addresses, ports).
func offlineReason(err error) string {
	switch { // the server answered, but past a bound of the client
	case errors.Is(err, api.ErrListingBudget):
		return "a listing over its budget (max_listing_mb)"
	case errors.Is(err, api.ErrEndlessListing):
		return "a listing that never ends"
	case errors.Is(err, api.ErrResponseTooLarge):
		return "an answer over max_response_mb"
	}
	var ae *api.Error
	if errors.As(err, &ae) && ae.Status > 0 {
		return fmt.Sprintf("the server answered %d", ae.Status)
	}
	var ue *api.UnreachableError
	if errors.As(err, &ue) { // why; E and the log name the address
		return "cannot reach the server (" + ue.Cause + ")"
	}
	return "cannot reach the server"
}

// serverSaid is the server's own message when it gave one (the status is
// in the word beside it), else the whole error.
func serverSaid(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) && strings.TrimSpace(ae.Message) != "" {
		return ui.OneLine(ae.Message)
	}
	return errText(err)
}

func errText(err error) string {
	if err == nil {
		return "no reason given"
	}
	return err.Error()
}

// badge is the theme's word-mark style for a role.
func badge(t *ui.Theme, r role) lipgloss.Style {
	switch r {
	case roleOK:
		return t.SuccessBadge
	case roleWarn:
		return t.WarningBadge
	case roleErr:
		return t.ErrorBadge
	}
	return t.InfoBadge
}

// text is the theme's text style for a role.
func text(t *ui.Theme, r role) lipgloss.Style {
	switch r {
	case roleOK:
		return t.Success
	case roleWarn:
		return t.Warning
	case roleErr:
		return t.Error
	}
	return t.Info
}

// border tells results apart without colour: double for success, thick for
// failure, plain for the rest.
func border(r role) lipgloss.Border {
	switch r {
	case roleOK:
		return lipgloss.DoubleBorder()
	case roleErr:
		return lipgloss.ThickBorder()
	}
	return lipgloss.NormalBorder()
}
