package checkin

import (
	"fmt"

	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// venueInfo is the desk's venue now, or nil for a desk without one.
func venueInfo(v *venue.Desk) *venue.Info {
	vn := v.Venue()
	if vn == nil {
		return nil
	}
	in := vn.Info()
	return &in
}

// connWords is the connection's word and detail: the venue's while the
// desk works with it (it sends nothing itself then), else the sender's.
func (d *Desk) connWords() (role, string, string) {
	in := d.vinfo
	if in == nil || in.State == "alone" {
		r, word, detail := connWords(d.conn(), d.deps.Now(), d.deps.Local)
		if in != nil {
			detail = "cut off from the venue, working alone" + prefixTo(detail)
		}
		return r, word, detail
	}
	name := sanitize.Line(in.Name)
	if in.State == "joining" {
		return roleInfo, "JOINING VENUE", "looking for the other desks of " + name + "; scans are kept here"
	}
	up := "choosing the desk that sends upstream"
	if in.Upstream != "" {
		up = "upstream " + sanitize.Line(in.Upstream)
	}
	return roleOK, "MESHED", fmt.Sprintf("%s, %d desks · %s", name, len(in.Desks), up)
}

func prefixTo(detail string) string {
	if detail == "" {
		return ""
	}
	return "; " + detail
}
