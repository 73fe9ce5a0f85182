package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
)

// CheckInRecord is one check-in the simulator recorded.
type CheckInRecord struct {
	Email  string
	Source string
	Time   time.Time
}

// attendance is the check-in side of one event: its registrants, its
// sessions and the check-ins at the event and at each session. It is built
// on first use (see attendanceOf) and guarded by st.mu.
type attendance struct {
	registrants []api.Registrant // append-only
	byEmail     map[string]int
	rng         *rand.Rand // registrant generator; nil until first used

	sessions      []api.Session
	sessionIndex  map[string]int
	sessionsBuilt bool

	checkIns map[string]*checkInLog // by session id; "" is the event itself
}

// checkInLog is the check-ins at an event or a session, in order, each
// email once.
type checkInLog struct {
	records []CheckInRecord // append-only
	seen    map[string]bool
}

// attendanceOf returns e's attendance with its registrants and sessions
// built. Call with st.mu held.
func (s *Sim) attendanceOf(e *eventRec) *attendance {
	a := s.sessionsOf(e)
	a.topUpRegistrants(s, e)
	return a
}

// sessionsOf returns e's attendance with its sessions built, leaving the
// registrants for later (a large event has many). Call with st.mu held.
func (s *Sim) sessionsOf(e *eventRec) *attendance {
	if s.st.attendance == nil {
		s.st.attendance = map[*eventRec]*attendance{}
	}
	a := s.st.attendance[e]
	if a == nil {
		a = &attendance{byEmail: map[string]int{}, checkIns: map[string]*checkInLog{}}
		s.st.attendance[e] = a
	}
	if !a.sessionsBuilt {
		a.sessions = s.buildSessions(e)
		a.sessionIndex = make(map[string]int, len(a.sessions))
		for i, ss := range a.sessions {
			a.sessionIndex[ss.SessionID] = i
		}
		a.sessionsBuilt = true
	}
	return a
}

// seedAttendance gives one conference its crowd and names sessions in the
// fixtures. Call with st.mu held, after the fixtures' event ids are set.
func (s *Sim) seedAttendance(byName map[string]*eventRec) {
	large := byName[largeConferenceName]
	large.registrants = LargeConferenceRegistrants
	firstSession := func(e *eventRec) string {
		if ss := s.sessionsOf(e).sessions; len(ss) > 0 {
			return ss[0].SessionID
		}
		return ""
	}
	s.fixtures.LargeConferenceEventID = large.ev.EventID
	s.fixtures.LargeConferenceSessionID = firstSession(large)
	s.fixtures.ConferenceSessionID = firstSession(s.st.events[s.fixtures.ConferenceEventID])
	s.fixtures.RecurringSessionID = firstSession(s.st.events[s.fixtures.RecurringEventID])
}

// log returns the check-in log of the event ("") or of one session.
func (a *attendance) log(sessionID string) *checkInLog {
	l := a.checkIns[sessionID]
	if l == nil {
		l = &checkInLog{seen: map[string]bool{}}
		a.checkIns[sessionID] = l
	}
	return l
}

func (s *Sim) attendeeRoutes() {
	s.handle("GET", "/events/{eventId}/attendee_action",
		s.scopeFor("events_attendee_actions:read", "events:read:list_attendee_actions"), s.listCheckIns)
	s.handle("PATCH", "/events/{eventId}/attendee_action",
		s.scopeFor("events_attendee_actions:write", "events:update:batch_attendee_actions"), s.checkIn)
	s.handle("GET", "/events/{eventId}/sessions/{sessionId}/attendee_action",
		s.scopeFor("events_attendee_actions:read", "events:read:list_session_attendee_actions"), s.listCheckIns)
	s.handle("PATCH", "/events/{eventId}/sessions/{sessionId}/attendee_action",
		s.scopeFor("events_attendee_actions:write", "events:update:batch_session_attendee_actions"), s.checkIn)
	s.handle("GET", "/events/{eventId}/sessions",
		s.scopeFor("events_sessions:read", "events:read:list_sessions"), s.listSessions)
	s.registrantRoutes()
}

