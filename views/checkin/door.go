package checkin

import (
	"bytes"
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	badges "github.com/evdesk/evdesk/internal/checkin/badge"
	"github.com/evdesk/evdesk/internal/checkin/hook"
	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/checkin/walkin"
	"github.com/evdesk/evdesk/views"
)

// door is the runtime's share of the extras: the walk-in journal and its
// sender, the print queue and the hook. Every part is safe for concurrent
// use; nil parts are off.
type door struct {
	walkins *walkin.Journal
	walker  *walkin.Sender
	walkErr error // the walk-in journal did not open

	prints   *printing.Queue
	layout   *badges.Layout
	printErr error // why badges cannot print (no lp, a bad setting)

	hook *hook.Runner
}

// Messages of the door's background work, carried by the pump.
type (
	walkinMsg struct{ w walkin.Walkin }
	// walkinSavedMsg answers the form: the walk-in is on disk, or not.
	walkinSavedMsg struct {
		w   walkin.Walkin
		err error
	}
	setupMsg struct {
		s   walkin.Setup
		err error
	}
	printMsg struct{ job printing.Job }
	hookMsg  struct{ res hook.Result }
)

// openDoor opens the extras the deps turn on, beside the venue desk v.
func (rt *runtime) openDoor(d views.Env, v *venue.Desk, eventID, sessionID string) *door {
	x := d.Extras
	dr := &door{}
	if x.WalkIns {
		j, err := walkin.Open(d.JournalDir, eventID, sessionID, d.Now)
		if err != nil {
			dr.walkErr = err
		} else {
			dr.walkins = j
			client := d.SenderClient
			if client == nil {
				client = d.Client
			}
			o := walkin.Options{EventID: eventID, Create: client.Registration.CreateTickets, Now: d.Now,
				Roster: v.Roster, RefreshRoster: v.RefreshRoster,
				CheckIn:  func(w walkin.Walkin) (string, error) { return checkInWalkIn(v, w) },
				OnChange: func(w walkin.Walkin) { rt.pump.post(walkinMsg{w: w}) },
			}
			if h := hooksOf(d); h != nil && h.walkinSleep != nil {
				o.Sleep = h.walkinSleep
			}
			learnWalkIns(v, d.JournalDir, eventID)
			dr.walker = walkin.Start(j, o)
		}
	}
	if x.Printer != "" {
		dr.layout, dr.printErr = badges.LoadLayout(x.BadgeLayout)
		target, err := printing.ParseTarget(x.Printer)
		if dr.printErr == nil {
			dr.printErr = err
		}
		var printer printing.Printer
		if dr.printErr == nil {
			printer, dr.printErr = printing.For(target, x.Run)
		}
		if dr.printErr == nil {
			o := printing.Options{Printer: printer,
				OnChange: func(j printing.Job) { rt.pump.post(printMsg{job: j}) }}
			if h := hooksOf(d); h != nil && h.printing != nil {
				h.printing(&o)
			}
			dr.prints = printing.NewQueue(o)
		}
	}
	dr.hook = hook.New(hook.Options{Argv: x.OnCheckin, Log: x.Log,
		OnResult: func(r hook.Result) {
			if r.Err != nil {
				rt.pump.post(hookMsg{res: r})
			}
		}})
	return dr
}

// close stops the extras; walk-ins not yet sent stay in their journal.
func (dr *door) close() {
	if dr == nil {
		return
	}
	if dr.walker != nil {
		dr.walker.Close()
	}
	if dr.walkins != nil {
		_ = dr.walkins.Close()
	}
	if dr.prints != nil {
		dr.prints.Close()
	}
	dr.hook.Close()
}

// errEarlierScan: the walk-in's address has a scan waiting for the
// server's answer; the check-in follows once it is answered.
var errEarlierScan = errors.New("an earlier scan of this address waits for the server's answer")

// checkInWalkIn writes a registered walk-in's check-in into the check-in
// journal: the desk learns their name and ticket first, so the roster
// expects them. A scan of the address still waiting for its answer (made
// before the registration) is answered first: checked in, it stands; refused
// as not registered, a new scan is written.
func checkInWalkIn(v *venue.Desk, w walkin.Walkin) (string, error) {
	names := map[string]roster.Name{w.Email: {First: w.First, Last: w.Last, Company: w.Company, Source: "walk-in"}}
	// The names book is a courtesy: a failure to save it leaves the
	// check-in to go ahead.
	_ = v.Learn(names, walkInPerson(w))
	if sc, ok := v.Journal().Lookup(w.Email); ok {
		switch sc.Outcome {
		case scanqueue.Pending:
			return "", errEarlierScan
		case scanqueue.CheckedIn:
			return sc.ID, nil
		}
	}
	scans, err := v.Scan([]string{w.Email})
	if err != nil {
		return "", err
	}
	return scans[0].ID, nil
}

// walkInPerson is a registered walk-in as the roster lists people.
func walkInPerson(w walkin.Walkin) roster.Person {
	p := roster.Person{Email: w.Email, Name: w.Name(), Company: w.Company, Status: api.RegistrationRegistered}
	for _, t := range w.Tickets {
		p.Tickets = append(p.Tickets, roster.Ticket{ID: t.TicketID, QRCodeURL: t.QRCodeURL})
	}
	return p
}

// learnWalkIns puts the walk-ins that desks of the event on this computer
// registered (this one earlier, or another session's) back on the roster:
// the roster cached beside the journals may predate them, and is not
// downloaded again before it is due (#16). A roster taken after a
// registration has the last word on it, as the walk-in sender holds.
func learnWalkIns(v *venue.Desk, dir, eventID string) {
	ro := v.Roster()
	var people []roster.Person
	for _, w := range walkin.RegistrantsIn(dir, eventID) {
		if ro == nil || !w.RegisteredAt.Before(ro.Updated()) {
			people = append(people, walkInPerson(w))
		}
	}
	if len(people) > 0 {
		_ = v.Learn(nil, people...) // no names to save: Learn cannot fail
	}
}

// loadSetup fetches what the walk-in form offers, in the background.
func loadSetup(d views.Env, eventID string) tea.Cmd {
	client, dir, now := d.Client, d.JournalDir, d.Now()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s, err := walkin.LoadSetup(ctx, client, dir, eventID, now)
		return setupMsg{s: s, err: err}
	}
}

// renderBadge draws one badge (for the print queue, in the background).
func renderBadge(l *badges.Layout, b badges.Badge) func() ([]byte, error) {
	return func() ([]byte, error) {
		var buf bytes.Buffer
		err := l.Render(&buf, b)
		return buf.Bytes(), err
	}
}

// LearnNames keeps the names of the people a registration made, beside the
// desks' roster (for the registration screen: every ticket evdesk creates
// teaches the desks a name). A failure costs only the names.
func LearnNames(d views.Env) func(eventID string, asked []api.TicketRequest, res *api.TicketsResult) {
	dir := d.JournalDir
	return func(eventID string, asked []api.TicketRequest, res *api.TicketsResult) {
		_ = roster.LearnTickets(dir, eventID, asked, res)
	}
}
