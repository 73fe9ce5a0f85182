package scancode

import (
	"fmt"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// MaxBytes is the most Read examines. The largest QR code holds 2,953 bytes
// of text (or 7,089 digits) and no badge or ticket comes near that, so
// longer text is a paste, not a badge.
const MaxBytes = 4096

// Expected is what the desk can scan, in the words its messages use.
const Expected = "an email, a ticket QR code or a ticket id"

// Kind is what a scan identifies.
type Kind int

const (
	None     Kind = iota // nothing usable (Read returned an error)
	Email                // Scan.Value is an address to check in
	TicketID             // Scan.Value is a ticket id to look up
)

func (k Kind) String() string {
	switch k {
	case Email:
		return "email"
	case TicketID:
		return "ticket id"
	}
	return "nothing"
}

// Form is how the scanned text carried its value, for the desk to show.
type Form int

const (
	NoForm     Form = iota
	PlainEmail      // ann@example.org
	Mailto          // mailto:ann@example.org?subject=...
	VCard           // BEGIN:VCARD ... EMAIL:... END:VCARD
	MECARD          // MECARD:N:...;EMAIL:...;;
	EmailLink       // https://.../...?email=ann@example.org
	TicketLink      // https://events.vendor.example/qr?t=<id>
	BareTicket      // <id>
)

func (f Form) String() string {
	switch f {
	case PlainEmail:
		return "email"
	case Mailto:
		return "mailto link"
	case VCard:
		return "vCard"
	case MECARD:
		return "MECARD"
	case EmailLink:
		return "email link"
	case TicketLink:
		return "ticket link"
	case BareTicket:
		return "ticket id"
	}
	return "unknown"
}

// Scan is what a scanner's text identifies.
type Scan struct {
	Kind  Kind
	Value string // an email trimmed and in lower case, or a ticket id as read
	Form  Form
	// Link is the ticket link as read (trimmed) when Form is TicketLink and
	// the link is printable ASCII, for matching a registrant's qr_code_url
	// whole: a provider's QR link may name the ticket in a token rather
	// than in t=.
	Link string
}

// Read classifies what a barcode scanner typed. A nil error comes with an
// Email or a TicketID scan; an error is an *Error and comes with the zero Scan.
func Read(raw string) (Scan, error) {
	if len(raw) > MaxBytes {
		return Scan{}, &Error{Read: shown(raw), Size: len(raw), Reason: fmt.Sprintf("too long to be a badge (%d bytes)", len(raw))}
	}
	s := trim(raw)
	var sc Scan
	var why string
	switch {
	case s == "":
		return Scan{}, &Error{Size: len(raw), Reason: "nothing was read"}
	case hasPrefixFold(s, "BEGIN:VCARD"):
		sc, why = readVCard(s)
	case hasPrefixFold(s, "MECARD:"):
		sc, why = readMECARD(s[len("MECARD:"):])
	case hasPrefixFold(s, "mailto:"):
		sc, why = readMailto(s[len("mailto:"):])
	case hasPrefixFold(s, "http://"), hasPrefixFold(s, "https://"):
		sc, why = readLink(s)
	case strings.Contains(s, "@"):
		sc, why = emailScan(s, PlainEmail)
	case isTicketID(s):
		sc = Scan{Kind: TicketID, Value: s, Form: BareTicket}
	}
	if sc.Kind == None {
		return Scan{}, &Error{Read: shown(s), Size: len(raw), Reason: why}
	}
	return sc, nil
}

// Unfinished reports whether typed is the start of a vCard whose END:VCARD
// line has not come yet. A scanner that types each line break as Enter sends
// a vCard one line at a time: the desk keeps the lines, joined with "\n",
// until this turns false, then reads them together.
func Unfinished(typed string) bool {
	if len(typed) > MaxBytes {
		return false // Read refuses it as too long
	}
	s := trim(typed)
	if !hasPrefixFold(s, "BEGIN:VCARD") {
		return false
	}
	_, ended := vcardLines(s)
	return !ended
}

// emailScan takes candidate as an address carried in form, or says why not.
// The check runs before lower-casing too, which would turn bytes that are not
// UTF-8 into U+FFFD and hide them.
func emailScan(candidate string, form Form) (Scan, string) {
	c := strings.TrimSpace(candidate)
	err := api.CheckEmail(c)
	if n := api.NormalizeEmail(c); err == nil && n != c { // most scans are normalised already: checked
		c = n
		err = api.CheckEmail(c)
	}
	if err != nil {
		what := "it"
		if form != PlainEmail {
			what = "the address in this " + form.String()
		}
		return Scan{}, what + " " + emailProblem(c, err)
	}
	return Scan{Kind: Email, Value: c, Form: form}, ""
}

// emailProblem is api.CheckEmail's reason without the address it quotes
// (the error shows what was read already): "is not an email address (the
// domain needs a dot, as in example.org)".
func emailProblem(addr string, err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, fmt.Sprintf("%q ", addr)); ok {
		return rest
	}
	if strings.HasPrefix(msg, "is ") {
		return msg // "is required", "is 300 characters long; ..."
	}
	return "is not an email address"
}

// trim drops surrounding space and a byte-order mark (a scanner that
// types a file's text may send one).
func trim(raw string) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(raw), "\uFEFF"))
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