// attendeeTarget finds the event (and the session, when the path names one)
// of an attendee-action call. Call with st.mu held.
func (s *Sim) attendeeTarget(p *principal, r *http.Request, notFoundCode int) (*eventRec, *attendance, string, error) {
	e, err := s.ownedEvent(p, r.PathValue("eventId"), notFoundCode)
	if err != nil {
		return nil, nil, "", err
	}
	a := s.attendanceOf(e)
	sid := r.PathValue("sessionId")
	if sid != "" {
		if _, ok := a.sessionIndex[sid]; !ok {
			return nil, nil, "", errf(http.StatusNotFound, api.CodeSessionNotFound, "Session not found.")
		}
	}
	return e, a, sid, nil
}

// checkInBody is the PATCH body; a per-attendee source (spec 2.5) overrides
// the batch's.
type checkInBody struct {
	Attendees []struct {
		Action string `json:"action"`
		Email  string `json:"email"`
		Source string `json:"source"`
	} `json:"attendees"`
	Source string `json:"source"`
}

func (s *Sim) checkIn(w http.ResponseWriter, r *http.Request, p *principal) error {
	var in checkInBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	now := s.now().UTC().Truncate(time.Second)
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	_, a, sid, err := s.attendeeTarget(p, r, api.CodeEventNotFoundForUpdate)
	if err != nil {
		return err
	}
	if err := validateCheckIn(&in); err != nil {
		return err
	}
	for _, at := range in.Attendees {
		if s.poisoned[normEmail(at.Email)] {
			return errf(http.StatusBadRequest, 0, "Invalid request.") // as documented: names no attendee
		}
	}
	log := a.log(sid)
	out := struct {
		Errors []api.BatchError `json:"errors"`
	}{Errors: []api.BatchError{}}
	for _, at := range in.Attendees {
		email := normEmail(at.Email)
		if _, ok := a.byEmail[email]; !ok {
			out.Errors = append(out.Errors, api.BatchError{Email: at.Email, Message: "Attendee is not registered for this event."})
			continue
		}
		if log.seen[email] {
			continue // checked in already: a repeat changes nothing
		}
		src := at.Source
		if src == "" {
			src = in.Source
		}
		log.seen[email] = true
		log.records = append(log.records, CheckInRecord{Email: email, Source: src, Time: now})
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// validateCheckIn applies the spec's batch rules: 1 to 300 attendees, each
// with an email and the check-in action (any case: samples capitalise it).
func validateCheckIn(in *checkInBody) error {
	var c checks
	if len(in.Attendees) == 0 {
		c.add("attendees", "is required: send 1 to %d attendees.", maxAttendeesPerBatch)
	}
	c.atMost("attendees", len(in.Attendees), maxAttendeesPerBatch, "attendees")
	for i, at := range in.Attendees {
		if strings.TrimSpace(at.Email) == "" {
			c.add(fmt.Sprintf("attendees[%d].email", i), "is required.")
		}
		if !strings.EqualFold(strings.TrimSpace(at.Action), "check-in") {
			c.add(fmt.Sprintf("attendees[%d].action", i), "%q is not allowed; use check-in.", at.Action)
		}
	}
	return c.err()
}

// attendeeActionJSON is a listed check-in, with the action capitalised as in
// the provider's samples.
type attendeeActionJSON struct {
	Email  string `json:"email"`
	Source string `json:"source,omitempty"`
	Action string `json:"action"`
}

func (s *Sim) listCheckIns(w http.ResponseWriter, r *http.Request, p *principal) error {
	filter := normEmail(r.URL.Query().Get("email"))
	s.st.mu.Lock()
	e, a, sid, err := s.attendeeTarget(p, r, api.CodeEventNotFound)
	var items []CheckInRecord
	if err == nil {
		items = a.log(sid).records
		if filter != "" {
			items = slices.DeleteFunc(slices.Clone(items), func(c CheckInRecord) bool { return c.Email != filter })
		}
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	page, next, total, err := paginate(s, r, "attendee_action|"+e.ev.EventID+"|"+sid+"|"+filter, items)
	if err != nil {
		return err
	}
	out := struct {
		TotalRecords  int                  `json:"total_records"`
		NextPageToken string               `json:"next_page_token,omitempty"`
		Attendees     []attendeeActionJSON `json:"attendees"`
	}{TotalRecords: total, NextPageToken: next, Attendees: make([]attendeeActionJSON, len(page))}
	for i, c := range page {
		out.Attendees[i] = attendeeActionJSON{Email: c.Email, Source: c.Source, Action: "Check-in"}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// CheckIns returns the check-ins recorded at an event (sessionID empty) or
// at one of its sessions, in order. For tests and demos.
func (s *Sim) CheckIns(eventID, sessionID string) []CheckInRecord {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e := s.st.events[eventID]
	if e == nil {
		return nil
	}
	return slices.Clone(s.attendanceOf(e).log(sessionID).records)
}

// SessionIDs lists the ids of an event's sessions, in order. For tests and
// demos.
func (s *Sim) SessionIDs(eventID string) []string {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e := s.st.events[eventID]
	if e == nil {
		return nil
	}
	var out []string
	for _, ss := range s.sessionsOf(e).sessions {
		out = append(out, ss.SessionID)
	}
	return out
}

// maxSessions is the most sessions the listing holds (the description's
// maxItems).
const maxSessions = 200

func (s *Sim) listSessions(w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	e, err := s.ownedEvent(p, r.PathValue("eventId"), api.CodeEventNotFound)
	var out api.SessionList
	if err == nil {
		sessions := s.sessionsOf(e).sessions
		out.Sessions = make([]api.Session, len(sessions))
		for i, ss := range sessions {
			out.Sessions[i] = cloneSession(ss)
		}
		out.TotalRecords = len(sessions)
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func cloneSession(ss api.Session) api.Session {
	c := ss
	c.StartTime, c.EndTime = cloneTime(ss.StartTime), cloneTime(ss.EndTime)
	c.Speakers = slices.Clone(ss.Speakers)
	c.TrackLabels = slices.Clone(ss.TrackLabels)
	return c
}

// buildSessions lays out an event's sessions: a few a day for a conference
// (more for a large one), one per occurrence for a recurring series, none
// for a single-session event. Ids and contents derive from the event id and
// schedule. Call with st.mu held.
func (s *Sim) buildSessions(e *eventRec) []api.Session {
	ev := e.ev
	loc, err := time.LoadLocation(ev.Timezone)
	if err != nil {
		loc = time.UTC
	}
	sum := sha256.Sum256([]byte("sessions\x00" + ev.EventID))
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
	published := ev.Status == api.StatusPublished
	var out []api.Session
	add := func(name, desc string, start, end time.Time, typ int) *api.Session {
		st, en := start.UTC(), end.UTC()
		ss := api.Session{
			SessionID: makeID("session", ev.EventID, strconv.Itoa(len(out))), Name: name, Description: desc,
			StartTime: &st, EndTime: &en, Timezone: ev.Timezone, Type: typ, AttendanceType: ev.AttendanceType,
			VisibleInLandingPage: true, VisibleInLobby: true,
		}
		if published {
			n := 80000000000 + int64(binary.BigEndian.Uint32([]byte(ss.SessionID[:4])))
			switch typ {
			case api.SessionTypeMeeting:
				ss.MeetingID = n
			case api.SessionTypeWebinar:
				ss.WebinarID = n
			}
		}
		out = append(out, ss)
		return &out[len(out)-1]
	}
	switch ev.EventType {
	case api.EventTypeConference:
		typ := api.SessionTypeWebinar
		if ev.AttendanceType == api.AttendanceInPerson {
			typ = api.SessionTypeNone
		}
		perDay := 4
		if e.registrants >= 5000 {
			perDay = 6
		}
		titles := slices.Clone(talkTitles)
		rng.Shuffle(len(titles), func(i, j int) { titles[i], titles[j] = titles[j], titles[i] })
		for day, c := range ev.Calendar {
			if c.StartTime == nil || c.EndTime == nil || len(out)+perDay > maxSessions {
				continue
			}
			slot := c.EndTime.Sub(*c.StartTime) / time.Duration(perDay)
			slot = slot.Truncate(15 * time.Minute)
			for i := range perDay {
				start := c.StartTime.Add(time.Duration(i) * slot)
				end := start.Add(slot - 15*time.Minute)
				name, track := titles[(day*perDay+i)%len(titles)], conferenceTracks[1+i%(len(conferenceTracks)-1)]
				switch {
				case i == 0 && day == 0:
					name, track = "Opening Keynote", conferenceTracks[0]
				case i == 0:
					name, track = fmt.Sprintf("Day %d Keynote", day+1), conferenceTracks[0]
				case i == perDay-1 && day == len(ev.Calendar)-1:
					name, track = "Closing Panel and Farewell", conferenceTracks[0]
				}
				ss := add(name, fmt.Sprintf("%s at %s, day %d.", name, ev.Name, day+1), start, end, typ)
				ss.TrackLabels = []string{track}
				ss.Featured = i == 0
				if ev.Venue != nil {
					ss.PhysicalLocation = conferenceRooms[i%len(conferenceRooms)] + ", " + ev.Venue.Name
				}
				first, last := firstNames[rng.IntN(len(firstNames))], lastNames[rng.IntN(len(lastNames))]
				ss.Speakers = []api.SessionSpeaker{{
					SpeakerID: makeID("speaker", ss.SessionID), Name: first + " " + last,
					Company: speakerCompanies[rng.IntN(len(speakerCompanies))], Title: speakerTitles[rng.IntN(len(speakerTitles))],
					ShowInSessionDetail: true,
				}}
			}
		}
	case api.EventTypeRecurring:
		if ev.Recurrence == nil || ev.StartTime == nil {
			break
		}
		typ := api.SessionTypeMeeting
		switch {
		case ev.AttendanceType == api.AttendanceInPerson:
			typ = api.SessionTypeNone
		case ev.MeetingType == api.MeetingTypeWebinar:
			typ = api.SessionTypeWebinar
		}
		dur := time.Duration(max(ev.Recurrence.Duration, 15)) * time.Minute
		for _, start := range occurrences(*ev.StartTime, loc, ev.Recurrence) {
			if len(out) == maxSessions {
				break
			}
			ss := add(ev.Name+": "+start.In(loc).Format("Mon 2 Jan 2006"), ev.Tagline, start, start.Add(dur), typ)
			ss.PhysicalLocation = ev.PhysicalLocation
		}
	}
	return out
}

var conferenceTracks = []string{"Main Stage", "Track A", "Track B", "Workshops"}

var conferenceRooms = []string{"Main Hall", "Room 1.14", "Room 2.03", "Workshop Studio", "Room 1.08", "Auditorium B"}

var talkTitles = []string{
	"Scaling Without Surprises", "Hands-on Lab: Your First Pipeline", "Lessons From a Year On Call",
	"Designing for Failure", "Cost-Aware Architecture", "From Monolith to Modules", "Security by Default",
	"Measuring What Matters", "Building Teams That Ship", "The Road Ahead: Product Roadmap",
	"Customer Story: Ten Million Requests a Day", "Ask the Experts", "Workshop: Tracing in Practice",
	"Data Contracts That Stick", "Migrating Without Downtime", "Platform Engineering in Practice",
	"Accessibility for Everyone", "Running Events at Scale", "Partner Showcase", "Lightning Talks",
}

var speakerCompanies = []string{"Northwind", "Contoso", "Fabrikam", "Tailspin Toys", "Wide World Importers",
	"Adventure Works", "Litware", "Proseware", "Woodgrove Bank", "Fourth Coffee"}

var speakerTitles = []string{"Principal Engineer", "Head of Platform", "Product Lead", "Staff SRE",
	"VP Engineering", "Developer Advocate", "Solutions Architect", "Engineering Manager"}
