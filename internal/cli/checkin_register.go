package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/walkin"
)

// registerSource is the registration source of people `evdesk checkin
// --register-unknown` registers (at most 16 characters).
const registerSource = "evdesk checkin"

// registerUnknown registers the list's addresses that the event's
// registrants (downloaded now) do not hold, with ticketType ("" is the
// event's default), before the list is checked in: what a desk's walk-in
// does, for a file. An address the server refuses leaves the list as a bad
// line with the server's reason, so it is never checked in. It returns how
// many people it registered.
func registerUnknown(ctx context.Context, s *session, eventID, sessionID, ticketType string, in *scanqueue.EmailList, stderr io.Writer) (int, error) {
	if len(in.Emails) == 0 {
		return 0, nil
	}
	// A ticket type that is not the event's is a mistake even when
	// everyone on the list is registered.
	if ticketType != "" {
		var err error
		if ticketType, err = resolveTicketType(ctx, s.client, eventID, ticketType); err != nil {
			return 0, fmt.Errorf("--ticket-type: %w", err)
		}
	}
	// Who is registered is read fresh: a cache could make a registered
	// person look unknown and register them twice.
	ro, err := roster.Download(ctx, s.client, eventID, time.Now, nil)
	if err != nil {
		return 0, fmt.Errorf("--register-unknown: cannot tell who is registered: %w; nothing was registered or checked in", err)
	}
	var unknown []string
	for _, e := range in.Emails {
		if _, ok := ro.ByEmail(e); !ok && !slices.Contains(unknown, e) {
			unknown = append(unknown, e)
		}
	}
	if len(unknown) == 0 {
		return 0, nil
	}
	dir, err := checkinDir(s)
	if err != nil {
		return 0, err
	}
	setup, err := walkin.LoadSetup(ctx, s.client, dir, eventID, time.Now())
	if err != nil {
		return 0, fmt.Errorf("--register-unknown: read the event's access link: %w", err)
	}
	var sessions []string
	if setup.NeedsSessions() {
		if sessionID == "" {
			return 0, fmt.Errorf("--register-unknown: the event's access link registers people for chosen sessions (%s): give --session", setup.Option)
		}
		sessions = []string{sessionID}
	}
	req := &api.TicketsRequest{RegistrationSource: registerSource, Option: setup.Option}
	for _, e := range unknown {
		req.Tickets = append(req.Tickets, api.BuildTickets(setup.Option, api.TicketRequest{Email: e, TicketTypeID: ticketType}, sessions)...)
	}
	res, err := s.client.Registration.CreateTickets(ctx, eventID, req)
	if err != nil {
		made := 0
		if res != nil {
			made = len(res.Tickets)
		}
		why := "nothing was checked in"
		if errors.Is(err, api.ErrOutcomeUnknown) {
			why += "; check the registrants before running again"
		}
		return 0, fmt.Errorf("--register-unknown: registering %d unknown addresses failed after %s: %w; %s",
			len(unknown), plural(made, "ticket"), err, why)
	}
	refused := map[string]string{}
	for _, e := range res.Errors {
		why := strings.TrimSuffix(e.Meaning(), ".")
		if e.ErrorCode != "" {
			why += " (" + e.ErrorCode + ")"
		}
		refused[api.NormalizeEmail(e.Email)] = why
	}
	if len(refused) > 0 {
		var keep scanqueue.EmailList
		keep.Bad = in.Bad
		for i, e := range in.Emails {
			if why, ok := refused[e]; ok {
				keep.Bad = append(keep.Bad, scanqueue.BadLine{Line: in.Lines[i], Text: e, Reason: e + " was not registered: " + why + "; not checked in"})
				continue
			}
			keep.Emails, keep.Lines = append(keep.Emails, e), append(keep.Lines, in.Lines[i])
		}
		slices.SortStableFunc(keep.Bad, func(a, b scanqueue.BadLine) int { return a.Line - b.Line })
		*in = keep
	}
	n := len(unknown) - len(refused)
	if n > 0 {
		fmt.Fprintf(stderr, "Registered %d unknown addresses before checking them in.\n", n)
	}
	return n, nil
}

// register is the import's Register for --register-unknown (nil without).
func (o *checkinOptions) register(s *session) func(context.Context, *scanqueue.EmailList) (int, error) {
	if !o.RegisterUnknown {
		return nil
	}
	return func(ctx context.Context, in *scanqueue.EmailList) (int, error) {
		return registerUnknown(ctx, s, o.EventID, o.SessionID, o.TicketType, in, o.IO.ErrOut)
	}
}
