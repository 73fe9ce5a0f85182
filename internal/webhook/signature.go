// Package webhook receives the provider's webhook deliveries: it answers
// the endpoint URL validation challenge, verifies each delivery's signature
// and timestamp, refuses replays, and types the events the platform's
// change log names. The HTTP side (Listener) answers at once and hands
// accepted events to a worker, so what is done with an event (printing,
// forwarding, spooling, transcribing) never holds up the provider.
//
// What the provider documents (the and the change log's words):
// the x-zm-signature header is "v0=" and the hex HMAC-SHA256, under the
// endpoint's secret token, of "v0:{x-zm-request-timestamp}:{raw body}";
// the challenge is the event endpoint.url_validation whose payload carries
// plainToken, answered with plainToken and its hex HMAC-SHA256 as
// encryptedToken. The timestamp is read as epoch seconds.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Header names of a delivery.
const (
	HeaderSignature = "x-zm-signature"
	HeaderTimestamp = "x-zm-request-timestamp"
)

// signatureVersion prefixes the signed message and the signature.
const signatureVersion = "v0"

// MaxSkew is how far a delivery's timestamp may be from the listener's
// clock, either way, before it is refused as stale.
const MaxSkew = 5 * time.Minute

// Reasons a delivery is refused. Each is answered 401 and printed (to
// standard error) in these words.
var (
	ErrNoSignature  = errors.New("no " + HeaderSignature + " header")
	ErrBadSignature = errors.New("the signature does not match the body (wrong secret token, or the body was changed)")
	ErrNoTimestamp  = errors.New("no " + HeaderTimestamp + " header")
	ErrBadTimestamp = errors.New("the " + HeaderTimestamp + " header is not a time in epoch seconds")
	ErrStale        = errors.New("the timestamp is more than 5 minutes from this machine's clock")
	ErrReplay       = errors.New("this delivery was received before (a replay)")
)

// Sign is the x-zm-signature value of body sent at timestamp (epoch
// seconds, as the header carries it) under secret.
func Sign(secret, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(signatureVersion + ":" + timestamp + ":"))
	m.Write(body)
	return signatureVersion + "=" + hex.EncodeToString(m.Sum(nil))
}

// Verify checks a delivery's signature and timestamp against secret and
// the clock's now. The signature is compared in constant time; the
// timestamp must be within MaxSkew of now.
func Verify(secret, timestamp, signature string, body []byte, now time.Time) error {
	if strings.TrimSpace(signature) == "" {
		return ErrNoSignature
	}
	if strings.TrimSpace(timestamp) == "" {
		return ErrNoTimestamp
	}
	want := Sign(secret, timestamp, body)
	if !hmac.Equal([]byte(want), []byte(strings.TrimSpace(signature))) {
		return ErrBadSignature
	}
	at, err := ParseTimestamp(timestamp)
	if err != nil {
		return err
	}
	if d := now.Sub(at); d > MaxSkew || d < -MaxSkew {
		return fmt.Errorf("%w (%s, this machine says %s)", ErrStale, at.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	return nil
}

// ParseTimestamp reads the timestamp header: whole epoch seconds.
func ParseTimestamp(s string) (time.Time, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	// Bounded so a wild value cannot overflow the skew arithmetic.
	if err != nil || n <= 0 || n > 1<<40 {
		return time.Time{}, ErrBadTimestamp
	}
	return time.Unix(n, 0), nil
}

// EncryptToken is the challenge's encryptedToken: the hex HMAC-SHA256 of
// plainToken under secret.
func EncryptToken(secret, plainToken string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(plainToken))
	return hex.EncodeToString(m.Sum(nil))
}
