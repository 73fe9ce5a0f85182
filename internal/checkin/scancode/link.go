package scancode

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// readMailto reads the part of a mailto: link after the scheme: addresses
// separated by commas, then ?name=value header fields, of which to= adds
// addresses.
func readMailto(rest string) (Scan, string) {
	rest = strings.TrimPrefix(rest, "//") // mailto://ann@example.org, seen in the wild
	to, header, _ := strings.Cut(rest, "?")
	var addrs []string
	add := func(list string) {
		for a := range strings.SplitSeq(list, ",") {
			if a = strings.TrimSpace(a); a != "" {
				addrs = addDistinct(addrs, strings.ToLower(a))
			}
		}
	}
	if dec, err := url.PathUnescape(to); err == nil {
		add(dec)
	} else {
		return Scan{}, "a mailto link with a broken %-escape"
	}
	for k, vs := range badgeQuery(header) {
		if strings.EqualFold(k, "to") {
			for _, v := range vs {
				add(v)
			}
		}
	}
	switch len(addrs) {
	case 0:
		return Scan{}, "a mailto link without an address"
	case 1:
		return emailScan(addrs[0], Mailto)
	}
	return Scan{}, "a mailto link with several addresses; the desk checks in one person at a time"
}

// badgeQuery parses a link's query, '+' taken literally: addresses use it
// for tags (ann+desk@example.org) and never hold a space, and ticket ids
// hold neither. Pairs that do not decode are left out.
func badgeQuery(raw string) url.Values {
	q, _ := url.ParseQuery(strings.ReplaceAll(raw, "+", "%2B"))
	return q
}

// ticketParams are the query names that carry a ticket id in a link.
var ticketParams = []string{"t", "ticket", "ticket_id"}

// maxLinkTicket is the longest ticket id a link may carry.
const maxLinkTicket = 64

// readLink reads an http(s) link: a ticket link, else a link with email=.
func readLink(s string) (Scan, string) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return Scan{}, "a link that does not parse"
	}
	q := badgeQuery(u.RawQuery)
	var tickets, emails []string
	named := false // a ticket parameter is present, perhaps empty
	for k, vs := range q {
		ticket := slices.ContainsFunc(ticketParams, func(p string) bool { return strings.EqualFold(k, p) })
		named = named || ticket
		for _, v := range vs {
			switch v = strings.TrimSpace(v); {
			case v == "":
			case ticket:
				tickets = addDistinct(tickets, v)
			case strings.EqualFold(k, "email"):
				emails = addDistinct(emails, strings.ToLower(v))
			}
		}
	}
	if id, ok := qrPathID(u.EscapedPath()); ok {
		named = true
		tickets = addDistinct(tickets, id)
	}
	switch {
	case len(tickets) > 1:
		return Scan{}, "a link naming several tickets"
	case len(tickets) == 1:
		if !isLinkTicket(tickets[0]) {
			return Scan{}, fmt.Sprintf("a ticket link whose id is not letters, digits and . _ ~ - (at most %d)", maxLinkTicket)
		}
		sc := Scan{Kind: TicketID, Value: tickets[0], Form: TicketLink}
		if isPrintableASCII(s) {
			sc.Link = s
		}
		return sc, ""
	case len(emails) > 1:
		return Scan{}, "a link with several email= addresses"
	case len(emails) == 1:
		return emailScan(emails[0], EmailLink)
	case named:
		return Scan{}, "a ticket link with an empty ticket id"
	}
	return Scan{}, "a link without a ticket (t=, ticket=, ticket_id= or /qr/<id>) or an email= address"
}

// qrPathID is the last segment of a path ending in /qr/<id>, decoded.
func qrPathID(p string) (string, bool) {
	dir, last, ok := cutLast(strings.TrimSuffix(p, "/"), "/")
	if !ok || last == "" {
		return "", false
	}
	_, parent, _ := cutLast(dir, "/")
	if !strings.EqualFold(parent, "qr") {
		return "", false
	}
	id, err := url.PathUnescape(last)
	return id, err == nil && id != ""
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return "", s, false
}

// isLinkTicket reports whether id can be a ticket id carried in a link:
// URL-safe characters only, so nothing invisible reaches a screen.
func isLinkTicket(id string) bool {
	if id == "" || len(id) > maxLinkTicket {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !isAlnum(c) && !strings.ContainsRune("._~-", rune(c)) {
			return false
		}
	}
	return true
}

// addDistinct appends v to list unless it is there already. Two distinct
// values are enough to refuse, so it keeps at most two: a scan of a thousand
// values stays linear.
func addDistinct(list []string, v string) []string {
	if len(list) >= 2 || slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// isPrintableASCII reports whether s is printable ASCII without spaces.
func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
