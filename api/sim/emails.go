package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
)

// BigEmailRecipients is how many people the seed's big email went to
// (Fixtures.BigEmailEventID, Fixtures.BigEmailTypeID).
const BigEmailRecipients = 100_000

// bigEmailEventName names the seeded event whose invitation went out to
// BigEmailRecipients people.
const bigEmailEventName = "Product Launch Live: Northwind Atlas"

// Email types are not stored: an event's list derives from its schedule,
// status and registrant count and from the clock, and each recipient's send
// record derives from the email type's seed and the recipient's position.
// Nothing per recipient is held in memory except, for filtered listings, a
// small cache of matching positions (emailIndex).

// emailTemplate is one kind of email an event sends.
type emailTemplate struct {
	key, name, overview string
	// at is the trigger time from the event's first start and end; nil
	// means "on each registration".
	at func(start, end time.Time) time.Time
	// share is the recipients as a share of registrants (1 when zero).
	share float64
}

var emailTemplates = []emailTemplate{
	{key: "confirmation", name: "Registration confirmation", overview: "Sent when someone registers"},
	{key: "invitation", name: "Invitation", overview: "Sent to the invitee list 3 weeks before the event",
		at: func(s, _ time.Time) time.Time { return s.Add(-21 * 24 * time.Hour) }, share: 4},
	{key: "reminder-week", name: "Reminder: 1 week before", overview: "Sent to registrants 7 days before the start",
		at: func(s, _ time.Time) time.Time { return s.Add(-7 * 24 * time.Hour) }},
	{key: "reminder-day", name: "Reminder: 1 day before", overview: "Sent to registrants 24 hours before the start",
		at: func(s, _ time.Time) time.Time { return s.Add(-24 * time.Hour) }},
	{key: "reminder-hour", name: "Reminder: 1 hour before", overview: "Sent to registrants 1 hour before the start",
		at: func(s, _ time.Time) time.Time { return s.Add(-time.Hour) }},
	{key: "thank-you", name: "Thank you for attending", overview: "Sent to attendees 2 hours after the end",
		at: func(_, e time.Time) time.Time { return e.Add(2 * time.Hour) }, share: 0.6},
	{key: "survey", name: "Post-event survey", overview: "Sent to attendees the day after the event",
		at: func(_, e time.Time) time.Time { return e.Add(24 * time.Hour) }, share: 0.6},
}

// emailTypeRec is an email type with what its send records derive from.
type emailTypeRec struct {
	api.EmailType
	recipients int
	seed       uint64
	// sendFrom and sendSpan place the sent_date of delivered and failed
	// records: record i of n at sendFrom + i*sendSpan/n.
	sendFrom time.Time
	sendSpan time.Duration
}

func (s *Sim) emailRoutes() {
	s.handle("GET", "/events/{eventId}/email_types",
		s.scopeFor("events_email:read", "events:read:list_email_types"), s.listEmailTypes)
	s.handle("GET", "/events/{eventId}/email_types/{emailTypeId}/send_status",
		s.scopeFor("events_email:read", "events:read:list_emails_status"), s.listSendStatus)
}

// seedEmails names the big email in the fixtures. Call with st.mu held,
// after the events are seeded.
func (s *Sim) seedEmails(byName map[string]*eventRec) {
	e := byName[bigEmailEventName]
	s.fixtures.BigEmailEventID = e.ev.EventID
	s.fixtures.BigEmailTypeID = emailTypeID(e, "invitation")
}

func emailTypeID(e *eventRec, key string) string { return makeID("email_type", e.ev.EventID, key) }

