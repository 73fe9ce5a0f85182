package scancode

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/evdesk/evdesk/api"
)

const simLink = "https://events.vendor.example/qr?t=UASe4Eg74boZ"

// TestRead covers every accepted form and the refusals a desk will meet.
// A case with want.Kind None expects an error containing err.
func TestRead(t *testing.T) {
	ticket := func(id string, f Form) Scan { return Scan{Kind: TicketID, Value: id, Form: f} }
	email := func(a string, f Form) Scan { return Scan{Kind: Email, Value: a, Form: f} }
	linked := func(id, link string) Scan { s := ticket(id, TicketLink); s.Link = link; return s }
	const ann = "ann@example.org"
	tests := []struct {
		name string
		in   string
		want Scan
		err  string
	}{
		// Plain emails.
		{"email", ann, email(ann, PlainEmail), ""},
		{"email in capitals, spaced, with the scanner's CRLF", "  Ann@Example.ORG\r\n", email(ann, PlainEmail), ""},
		{"all capitals is an email, not a ticket id", "ANN@EXAMPLE.ORG", email(ann, PlainEmail), ""},
		{"byte-order mark", "\uFEFFann@example.org", email(ann, PlainEmail), ""},
		{"tagged address", "ann+desk@example.org", email("ann+desk@example.org", PlainEmail), ""},
		{"ticket-shaped local part is an email", "UASe4Eg74boZ@example.org", email("uase4eg74boz@example.org", PlainEmail), ""},
		{"no dot in the domain", "ann@example", Scan{}, `read "ann@example": it is not an email address (the domain needs a dot, as in example.org); expected ` + Expected},
		{"longer than an address can be", strings.Repeat("a", 250) + "@example.org", Scan{}, "it is 262 characters long; an email address has at most 254"},
		{"two @", "ann@@example.org", Scan{}, "it is not an email address"},
		{"space inside", "ann smith@example.org", Scan{}, "is not an email address"},
		{"NUL", "ann\x00@example.org", Scan{}, "control character"},
		{"escape sequence", "\x1b[31mann@example.org", Scan{}, "control character"},
		{"invalid UTF-8", "ann\xff@example.org", Scan{}, "not valid UTF-8"},

		// mailto: links.
		{"mailto", "mailto:ann@example.org", email(ann, Mailto), ""},
		{"mailto in capitals with subject", "MAILTO:Ann@Example.org?subject=Hello%20there&body=See+you", email(ann, Mailto), ""},
		{"mailto percent-encoded", "mailto:ann%40example%2Eorg", email(ann, Mailto), ""},
		{"mailto with to= only", "mailto:?to=ann%40example.org&subject=hi", email(ann, Mailto), ""},
		{"mailto naming one person twice", "mailto:ann@example.org?To=ANN@example.org", email(ann, Mailto), ""},
		{"mailto tag kept literally", "mailto:?to=ann+desk@example.org", email("ann+desk@example.org", Mailto), ""},
		{"mailto cc is not who checks in", "mailto:ann@example.org?cc=bob@example.org", email(ann, Mailto), ""},
		{"mailto://", "mailto://ann@example.org", email(ann, Mailto), ""},
		{"mailto with two addresses", "mailto:ann@example.org,bob@example.org", Scan{}, "a mailto link with several addresses; the desk checks in one person at a time"},
		{"mailto with a second in to=", "mailto:ann@example.org?to=bob@example.org", Scan{}, "several addresses"},
		{"mailto without an address", "mailto:?subject=hi", Scan{}, "a mailto link without an address"},
		{"mailto with a broken escape", "mailto:ann%zz@example.org", Scan{}, "broken %-escape"},
		{"mailto with a bad address", "mailto:ann", Scan{}, "the address in this mailto link is not an email address"},

		// vCards.
		{"vCard 3, CRLF", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Ann;;;\r\nFN:Ann Doe\r\nEMAIL;TYPE=INTERNET:Ann@Example.org\r\nEND:VCARD\r\n",
			email(ann, VCard), ""},
		{"vCard LF, first of two", "BEGIN:VCARD\nVERSION:3.0\nEMAIL;TYPE=work:ann@example.org\nEMAIL;TYPE=home:ann@home.example\nEND:VCARD",
			email(ann, VCard), ""},
		{"vCard CR only", "BEGIN:VCARD\rVERSION:3.0\rEMAIL:ann@example.org\rEND:VCARD", email(ann, VCard), ""},
		{"vCard TYPE=pref wins", "BEGIN:VCARD\nEMAIL;TYPE=home:ann@home.example\nEMAIL;TYPE=INTERNET,PREF:ann@example.org\nEND:VCARD",
			email(ann, VCard), ""},
		{"vCard 4 lowest PREF wins", "BEGIN:VCARD\nVERSION:4.0\nEMAIL;PREF=2:ann@home.example\nEMAIL;PREF=1:ann@example.org\nEMAIL:x@y.example\nEND:VCARD",
			email(ann, VCard), ""},
		{"vCard 2.1 bare PREF", "BEGIN:VCARD\nVERSION:2.1\nEMAIL;INTERNET:ann@home.example\nEMAIL;INTERNET;PREF:ann@example.org\nEND:VCARD",
			email(ann, VCard), ""},
		{"vCard folded line, grouped property", "BEGIN:VCARD\r\nVERSION:3.0\r\nitem1.EMAIL;TYPE=\"INTERNET,WORK\":ann@exam\r\n ple.org\r\nEND:VCARD",
			email(ann, VCard), ""},
		{"two vCards: the first is read", "BEGIN:VCARD\nEMAIL:ann@example.org\nEND:VCARD\nBEGIN:VCARD\nEMAIL:bob@example.org\nEND:VCARD", email(ann, VCard), ""},
		{"vCard with a colon in a quoted parameter", "BEGIN:VCARD\nEMAIL;X-NOTE=\"a:b\";PREF=1:ann@example.org\nEND:VCARD", email(ann, VCard), ""},
		{"vCard in lower case", "begin:vcard\nemail:ann@example.org\nend:vcard", email(ann, VCard), ""},
		{"vCard skips an invalid EMAIL", "BEGIN:VCARD\nEMAIL;PREF=1:not an address\nEMAIL:ann@example.org\nEND:VCARD", email(ann, VCard), ""},
		{"vCard without EMAIL", "BEGIN:VCARD\nVERSION:3.0\nFN:Ann Doe\nEMAIL ann@example.org\nTEL:+1 555 0100\nEND:VCARD", Scan{}, "a vCard without an EMAIL line"},
		{"vCard with an empty EMAIL", "BEGIN:VCARD\nEMAIL:\nEND:VCARD", Scan{}, "a vCard without an EMAIL line"},
		{"vCard cut short", "BEGIN:VCARD\nVERSION:3.0\nEMAIL:ann@example.org", Scan{}, "a vCard without an END:VCARD line"},
		{"vCard with its line breaks lost", "BEGIN:VCARD VERSION:3.0 EMAIL:ann@example.org END:VCARD", Scan{}, "line breaks lost"},
		{"vCard with a bad EMAIL only", "BEGIN:VCARD\nEMAIL:ann\\nbob@example.org\nEND:VCARD", Scan{}, "the address in this vCard is not an email address"},

		// MECARDs.
		{"MECARD", "MECARD:N:Doe,Ann;TEL:5550100;EMAIL:ann@example.org;;", email(ann, MECARD), ""},
		{"MECARD with escapes", `mecard:N:Doe\;Jr\:,Ann;NOTE:a\\b\;EMAIL:x@y.example;EMAIL:Ann@Example.org;;`, email(ann, MECARD), ""},
		{"MECARD without EMAIL", "MECARD:N:Doe,Ann;TEL:5550100;;", Scan{}, "a MECARD without an EMAIL field"},
		{"MECARD with a bad EMAIL", "MECARD:N:Ann;EMAIL:ann;;", Scan{}, "the address in this MECARD is not an email address"},

		// Links with email=.
		{"email link", "https://badges.example.com/checkin?x=1&email=Ann%40Example.org", email(ann, EmailLink), ""},
		{"email link over http, tag kept", "http://b.example/c?EMAIL=ann+desk@example.org", email("ann+desk@example.org", EmailLink), ""},
		{"email link with two addresses", "https://b.example/?email=ann@example.org&email=bob@example.org", Scan{}, "a link with several email= addresses"},
		{"email link with a bad address", "https://b.example/?email=nobody", Scan{}, "the address in this email link is not an email address"},

		// Ticket links.
		{"the simulator's QR link", simLink, linked("UASe4Eg74boZ", simLink), ""},
		{"scheme, host and name in capitals", "HTTPS://EVENTS.X.EXAMPLE/qr?T=UASe4Eg74boZ", linked("UASe4Eg74boZ", "HTTPS://EVENTS.X.EXAMPLE/qr?T=UASe4Eg74boZ"), ""},
		{"ticket=", "http://tix.example/a?ticket=AB-12.x_y~z", linked("AB-12.x_y~z", "http://tix.example/a?ticket=AB-12.x_y~z"), ""},
		{"ticket_id=", "https://tix.example/?ticket_id=1234567", linked("1234567", "https://tix.example/?ticket_id=1234567"), ""},
		{"/qr/<id>", "https://tix.example/e/9/qr/UASe4Eg74boZ/", linked("UASe4Eg74boZ", "https://tix.example/e/9/qr/UASe4Eg74boZ/"), ""},
		{"ticket named twice alike", "https://tix.example/qr/UASe4Eg74boZ?t=UASe4Eg74boZ", linked("UASe4Eg74boZ", "https://tix.example/qr/UASe4Eg74boZ?t=UASe4Eg74boZ"), ""},
		{"ticket beats email=", "https://tix.example/qr?email=ann@example.org&t=UASe4Eg74boZ", linked("UASe4Eg74boZ", "https://tix.example/qr?email=ann@example.org&t=UASe4Eg74boZ"), ""},
		{"no Link for a link with non-ASCII", "https://tix.example/é?t=UASe4Eg74boZ", ticket("UASe4Eg74boZ", TicketLink), ""},
		{"link without t=", "https://events.vendor.example/qr", Scan{}, "a link without a ticket (t=, ticket=, ticket_id= or /qr/<id>) or an email= address"},
		{"link with t= empty", "https://events.vendor.example/qr?t=", Scan{}, "a ticket link with an empty ticket id"},
		{"link with /qr/ empty", "https://events.vendor.example/qr/", Scan{}, "a link without a ticket"},
		{"link naming two tickets", "https://tix.example/qr?t=UASe4Eg74boZ&ticket=Zzzz9999aaaa", Scan{}, "a link naming several tickets"},
		{"ticket id with markup", "https://tix.example/qr?t=%3Cb%3E", Scan{}, "a ticket link whose id is not letters, digits and . _ ~ - (at most 64)"},
		{"ticket id too long", "https://tix.example/qr?t=" + strings.Repeat("a", 65), Scan{}, "at most 64"},
		{"link without a host", "https:///qr?t=UASe4Eg74boZ", Scan{}, "a link that does not parse"},
		{"link with a control character", "https://tix.example/qr?t=UASe4Eg74boZ\x7f", Scan{}, "a link that does not parse"},
		{"other scheme", "ftp://tix.example/qr?t=UASe4Eg74boZ", Scan{}, `read "ftp://tix.example/qr?t=UASe4Eg74boZ"; expected ` + Expected},

		// Bare ticket ids.
		{"simulator ticket id", "UASe4Eg74boZ", ticket("UASe4Eg74boZ", BareTicket), ""},
		{"ticket id trimmed", " UASe4Eg74boZ\n", ticket("UASe4Eg74boZ", BareTicket), ""},
		{"all digits", "1234567", ticket("1234567", BareTicket), ""},
		{"20 mixed", "aB3dE5gH7jK9mN1pQ3sT", ticket("aB3dE5gH7jK9mN1pQ3sT", BareTicket), ""},
		{"letters in mixed case", "kQwErTyzXp", ticket("kQwErTyzXp", BareTicket), ""},
		{"random letters in one case", "lfpqiseafwnb", ticket("lfpqiseafwnb", BareTicket), ""},
		{"random capitals", "YQOHWYUWFDJE", ticket("YQOHWYUWFDJE", BareTicket), ""},
		{"a word", "hello", Scan{}, `read "hello"; expected ` + Expected},
		{"a long word", "registration", Scan{}, "expected " + Expected},
		{"a capitalised word", "Registration", Scan{}, "expected " + Expected},
		{"a word with y for a vowel", "Rhythmic", Scan{}, "expected " + Expected},
		{"a word in capitals", "ATTENDEE", Scan{}, "expected " + Expected},
		{"too short", "ab12", Scan{}, "expected " + Expected},
		{"too long", strings.Repeat("aB3", 11), Scan{}, "expected " + Expected},
		{"with a dash", "UASe-4Eg74boZ", Scan{}, "expected " + Expected},

		// Nothing, and too much.
		{"empty", "", Scan{}, "nothing was read; expected " + Expected},
		{"only space", " \r\n\t", Scan{}, "nothing was read"},
		{"10 kB paste", strings.Repeat("x", 10240), Scan{}, `read "` + strings.Repeat("x", 47) + `…": too long to be a badge (10240 bytes); expected ` + Expected},
		{"megabytes of vCard", "BEGIN:VCARD\n" + strings.Repeat("EMAIL:ann@example.org\n", 100000) + "END:VCARD", Scan{}, "too long to be a badge (2200021 bytes)"},
		{"just over the cap", strings.Repeat("a", MaxBytes+1), Scan{}, "too long to be a badge (4097 bytes)"},
		{"long garbage is shortened", strings.Repeat("zz ", 1000), Scan{}, `read "` + strings.Repeat("zz ", 15) + `zz…"; expected`},
		{"garbage with escapes, each shown as a placeholder", "\x1b]0;owned\x07\x00\x1b[2J", Scan{}, "read \"\ufffd\ufffd\ufffd\"; expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(tt.in)
			if got != tt.want {
				t.Errorf("Read(%.80q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if tt.want.Kind != None {
				if err != nil {
					t.Errorf("Read(%.80q) error %v", tt.in, err)
				}
				return
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("Read(%.80q) error %v, want an *Error", tt.in, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.err) {
				t.Errorf("Read(%.80q) error\n %s\nwant it to contain\n %s", tt.in, msg, tt.err)
			}
			if !strings.HasSuffix(msg, "expected "+Expected) || hasControl(msg) {
				t.Errorf("error %q does not end with what is expected or holds control characters", msg)
			}
			if se.Size != len(tt.in) || utf8.RuneCountInString(se.Read) > shownRunes {
				t.Errorf("error %+v: size or shown text wrong", se)
			}
		})
	}
}

// TestUnfinished: a scanner that types each line break as Enter delivers a
// vCard a line at a time; the desk waits until END:VCARD has come.
func TestUnfinished(t *testing.T) {
	lines := []string{"BEGIN:VCARD", "VERSION:3.0", "EMAIL;TYPE=INTERNET:Ann@Example.org", "END:VCARD"}
	typed := ""
	for i, l := range lines {
		if i > 0 {
			typed += "\n"
		}
		typed += l
		if want := i < len(lines)-1; Unfinished(typed) != want {
			t.Fatalf("Unfinished(%q) = %v, want %v", typed, !want, want)
		}
	}
	if sc, err := Read(typed); err != nil || sc.Value != "ann@example.org" {
		t.Fatalf("Read(%q) = %+v, %v", typed, sc, err)
	}
	for _, s := range []string{"", "ann@example.org", "MECARD:EMAIL:a@b.example;;", simLink, "begin:vcard\nend:vcard",
		"BEGIN:VCARD\n" + strings.Repeat("x", MaxBytes)} {
		if Unfinished(s) {
			t.Errorf("Unfinished(%.40q) = true", s)
		}
	}
}

func TestNames(t *testing.T) {
	for v, want := range map[interface{ String() string }]string{
		None: "nothing", Email: "email", TicketID: "ticket id",
		NoForm: "unknown", PlainEmail: "email", Mailto: "mailto link", VCard: "vCard", MECARD: "MECARD",
		EmailLink: "email link", TicketLink: "ticket link", BareTicket: "ticket id",
	} {
		if got := v.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", v, got, want)
		}
	}
}

