package api

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// AttendeesService covers on-site attendee actions for an event or one of its
// sessions (spec 2.5, 4.1), and the two listings a check-in desk needs beside
// them: the event's sessions (spec 4.6) and its registrants (from the
// provider's description; not in the spec).
type AttendeesService struct{ c *Client }

// Attendee-action values and limits (spec 2.5, 8).
const (
	// ActionCheckIn is the only attendee action the spec allows.
	ActionCheckIn = "check-in"
	// MaxAttendeesPerBatch is how many attendees one PATCH may carry.
	MaxAttendeesPerBatch = 300
	// maxEmailLength is the longest address RFC 5321 allows.
	maxEmailLength = 254
)

// AttendeeAction is one attendee and the action performed (spec 2.5). Action
// is always lower case: the provider's samples capitalise it ("Check-in") and
// decoding normalises it.
type AttendeeAction struct {
	Action string `json:"action"`
	Email  string `json:"email"`
	// Source is free text telling where the action came from (a desk name).
	Source string `json:"source,omitempty"`
}

// UnmarshalJSON decodes an attendee action, lower-casing the action word.
func (a *AttendeeAction) UnmarshalJSON(b []byte) error {
	type plain AttendeeAction
	if err := json.Unmarshal(b, (*plain)(a)); err != nil {
		return err
	}
	a.Action = strings.ToLower(strings.TrimSpace(a.Action))
	return nil
}

// AttendeeActionList is one page of an attendee-action listing.
type AttendeeActionList struct {
	Attendees     []AttendeeAction `json:"attendees"`
	NextPageToken string           `json:"next_page_token,omitempty"`
	TotalRecords  int              `json:"total_records"`
}

// AttendeeActionRequest is the body of an attendee-action PATCH: up to 300
// attendees, and the source shared by all of them.
type AttendeeActionRequest struct {
	Attendees []AttendeeAction `json:"attendees"`
	Source    string           `json:"source,omitempty"`
}

// BatchError is one attendee the server did not check in, and why.
type BatchError struct {
	Email   string `json:"email"`
	Message string `json:"message"`
}

// batchResult is the answer to an attendee-action PATCH.
type batchResult struct {
	Errors []BatchError `json:"errors"`
}

// Validate checks the spec's rules for one batch: 1 to 300 attendees, each
// with an email address and the check-in action.
func (r *AttendeeActionRequest) Validate() error {
	var v validator
	if n := len(r.Attendees); n > MaxAttendeesPerBatch {
		v.add("attendees", "holds %d attendees; one request takes at most %d (AttendeesService.CheckIn splits longer lists)",
			n, MaxAttendeesPerBatch)
	}
	r.validateItems(&v)
	return v.err()
}

// validateItems checks that there is at least one attendee and each has an
// email address and the check-in action.
func (r *AttendeeActionRequest) validateItems(v *validator) {
	if len(r.Attendees) == 0 {
		v.add("attendees", "is required: send at least one attendee")
	}
	for i, a := range r.Attendees {
		field := fmt.Sprintf("attendees[%d]", i)
		if err := CheckEmail(a.Email); err != nil {
			v.add(field+".email", "%v", err)
		}
		if a.Action == "" {
			v.add(field+".action", "is required; use %s", ActionCheckIn)
		} else if a.Action != ActionCheckIn {
			v.add(field+".action", "%q is not allowed; use %s", a.Action, ActionCheckIn)
		}
	}
}

// NormalizeEmail is the form in which evdesk compares and sends addresses:
// trimmed and lower case.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// CheckEmail reports why s does not look like an email address, or nil. It
// is deliberately loose (one @, a local part, a dotted domain, no spaces):
// the server has the last word. Invisible characters are refused outright:
// an address is journaled, sent and shown on terminals.
func CheckEmail(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("is required")
	}
	if len(s) > maxEmailLength {
		return fmt.Errorf("is %d characters long; an email address has at most %d", len(s), maxEmailLength)
	}
	if err := checkEmailRunes(s); err != nil {
		return err
	}
	switch local, domain, ok := strings.Cut(s, "@"); {
	case strings.ContainsAny(s, "<>,;\"") || !ok || local == "" || strings.Contains(domain, "@"):
		return fmt.Errorf("%q is not an email address", s)
	case !strings.Contains(strings.Trim(domain, "."), ".") || strings.Contains(domain, ".."):
		return fmt.Errorf("%q is not an email address (the domain needs a dot, as in example.org)", s)
	}
	return nil
}

