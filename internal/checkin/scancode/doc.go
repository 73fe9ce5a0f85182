// Package scancode answers one question: what did the barcode scanner type?
// A desk scanner types whatever its code holds and presses Enter; Read turns
// that text into an email address to check in or a ticket id to look up, and
// refuses everything else in words a desk operator can act on.
//
// Read accepts, after trimming surrounding space (and a byte-order mark):
//
//   - an email address, in any case: Ann@Example.ORG reads as ann@example.org.
//     Validity is the client's own rule (api.CheckEmail).
//   - a mailto: link (the scheme in any case), with percent-encoding and
//     ?subject=... or other header fields; an address may also come in a to=
//     field (cc= and bcc= are not the person at the desk). Exactly one
//     address is taken: a link naming two people is refused, since checking
//     in either would be a guess; the same address twice is one.
//   - a vCard (BEGIN:VCARD ... END:VCARD, any version) with CRLF, LF or CR
//     line ends and folded lines. Of several EMAIL lines the most preferred
//     valid one is taken (PREF=n, TYPE=pref or a bare PREF parameter), else
//     the first valid one. A vCard without END:VCARD is refused as cut short;
//     Unfinished tells a desk whose scanner types each line break as Enter
//     to wait for the rest.
//   - a MECARD (MECARD:N:Doe,Ann;EMAIL:ann@example.org;;) with backslash
//     escapes; the first EMAIL field that holds something is taken.
//   - an http(s) link, any host, with an email= query parameter (one).
//     In the query of any link a '+' stays a '+' (ann+desk@example.org):
//     an address never holds a space.
//   - a ticket link: an http(s) link, any host, whose query has t=, ticket=
//     or ticket_id= (names in any case), or whose path ends in /qr/<id>. The
//     simulator's QR codes read https://events.<word>.example/qr?t=<id>. A link
//     with both a ticket and an email= names the ticket. The id keeps its case;
//     it may hold letters, digits and . _ ~ - (at most 64). The link itself is
//     kept in Scan.Link, so a roster can also match it against the
//     registrants' qr_code_url.
//   - a bare ticket id: 6 to 32 letters and digits that do not read as a
//     word. Ids are random draws from [A-Za-z0-9] (the simulator's are 12
//     characters), so they mix cases and digits; letters alone, in one case
//     or one capital then lower case ("Registration"), with a vowel (or y)
//     in every four letters, are taken for a word and refused. About 1 in
//     70,000 of the simulator's ids has that shape: its ticket link still
//     reads.
//
// Anything else is refused with an *Error that shows what was read (made safe
// for a terminal and shortened) and what the desk expects. Read examines at
// most MaxBytes bytes: no code a scanner reads is longer, so anything longer
// is refused at once whatever it holds, and Read's time is bounded.
package scancode