// FuzzRead: whatever is typed, Read answers without panicking, the same way
// twice, with a value safe for a screen and an email the client accepts.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"ann@example.org", "  Ann@Example.ORG\r\n", "mailto:ann%40example.org?subject=x&to=ann@example.org",
		"BEGIN:VCARD\r\nEMAIL;TYPE=INTERNET,PREF:ann@exam\r\n ple.org\r\nEND:VCARD", "MECARD:N:Doe\\;Ann;EMAIL:ann@example.org;;",
		"https://b.example/?email=ann+x@example.org", simLink, "https://t.example/qr/UASe4Eg74boZ/", "UASe4Eg74boZ",
		"hello", "\x1b[31m\x00\xff", "https://t.example/qr?t=&t=a&ticket=%zz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Read(in)
		again, err2 := Read(in)
		if got != again || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("Read(%q) not deterministic: %+v %v / %+v %v", in, got, err, again, err2)
		}
		if err != nil {
			var se *Error
			if got != (Scan{}) || !errors.As(err, &se) || hasControl(err.Error()) || !utf8.ValidString(err.Error()) {
				t.Fatalf("Read(%q) = %+v, %q", in, got, err)
			}
			return
		}
		if got.Value == "" || hasControl(got.Value) || hasControl(got.Link) || got.Form == NoForm {
			t.Fatalf("Read(%q) = %+v", in, got)
		}
		switch got.Kind {
		case Email:
			if api.CheckEmail(got.Value) != nil || got.Value != api.NormalizeEmail(got.Value) {
				t.Fatalf("Read(%q) gave email %q", in, got.Value)
			}
		case TicketID:
			if strings.Contains(got.Value, "@") || !isLinkTicket(got.Value) {
				t.Fatalf("Read(%q) gave ticket %q", in, got.Value)
			}
		default:
			t.Fatalf("Read(%q) = %+v with no error", in, got)
		}
	})
}