// emailTypesOf lists e's email types as of now. Call with st.mu held.
func (s *Sim) emailTypesOf(e *eventRec, now time.Time) []emailTypeRec {
	ev := e.ev
	if ev.StartTime == nil {
		return []emailTypeRec{}
	}
	start, end := *ev.StartTime, *ev.StartTime
	if ev.EndTime != nil {
		end = *ev.EndTime
	}
	if len(ev.Calendar) > 0 && ev.Calendar[0].StartTime != nil && ev.Calendar[0].EndTime != nil {
		start, end = *ev.Calendar[0].StartTime, *ev.Calendar[0].EndTime // a series: its first occurrence
	}
	// A cancelled event's notice went out a week before the start, or
	// yesterday if that is later; emails due after it were switched off.
	day := now.UTC().Truncate(24 * time.Hour)
	cancelledAt := earlier(start.Add(-7*24*time.Hour), day.Add(-24*time.Hour))
	inPerson := ev.AttendanceType == api.AttendanceInPerson
	out := make([]emailTypeRec, 0, len(emailTemplates)+1)
	add := func(key, name, overview, status string, at *time.Time, recipients int) {
		id := emailTypeID(e, key)
		sum := sha256.Sum256([]byte("email\x00" + id))
		t := emailTypeRec{
			EmailType: api.EmailType{EmailTypeID: id, Name: name, Status: status, TriggerDate: at, TriggerOverview: overview},
			seed:      binary.BigEndian.Uint64(sum[:8]),
		}
		if status != api.EmailTypeDeactivated {
			t.recipients = recipients
		}
		if at != nil {
			t.sendFrom = *at
			t.sendSpan = min(time.Duration(t.recipients)*2*time.Second, time.Hour)
		}
		out = append(out, t)
	}
	for _, tp := range emailTemplates {
		n := e.registrants
		if tp.share > 0 {
			n = int(float64(n) * tp.share)
		}
		if tp.key == "confirmation" {
			at := start.Add(-45 * 24 * time.Hour).Truncate(time.Hour)
			status := api.EmailTypeOngoing
			switch {
			case e.isDraft():
				status = api.EmailTypeScheduled
			case e.cancelled:
				status = api.EmailTypeDeactivated
			case e.ended(now):
				status = api.EmailTypeSent
			}
			add(tp.key, tp.name, tp.overview, status, &at, n)
			// Ongoing: registrations spread from the opening to today.
			last := &out[len(out)-1]
			last.sendSpan = max(earlier(day, start).Sub(at), 0)
			continue
		}
		if tp.key == "invitation" && ev.EventID == s.fixtures.BigEmailEventID {
			n = BigEmailRecipients
		}
		at := tp.at(start, end).Truncate(time.Minute)
		status := api.EmailTypeScheduled
		switch {
		case tp.key == "reminder-hour" && inPerson:
			status = api.EmailTypeDeactivated // switched off by the host
		case e.isDraft():
		case e.cancelled && !at.Before(cancelledAt):
			status = api.EmailTypeDeactivated
		case !at.After(now):
			status = api.EmailTypeSent
		}
		add(tp.key, tp.name, tp.overview, status, &at, n)
	}
	if e.cancelled {
		at := cancelledAt.Add(10 * time.Hour)
		add("cancellation", "Event cancellation notice", "Sent to registrants when the event was cancelled",
			api.EmailTypeSent, &at, e.registrants)
	}
	return out
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// findEmailType finds an email type of an event the caller hosts. Call with
// st.mu held.
func (s *Sim) findEmailType(p *principal, eventID, typeID string, now time.Time) (emailTypeRec, error) {
	e, err := s.ownedEvent(p, eventID, api.CodeEventNotFound)
	if err != nil {
		return emailTypeRec{}, err
	}
	for _, t := range s.emailTypesOf(e, now) {
		if t.EmailTypeID == typeID {
			return t, nil
		}
	}
	return emailTypeRec{}, errf(http.StatusNotFound, 0, "Email type not found.")
}

func (s *Sim) listEmailTypes(w http.ResponseWriter, r *http.Request, p *principal) error {
	status := strings.ToLower(r.URL.Query().Get("status"))
	if status != "" && !isEnum(api.EmailTypeStatuses, status) {
		return fieldError(api.FieldError{Field: "status",
			Message: fmt.Sprintf("%q is not allowed; use scheduled, ongoing, sent or deactivated.", r.URL.Query().Get("status"))})
	}
	id := r.PathValue("eventId")
	now := s.now()
	s.st.mu.Lock()
	e, err := s.ownedEvent(p, id, api.CodeEventNotFound)
	var items []api.EmailType
	if err == nil {
		for _, t := range s.emailTypesOf(e, now) {
			if status == "" || t.Status == status {
				items = append(items, t.EmailType)
			}
		}
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	page, next, total, err := paginate(s, r, "email_types|"+p.user.ID+"|"+id+"|"+status, items)
	if err != nil {
		return err
	}
	out := api.EmailTypeList{EmailTypes: make([]api.EmailType, len(page)), NextPageToken: next, TotalRecords: total}
	for i, t := range page {
		t.TriggerDate = cloneTime(t.TriggerDate)
		out.EmailTypes[i] = t
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func isEnum(values []api.Enum, v string) bool {
	for _, e := range values {
		if e.Value == v {
			return true
		}
	}
	return false
}

func (s *Sim) listSendStatus(w http.ResponseWriter, r *http.Request, p *principal) error {
	q := r.URL.Query()
	status := strings.ToLower(q.Get("status"))
	if status != "" && !isEnum(api.SendStatuses, status) {
		return fieldError(api.FieldError{Field: "status",
			Message: fmt.Sprintf("%q is not allowed; use scheduled, pending, delivered, failed or missed_schedule.", q.Get("status"))})
	}
	search := strings.ToLower(strings.TrimSpace(q.Get("search_text")))
	eventID, typeID := r.PathValue("eventId"), r.PathValue("emailTypeId")
	now := s.now()
	s.st.mu.Lock()
	t, err := s.findEmailType(p, eventID, typeID, now)
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	idx := s.sendIndex(&t, status, search)
	listing := fmt.Sprintf("send_status|%s|%s|%s|%s|%s", p.user.ID, eventID, typeID, status, search)
	page, next, total, err := paginate(s, r, listing, idx)
	if err != nil {
		return err
	}
	out := api.EmailSendList{Emails: make([]api.EmailSendRecord, len(page)), NextPageToken: next, TotalRecords: total}
	for i, at := range page {
		out.Emails[i] = t.record(int(at))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// maxIndexCache bounds the cached listings of recipient positions.
const maxIndexCache = 16

// sendIndex returns the positions of t's recipients that pass the filters,
// in send order. Listings are cached (a 100,000-recipient listing is read
// page by page), keyed by everything they derive from.
func (s *Sim) sendIndex(t *emailTypeRec, status, search string) []int32 {
	key := fmt.Sprintf("%s|%s|%d|%s|%s", t.EmailTypeID, t.Status, t.recipients, status, search)
	s.st.mu.Lock()
	idx, ok := s.st.emailIndex[key]
	s.st.mu.Unlock()
	if ok {
		return idx
	}
	idx = make([]int32, 0, t.recipients)
	for i := range t.recipients {
		if status != "" || search != "" {
			st, _ := t.outcome(i)
			if status != "" && st != status {
				continue
			}
			if search != "" {
				name, email := t.person(i)
				if !strings.Contains(strings.ToLower(name), search) && !strings.Contains(email, search) {
					continue
				}
			}
		}
		idx = append(idx, int32(i))
	}
	s.st.mu.Lock()
	if s.st.emailIndex == nil || len(s.st.emailIndex) >= maxIndexCache {
		s.st.emailIndex = map[string][]int32{}
	}
	s.st.emailIndex[key] = idx
	s.st.mu.Unlock()
	return idx
}

// splitmix64 is a fast, well-mixed hash of a 64-bit value.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// outcome is the send status and failure reason of recipient i.
func (t *emailTypeRec) outcome(i int) (status, reason string) {
	h := splitmix64(t.seed ^ uint64(i)*0x2545f4914f6cdd1d)
	u := unit(h)
	switch t.Status {
	case api.EmailTypeScheduled:
		return api.SendScheduled, ""
	case api.EmailTypeOngoing:
		switch {
		case u < 0.85:
			return api.SendDelivered, ""
		case u < 0.92:
			return api.SendPending, ""
		case u < 0.97:
			status = api.SendFailed
		default:
			return api.SendScheduled, ""
		}
	default: // sent
		switch {
		case u < 0.90:
			return api.SendDelivered, ""
		case u < 0.96:
			status = api.SendFailed
		case u < 0.975:
			return api.SendMissedSchedule, ""
		case u < 0.99:
			return api.SendPending, ""
		default:
			return api.SendScheduled, "" // held back by the daily limit
		}
	}
	switch v := unit(splitmix64(h)); {
	case v < 0.40:
		reason = api.FailureBounced
	case v < 0.65:
		reason = api.FailureUnsubscribed
	case v < 0.80:
		reason = api.FailureSystemError
	case v < 0.90:
		reason = api.FailureBlocked
	default:
		reason = api.FailureRateLimited
	}
	return status, reason
}

// person is the name and address of recipient i. The position in the
// address keeps every address of the email type distinct.
func (t *emailTypeRec) person(i int) (name, email string) {
	h := splitmix64(t.seed + uint64(i))
	first := firstNames[h%uint64(len(firstNames))]
	last := lastNames[(h>>16)%uint64(len(lastNames))]
	domain := emailDomains[(h>>32)%uint64(len(emailDomains))]
	local := strings.ToLower(first) + "." + strings.ToLower(strings.ReplaceAll(last, " ", ""))
	return first + " " + last, local + strconv.Itoa(i+1) + "@" + domain
}

// record is the send record of recipient i.
func (t *emailTypeRec) record(i int) api.EmailSendRecord {
	name, email := t.person(i)
	status, reason := t.outcome(i)
	r := api.EmailSendRecord{Email: email, Name: name, Status: status, FailureReason: reason}
	if (status == api.SendDelivered || status == api.SendFailed) && t.recipients > 0 && !t.sendFrom.IsZero() {
		at := t.sendFrom.Add(time.Duration(int64(t.sendSpan) * int64(i) / int64(t.recipients))).Truncate(time.Second).UTC()
		r.SentDate = &at
	}
	return r
}

// SendStatusCounts counts the recipients of an email type by send status
// and, for failed sends, by failure reason ("failed/bounced"). For tests and
// demos.
func (s *Sim) SendStatusCounts(eventID, typeID string) map[string]int {
	now := s.now()
	s.st.mu.Lock()
	e := s.st.events[eventID]
	var t emailTypeRec
	found := false
	if e != nil {
		for _, x := range s.emailTypesOf(e, now) {
			if x.EmailTypeID == typeID {
				t, found = x, true
			}
		}
	}
	s.st.mu.Unlock()
	if !found {
		return nil
	}
	out := map[string]int{}
	for i := range t.recipients {
		st, reason := t.outcome(i)
		out[st]++
		if reason != "" {
			out[st+"/"+reason]++
		}
	}
	return out
}

// EmailTypeIDs lists the ids of an event's email types with their names
// ("Registration confirmation"), in listing order. For tests and demos.
func (s *Sim) EmailTypeIDs(eventID string) map[string]string {
	now := s.now()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e := s.st.events[eventID]
	if e == nil {
		return nil
	}
	out := map[string]string{}
	for _, t := range s.emailTypesOf(e, now) {
		out[t.Name] = t.EmailTypeID
	}
	return out
}