// checkEmailRunes refuses what cannot be part of an address and would be
// invisible or harmful on a screen: bytes that are not UTF-8, control
// characters (C0, DEL, C1), bidirectional controls and whitespace. Positions
// count characters from 1.
func checkEmailRunes(s string) error {
	pos := 0
	for i, r := range s {
		pos++
		what := ""
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"): // a byte that is not UTF-8
			return fmt.Errorf("%q is not an email address: it is not valid UTF-8 (at position %d)", s, pos)
		case unicode.IsControl(r):
			what = "a control character"
		case isBidiControl(r):
			what = "a bidirectional control character"
		case unicode.IsSpace(r):
			what = "a space"
		default:
			continue
		}
		return fmt.Errorf("%q is not an email address: it contains %s (U+%04X) at position %d", s, what, r, pos)
	}
	return nil
}

// isBidiControl reports the characters that reorder text on screen: the
// embeddings and overrides, the isolates and the direction marks.
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200E || r == 0x200F || r == 0x061C
}

// attendeePath is the attendee_action path of an event, or of one of its
// sessions when sessionID is not empty.
func (s *AttendeesService) attendeePath(eventID, sessionID string) string {
	if sessionID == "" {
		return s.c.eventsPath("events", eventID, "attendee_action")
	}
	return s.c.eventsPath("events", eventID, "sessions", sessionID, "attendee_action")
}

// CheckIn checks attendees in at the event (sessionID empty) or at one of its
// sessions. Addresses are trimmed, lower-cased and de-duplicated; lists longer
// than 300 are sent as several requests of at most 300, in order. Attendees
// the server refuses come back in failed with its message: that is data, not
// an error. A repeated check-in is a no-op on the server, so every request is
// retried after failures of unknown outcome.
//
// When a later request fails, failed holds the refusals of the requests that
// went through and err says which request failed; sending the whole list
// again is safe.
func (s *AttendeesService) CheckIn(ctx context.Context, eventID, sessionID string, emails []string, source string) (failed []BatchError, err error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	// Check the whole list before sending any of it; problems name the
	// position in the caller's list.
	all := AttendeeActionRequest{Source: strings.TrimSpace(source), Attendees: make([]AttendeeAction, 0, len(emails))}
	for _, e := range emails {
		all.Attendees = append(all.Attendees, AttendeeAction{Action: ActionCheckIn, Email: NormalizeEmail(e)})
	}
	var v validator
	all.validateItems(&v)
	if err := v.err(); err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(all.Attendees))
	unique := all.Attendees[:0]
	for _, a := range all.Attendees {
		if !seen[a.Email] {
			seen[a.Email] = true
			unique = append(unique, a)
		}
	}
	all.Attendees = unique
	path := s.attendeePath(eventID, sessionID)
	batches := (len(all.Attendees) + MaxAttendeesPerBatch - 1) / MaxAttendeesPerBatch
	for i := range batches {
		lo := i * MaxAttendeesPerBatch
		hi := min(lo+MaxAttendeesPerBatch, len(all.Attendees))
		req := AttendeeActionRequest{Attendees: all.Attendees[lo:hi], Source: all.Source}
		var out batchResult
		err := s.c.do(ctx, call{op: "check in attendees", method: http.MethodPatch, path: path,
			body: &req, repeatable: true}, &out)
		if err != nil {
			if batches > 1 {
				err = fmt.Errorf("request %d of %d (attendees %d to %d): %w", i+1, batches, lo+1, hi, err)
			}
			return failed, err
		}
		failed = append(failed, out.Errors...)
	}
	return failed, nil
}

// ListAttendeeActionsOptions selects an attendee-action listing.
type ListAttendeeActionsOptions struct {
	// Email limits the listing to one attendee.
	Email string
	// PageSize is 1 to 300; 0 uses the provider's default of 30.
	PageSize int
}