// BenchmarkRead reads each form, and a 10 kB paste, which is refused by its
// size before anything else looks at it.
func BenchmarkRead(b *testing.B) {
	vcard := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Doe\r\nEMAIL;TYPE=INTERNET:ann@example.org\r\nEND:VCARD"
	nearCap := "BEGIN:VCARD\n" + strings.Repeat("NOTE:"+strings.Repeat("x", 60)+"\n", 61) + "EMAIL:ann@example.org\nEND:VCARD"
	if sc, err := Read(nearCap); err != nil || len(nearCap) > MaxBytes-20 || sc.Value != "ann@example.org" {
		b.Fatalf("the vCard near the cap (%d bytes) reads as %+v, %v", len(nearCap), sc, err)
	}
	for _, bc := range []struct{ name, in string }{
		{"email", "Ann@Example.org"},
		{"ticket link", simLink},
		{"ticket id", "UASe4Eg74boZ"},
		{"vCard", vcard},
		{"vCard near the cap", nearCap},
		{"link with 1000 params", "https://b.example/?" + strings.Repeat("a=b&", 1000) + "t=UASe4Eg74boZ"},
		{"mailto with 290 addresses", "mailto:" + strings.Repeat("a%40b.example,", 290)},
		{"10 kB paste", strings.Repeat("Ann@Example.org ", 640)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				_, _ = Read(bc.in)
			}
		})
	}
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}
