package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scancode"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
)

// resolveScans reads every line of a list as a desk's scanner would
// (roster.Resolve): a plain email stays itself; a mailto: link, a MECARD or
// an email= link gives its address; a ticket link or id gives its holder's
// email from the event's roster. The roster is fetched only when some line
// may be a ticket: the desks' cache while it is fresh (as a desk does), else
// a download with the api pager, and a download too when the cache does not
// list a ticket; an older cache serves when the server cannot be reached. A
// ticket the roster does not list is a bad line, with its number, and is
// never sent; so is anything else that names nobody, in scancode's words.
func resolveScans(ctx context.Context, s *session, eventID string, in *scanqueue.EmailList) {
	todo := make([]scanqueue.BadLine, 0, len(in.Emails)+len(in.Bad))
	for i, e := range in.Emails {
		todo = append(todo, scanqueue.BadLine{Line: in.Lines[i], Text: e})
	}
	var kept []scanqueue.BadLine
	for _, b := range in.Bad {
		if b.Text == "" {
			kept = append(kept, b) // a CSV line the parser could not split
			continue
		}
		todo = append(todo, b)
	}
	var rs rosterSource
	if slices.ContainsFunc(todo, func(l scanqueue.BadLine) bool { return needsRoster(l.Text) }) {
		rs = openRoster(ctx, s, eventID)
	}
	out, unknown := resolveLines(todo, rs)
	if unknown > 0 && rs.cached && rs.err == nil {
		// The cache may predate the ticket: ask the server.
		if fresh := rs.download(ctx, s, eventID); fresh.err == nil {
			out, _ = resolveLines(todo, fresh)
		}
	}
	in.Emails, in.Lines, in.Bad = out.Emails, out.Lines, append(kept, out.Bad...)
	slices.SortStableFunc(in.Bad, func(a, b scanqueue.BadLine) int { return a.Line - b.Line })
	sortByLine(in)
}

// resolveLines resolves each line through rs's roster; unknown counts the
// tickets it does not list.
func resolveLines(todo []scanqueue.BadLine, rs rosterSource) (out scanqueue.EmailList, unknown int) {
	for _, l := range todo {
		f, err := roster.Resolve(rs.ro, l.Text)
		if err == nil {
			out.Emails = append(out.Emails, f.Email)
			out.Lines = append(out.Lines, l.Line)
			continue
		}
		b := scanqueue.BadLine{Line: l.Line, Text: l.Text, Reason: err.Error()}
		var ut *roster.UnknownTicket
		if errors.As(err, &ut) {
			unknown++
			b.Text = "ticket " + ut.ID
			b.Reason = ut.Words(time.Local) + "; not sent"
			if rs.ro == nil && rs.err != nil {
				b.Reason = "ticket " + ut.ID + " cannot be looked up: the roster could not be downloaded (" +
					oneLineErr(rs.err) + "); not sent"
			}
		}
		out.Bad = append(out.Bad, b)
	}
	return out, unknown
}

// needsRoster reports whether a line may be a ticket: scancode reads it as
// one, or it is one token that could be an id the bare-id rule refuses.
func needsRoster(text string) bool {
	if sc, err := scancode.Read(text); err == nil {
		return sc.Kind == scancode.TicketID
	}
	t := strings.TrimSpace(text)
	return t != "" && len(t) <= 64 && !strings.ContainsAny(t, " \t@:/")
}

// rosterSource is the roster a run resolves tickets with.
type rosterSource struct {
	ro     *roster.Roster // nil: none at hand
	cached bool           // ro is the desks' cache, not downloaded by this run
	err    error          // why the download failed
}

// openRoster takes the desks' cached roster of the event while it is
// fresh, else downloads it (and caches it for the desks); when the download
// fails, an older cache serves.
func openRoster(ctx context.Context, s *session, eventID string) rosterSource {
	cached, _ := roster.Load(roster.CachePath(journalDir(s), eventID), eventID)
	rs := rosterSource{ro: cached, cached: cached != nil}
	if cached != nil && time.Since(cached.Updated()) < venue.DefaultRefreshEvery {
		return rs
	}
	return rs.download(ctx, s, eventID)
}

// download fetches the roster with the api pager; when that fails, rs
// stands, with the error.
func (rs rosterSource) download(ctx context.Context, s *session, eventID string) rosterSource {
	ro, err := roster.Download(ctx, s.client, eventID, time.Now, nil)
	if err != nil {
		s.log.Warn("roster download failed", "event", eventID, "cached", rs.ro != nil, "err", err)
		rs.err = fmt.Errorf("list the registrants: %w", err)
		return rs
	}
	// A desk opened later starts from it; failing to save costs nothing.
	_ = roster.Save(roster.CachePath(journalDir(s), eventID), ro)
	return rosterSource{ro: ro}
}

// sortByLine puts the list's emails back in the file's order.
func sortByLine(in *scanqueue.EmailList) {
	idx := make([]int, len(in.Emails))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return in.Lines[a] - in.Lines[b] })
	emails, lines := make([]string, len(idx)), make([]int, len(idx))
	for i, j := range idx {
		emails[i], lines[i] = in.Emails[j], in.Lines[j]
	}
	in.Emails, in.Lines = emails, lines
}