func (o ListAttendeeActionsOptions) query(token string) url.Values {
	q := pageQuery(o.PageSize, token)
	if e := NormalizeEmail(o.Email); e != "" {
		q.Set("email", e)
	}
	return q
}

// pageQuery holds page_size (capped at 300) and next_page_token when set.
func pageQuery(size int, token string) url.Values {
	q := url.Values{}
	if size > 0 {
		q.Set("page_size", strconv.Itoa(min(size, MaxAttendeesPerBatch)))
	}
	if token != "" {
		q.Set("next_page_token", token)
	}
	return q
}

// ListPage fetches one page of the check-in history of an event, or of one
// of its sessions when sessionID is not empty.
func (s *AttendeesService) ListPage(ctx context.Context, eventID, sessionID string, opts ListAttendeeActionsOptions, token string) (*AttendeeActionList, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	var out AttendeeActionList
	if err := s.c.do(ctx, call{op: "list attendee actions", method: http.MethodGet,
		path: s.attendeePath(eventID, sessionID), query: opts.query(token), repeatable: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Pager walks the check-in history page by page.
func (s *AttendeesService) Pager(eventID, sessionID string, opts ListAttendeeActionsOptions) *Pager[AttendeeAction] {
	fetch := func(ctx context.Context, token string) (Page[AttendeeAction], error) {
		l, err := s.ListPage(ctx, eventID, sessionID, opts, token)
		if err != nil {
			return Page[AttendeeAction]{}, err
		}
		return Page[AttendeeAction]{Items: l.Attendees, NextPageToken: l.NextPageToken, Total: l.TotalRecords}, nil
	}
	// A repeated check-in is not recorded again, so action and email
	// identify an entry.
	return listing(s.c, "list attendee actions", fetch, func(a AttendeeAction) string { return a.Action + "\x00" + a.Email })
}

// List iterates over the whole check-in history.
func (s *AttendeesService) List(ctx context.Context, eventID, sessionID string, opts ListAttendeeActionsOptions) iter.Seq2[AttendeeAction, error] {
	return s.Pager(eventID, sessionID, opts).All(ctx)
}

// Session is one session of a conference or one occurrence of a recurring
// event, with the fields the provider's description shows. Fields it does not
// show are kept in Extra.
type Session struct {
	SessionID                string                `json:"session_id"`
	Name                     string                `json:"name,omitempty"`
	Description              string                `json:"description,omitempty" text:"multiline"`
	StartTime                *time.Time            `json:"start_time,omitempty"`
	EndTime                  *time.Time            `json:"end_time,omitempty"`
	Timezone                 string                `json:"timezone,omitempty"`
	Type                     int                   `json:"type"` // SessionTypeMeeting, SessionTypeWebinar or SessionTypeNone
	MeetingID                int64                 `json:"meeting_id,omitempty"`
	WebinarID                int64                 `json:"webinar_id,omitempty"`
	AttendanceType           string                `json:"attendance_type,omitempty"`
	PhysicalLocation         string                `json:"physical_location,omitempty"`
	Speakers                 []SessionSpeaker      `json:"session_speakers,omitempty"`
	Featured                 bool                  `json:"featured,omitempty"`
	VisibleInLandingPage     bool                  `json:"visible_in_landing_page,omitempty"`
	FeaturedInLobby          bool                  `json:"featured_in_lobby,omitempty"`
	VisibleInLobby           bool                  `json:"visible_in_lobby,omitempty"`
	IsSimulive               bool                  `json:"is_simulive,omitempty"`
	RecordFileID             string                `json:"record_file_id,omitempty"`
	ChatChannel              bool                  `json:"chat_channel,omitempty"`
	LedBySponsor             bool                  `json:"led_by_sponsor,omitempty"`
	TrackLabels              []string              `json:"track_labels,omitempty"`
	AudienceLabels           []string              `json:"audience_labels,omitempty"`
	ProductLabels            []string              `json:"product_labels,omitempty"`
	Level                    []string              `json:"level,omitempty"`
	AlternativeHosts         []string              `json:"alternative_host,omitempty"`
	Panelists                []string              `json:"panelist,omitempty"`
	InterpreterLanguages     []InterpreterLanguage `json:"interpreter_languages,omitempty"`
	SignInterpreterLanguages []InterpreterLanguage `json:"sign_interpreter_languages,omitempty"`
	Reservation              *SessionReservation   `json:"session_reservation,omitempty"`

	// Extra holds fields the description does not show, undecoded.
	Extra map[string]json.RawMessage `json:"-"`
}

// Session types of the provider's description.
const (
	SessionTypeMeeting = 0
	SessionTypeWebinar = 2
	SessionTypeNone    = 4 // neither a meeting nor a webinar (in person)
)

// SessionSpeaker is a speaker of a session.
type SessionSpeaker struct {
	SpeakerID                    string `json:"speaker_id,omitempty"`
	Name                         string `json:"name,omitempty"`
	Company                      string `json:"company,omitempty"`
	Title                        string `json:"title,omitempty"`
	MeetingRole                  int    `json:"meeting_role,omitempty"`
	AccessToEditSession          bool   `json:"access_to_edit_session,omitempty"`
	ShowInSessionDetail          bool   `json:"show_in_session_detail,omitempty"`
	HasAlternativeHostPermission bool   `json:"has_alternative_host_permission,omitempty"`
}

// InterpreterLanguage is a language offered for interpretation.
type InterpreterLanguage struct {
	LanguageID          string `json:"language_id,omitempty"`
	LanguageDisplayName string `json:"language_display_name,omitempty"`
}

// SessionReservation is a multi-session event's reservation setting.
type SessionReservation struct {
	AllowReservations bool `json:"allow_reservations,omitempty"`
	MaxCapacity       int  `json:"max_capacity,omitempty"`
}

// UnmarshalJSON decodes a session, keeping unknown fields in Extra.
func (s *Session) UnmarshalJSON(b []byte) error {
	type plain Session
	return unmarshalKeeping(b, (*plain)(s), &s.Extra)
}

// MarshalJSON encodes a session with its Extra fields.
func (s Session) MarshalJSON() ([]byte, error) {
	type plain Session
	return marshalKeeping(plain(s), s.Extra)
}

// SessionList is the answer of the sessions listing.
type SessionList struct {
	Sessions      []Session `json:"sessions"`
	NextPageToken string    `json:"next_page_token,omitempty"`
	TotalRecords  int       `json:"total_records"`
}

// Sessions lists every session of an event: the sessions of a conference,
// the occurrences of a recurring series. The description shows no paging
// for this listing; a next_page_token, should one come, is followed.
func (s *AttendeesService) Sessions(ctx context.Context, eventID string) ([]Session, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	fetch := func(ctx context.Context, token string) (Page[Session], error) {
		var out SessionList
		q := pageQuery(0, token)
		if err := s.c.do(ctx, call{op: "list sessions", method: http.MethodGet,
			path: s.c.eventsPath("events", eventID, "sessions"), query: q, repeatable: true}, &out); err != nil {
			return Page[Session]{}, err
		}
		return Page[Session]{Items: out.Sessions, NextPageToken: out.NextPageToken, Total: out.TotalRecords}, nil
	}
	out := []Session{}
	for sess, err := range listing(s.c, "list sessions", fetch, func(s Session) string { return s.SessionID }).All(ctx) {
		if err != nil {
			return nil, err
		}
		out = append(out, sess)
	}
	return out, nil
}

// Registration statuses of the provider's description.
const (
	RegistrationRegistered         = "REGISTERED"
	RegistrationInvited            = "INVITED"
	RegistrationGifted             = "GIFTED"
	RegistrationDirectJoin         = "DIRECT_JOIN"
	RegistrationPreRegistered      = "PRE_REGISTERED"
	RegistrationPreRegisterInvited = "PRE_REGISTER_INVITED"
)

// Registrant is a person registered for an event, with the fields the
// provider's description shows (it shows no names). Fields it does not show
// are kept in Extra.
type Registrant struct {
	Email              string             `json:"email"`
	RegistrationStatus string             `json:"registration_status,omitempty"`
	Tickets            []RegistrantTicket `json:"tickets,omitempty"`

	// Extra holds fields the description does not show, undecoded.
	Extra map[string]json.RawMessage `json:"-"`
}

// RegistrantTicket is one ticket of a registrant.
type RegistrantTicket struct {
	TicketID             string `json:"ticket_id,omitempty"`
	Role                 string `json:"role,omitempty"`                  // ATTENDEE, SPEAKER, ...
	AuthenticationMethod string `json:"authentication_method,omitempty"` // no_auth, email_opt, ...
	// QRCodeURL is what the e-badge QR code of hybrid and in-person events
	// encodes.
	QRCodeURL string `json:"qr_code_url,omitempty"`
}

// UnmarshalJSON decodes a registrant, keeping unknown fields in Extra.
func (r *Registrant) UnmarshalJSON(b []byte) error {
	type plain Registrant
	if err := unmarshalKeeping(b, (*plain)(r), &r.Extra); err != nil {
		return err
	}
	r.RegistrationStatus = strings.ToUpper(r.RegistrationStatus)
	return nil
}

// MarshalJSON encodes a registrant with its Extra fields.
func (r Registrant) MarshalJSON() ([]byte, error) {
	type plain Registrant
	return marshalKeeping(plain(r), r.Extra)
}

// RegistrantList is one page of the registrants listing.
type RegistrantList struct {
	Registrants   []Registrant `json:"registrants"`
	NextPageToken string       `json:"next_page_token,omitempty"`
	TotalRecords  int          `json:"total_records"`
}

// ListRegistrantsOptions selects a registrants listing.
type ListRegistrantsOptions struct {
	// PageSize is 1 to 300; 0 uses the provider's default of 30.
	PageSize int
}

// RegistrantsPage fetches one page of an event's registrants.
func (s *AttendeesService) RegistrantsPage(ctx context.Context, eventID string, opts ListRegistrantsOptions, token string) (*RegistrantList, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	var out RegistrantList
	if err := s.c.do(ctx, call{op: "list registrants", method: http.MethodGet,
		path: s.c.eventsPath("events", eventID, "registrants"), query: pageQuery(opts.PageSize, token),
		repeatable: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// RegistrantsPager walks an event's registrants page by page.
func (s *AttendeesService) RegistrantsPager(eventID string, opts ListRegistrantsOptions) *Pager[Registrant] {
	fetch := func(ctx context.Context, token string) (Page[Registrant], error) {
		l, err := s.RegistrantsPage(ctx, eventID, opts, token)
		if err != nil {
			return Page[Registrant]{}, err
		}
		return Page[Registrant]{Items: l.Registrants, NextPageToken: l.NextPageToken, Total: l.TotalRecords}, nil
	}
	return listing(s.c, "list registrants", fetch, func(r Registrant) string { return NormalizeEmail(r.Email) })
}

// Registrants iterates over every registrant of an event.
func (s *AttendeesService) Registrants(ctx context.Context, eventID string, opts ListRegistrantsOptions) iter.Seq2[Registrant, error] {
	return s.RegistrantsPager(eventID, opts).All(ctx)
}

// unmarshalKeeping decodes b into known (a pointer to a struct) and puts the
// members known has no field for into *extra.
func unmarshalKeeping(b []byte, known any, extra *map[string]json.RawMessage) error {
	if err := json.Unmarshal(b, known); err != nil {
		return err
	}
	names := jsonNames(reflect.TypeOf(known).Elem())
	*extra = nil
	if !hasOtherMembers(b, names) {
		return nil // the usual answer: no second decode
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k := range all {
		if names[k] {
			delete(all, k)
		}
	}
	if len(all) > 0 {
		*extra = all
	}
	return nil
}

// marshalKeeping encodes known and adds the extra members it does not set.
func marshalKeeping(known any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(known)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, set := all[k]; !set {
			all[k] = v
		}
	}
	return json.Marshal(all)
}

var jsonNameCache sync.Map // reflect.Type -> map[string]bool

// jsonNames lists the JSON member names of a struct type's fields.
func jsonNames(t reflect.Type) map[string]bool {
	if v, ok := jsonNameCache.Load(t); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		names[name] = true
	}
	jsonNameCache.Store(t, names)
	return names
}
