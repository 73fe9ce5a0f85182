package mesh

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// The venue's streams and buckets.
const (
	scansStream   = "evdesk_scans"
	scansSubject  = "evdesk.scans." // + target
	arrivalsKV    = "evdesk_arrivals"
	leaseKV       = "evdesk_lease"
	desksKV       = "evdesk_desks"
	rosterObjects = "evdesk_roster"
	upstreamKey   = "upstream"
	courierName   = "upstream"
)

// States of an admission.
const (
	// stateAdmitted: a desk of the venue admitted the person; the
	// check-in is on its way to the service.
	stateAdmitted = "admitted"
	// stateCheckedIn: the service holds the venue's check-in.
	stateCheckedIn = "checked-in"
	// stateService: the service holds a check-in the venue did not make
	// (another tool, or a desk outside the venue), found in its history.
	stateService = "service"
	// stateRejected: the service refused the check-in.
	stateRejected = "rejected"
)

// admission is the venue's record of one person at one target (an event
// or a session): which desk admitted them first, and where the check-in
// stands. It is the value of the arrivals bucket, under keyOf.
type admission struct {
	Email   string    `json:"email"`
	Event   string    `json:"event"`
	Session string    `json:"session,omitempty"`
	Desk    string    `json:"desk"`           // the desk's name (the check-in's source)
	Node    string    `json:"node,omitempty"` // the desk's identity; "" for the service's own
	Scan    string    `json:"scan,omitempty"` // the scan's id in that desk's journal
	At      time.Time `json:"at"`
	By      bool      `json:"by,omitempty"` // At is only an upper bound (found in the history)
	State   string    `json:"state"`
	Message string    `json:"message,omitempty"` // the service's reason for a refusal
	// Twice lists the desks that admitted the person again while the
	// venue was split.
	Twice []again `json:"twice,omitempty"`
}

type again struct {
	Desk string    `json:"desk"`
	At   time.Time `json:"at"`
}

// held reports whether the person counts as checked in at the venue.
func (a admission) held() bool { return a.State != stateRejected }

// atService reports whether the service holds the check-in.
func (a admission) atService() bool { return a.State == stateCheckedIn || a.State == stateService }

// scanMsg is one scan as the venue's scans stream carries it to the
// upstream desk.
type scanMsg struct {
	Node    string           `json:"node"`
	Desk    string           `json:"desk"`
	Scan    string           `json:"scan"`
	Event   string           `json:"event"`
	Session string           `json:"session,omitempty"`
	Email   string           `json:"email"`
	At      time.Time        `json:"at"`
	Expect  scanqueue.Expect `json:"expect,omitempty"`
}

// msgID de-duplicates a scan in the stream: the same scan published again
// (a desk that restarts, or rejoins) is stored once.
func (m scanMsg) msgID() string { return m.Node + "/" + targetOf(m.Event, m.Session) + "/" + m.Scan }

// targetOf names an event or session in keys and subjects: a digest, so no
// id can reach outside its place.
func targetOf(eventID, sessionID string) string {
	sum := sha256.Sum256([]byte(eventID + "\x00" + sessionID))
	return hex.EncodeToString(sum[:8])
}

// keyOf is a person's key at a target in the arrivals bucket.
func keyOf(target, email string) string {
	sum := sha256.Sum256([]byte(api.NormalizeEmail(email)))
	return target + "." + hex.EncodeToString(sum[:12])
}

func decode[T any](b []byte) (T, bool) {
	var v T
	if len(b) > maxRecordBytes {
		return v, false
	}
	return v, json.Unmarshal(b, &v) == nil
}

// maxRecordBytes bounds a record read from the venue.
const maxRecordBytes = 16 << 10

func encode(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// presence is what a desk tells the venue about itself, every few seconds.
type presence struct {
	Node     string    `json:"node"`
	Desk     string    `json:"desk"`
	Event    string    `json:"event"`
	Session  string    `json:"session,omitempty"`
	Upstream bool      `json:"upstream,omitempty"`
	Alone    bool      `json:"alone,omitempty"`
	Scans    int       `json:"scans"`
	Pending  int       `json:"pending"`
	At       time.Time `json:"at"`
}

// lease is the value of the upstream key: the desk that talks to the
// service for the venue.
type lease struct {
	Node string `json:"node"`
	Desk string `json:"desk"`
}
