package venue

import (
	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
)

// learned is what the desk knows beyond the server's roster: the event's
// names book (beside the roster cache), and the people this desk
// registered (walk-ins), listed until a download has them.
type learned struct {
	raw        *roster.Roster // the roster as downloaded or cached
	names      *roster.Names
	registered []roster.Person
}

// withLearned is ro with the names and walk-ins applied.
func (d *Desk) withLearned(ro *roster.Roster) *roster.Roster {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.withLearnedLocked(ro)
}

func (d *Desk) withLearnedLocked(ro *roster.Roster) *roster.Roster {
	d.learn.raw = ro
	return ro.WithNames(d.learn.names, d.learn.registered)
}

// reloadNames reads the names book again (an import may have added to
// it); a damaged book keeps the one at hand.
func (d *Desk) reloadNames() {
	n, err := roster.LoadNames(roster.NamesPath(d.o.Dir, d.o.EventID), d.o.EventID)
	if err != nil {
		return
	}
	d.mu.Lock()
	d.learn.names = n
	d.mu.Unlock()
}

// Names is the event's names book as the desk has it.
func (d *Desk) Names() *roster.Names {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.learn.names
}

// Learn keeps what the desk learned of people: names (saved in the book
// every desk of the event reads) and people it registered, who are on the
// roster from now on. The roster at hand is rebuilt with them.
func (d *Desk) Learn(names map[string]roster.Name, registered ...roster.Person) error {
	var err error
	var book *roster.Names
	if len(names) > 0 {
		book, err = roster.AddNames(roster.NamesPath(d.o.Dir, d.o.EventID), d.o.EventID, names)
	}
	d.mu.Lock()
	if book != nil {
		d.learn.names = book
	}
	for _, p := range registered {
		p.Email = api.NormalizeEmail(p.Email)
		d.learn.registered = append(d.learn.registered, p)
	}
	if d.learn.raw != nil {
		ro := d.withLearnedLocked(d.learn.raw)
		d.rstate.Roster, d.rstate.Total = ro, ro.Total()
		d.roster.Store(ro)
	}
	d.mu.Unlock()
	d.changed()
	return err
}

// RefreshRoster downloads the roster again now (a walk-in's registration
// went unanswered: the roster tells whether it went through).
func (d *Desk) RefreshRoster() { d.napR.poke() }
