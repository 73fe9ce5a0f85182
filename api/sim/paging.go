package sim

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/evdesk/evdesk/api"
)

// Paging limits of the list endpoints and the life of a next_page_token.
const (
	defaultPageSize = 30
	maxPageSize     = 300
	pageTokenTTL    = 15 * time.Minute
	pageMACSize     = 12
)

// pageLimits are one listing's default and maximum page_size.
type pageLimits struct{ def, max int }

var defaultPageLimits = pageLimits{def: defaultPageSize, max: maxPageSize}

// pageToken is what a next_page_token carries: which listing it belongs to
// (a hash of the listing key), where the next page starts and when it was
// issued on the simulator's clock.
type pageToken struct {
	Listing string `json:"l"`
	Offset  int    `json:"o"`
	Issued  int64  `json:"t"` // Unix milliseconds
}

func pageTokenKey(seed uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	sum := sha256.Sum256(append([]byte("evdesk-sim page tokens "), b[:]...))
	return sum[:]
}

func listingHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

func (s *Sim) encodePageToken(t pageToken) string {
	body, _ := json.Marshal(t)
	mac := hmac.New(sha256.New, s.pageKey)
	mac.Write(body)
	return base64.RawURLEncoding.EncodeToString(append(body, mac.Sum(nil)[:pageMACSize]...))
}

// decodePageToken checks a token's signature, listing and age.
func (s *Sim) decodePageToken(tok, listingKey string, now time.Time) (pageToken, bool) {
	var t pageToken
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(raw) <= pageMACSize {
		return t, false
	}
	body, sum := raw[:len(raw)-pageMACSize], raw[len(raw)-pageMACSize:]
	mac := hmac.New(sha256.New, s.pageKey)
	mac.Write(body)
	if !hmac.Equal(sum, mac.Sum(nil)[:pageMACSize]) || json.Unmarshal(body, &t) != nil {
		return t, false
	}
	issued := time.UnixMilli(t.Issued)
	if t.Listing != listingHash(listingKey) || t.Offset < 0 || !now.Before(issued.Add(pageTokenTTL)) {
		return t, false
	}
	return t, true
}

// paginate cuts one page out of items, the whole filtered and ordered listing,
// per the request's page_size (default 30, max 300) and next_page_token.
// listingKey names the listing (resource, caller, filters): a token is only
// valid for the listing that issued it, for 15 minutes on the simulator's
// clock. total is len(items). err is an *apiError ready to return from a
// handler: 400 code 300 naming page_size, or 400 code 300 "The next page
// token is invalid or expired.".
func paginate[T any](s *Sim, r *http.Request, listingKey string, items []T) (page []T, next string, total int, err error) {
	return paginateWith(s, r, listingKey, items, defaultPageLimits)
}

// paginateWith is paginate with other page_size limits.
func paginateWith[T any](s *Sim, r *http.Request, listingKey string, items []T, lim pageLimits) (page []T, next string, total int, err error) {
	q := r.URL.Query()
	size := lim.def
	if v := q.Get("page_size"); v != "" {
		n, convErr := strconv.Atoi(v)
		if convErr != nil || n < 1 || n > lim.max {
			return nil, "", 0, fieldError(api.FieldError{Field: "page_size",
				Message: fmt.Sprintf("%q is not allowed; use a number from 1 to %d.", v, lim.max)})
		}
		size = n
	}
	now := s.now()
	offset := 0
	if tok := q.Get("next_page_token"); tok != "" {
		t, ok := s.decodePageToken(tok, listingKey, now)
		if !ok {
			return nil, "", 0, errf(http.StatusBadRequest, CodeInvalidPageToken, "The next page token is invalid or expired.")
		}
		offset = t.Offset
	}
	total = len(items)
	offset = min(offset, total)
	end := min(offset+size, total)
	page = items[offset:end]
	if end < total {
		next = s.encodePageToken(pageToken{Listing: listingHash(listingKey), Offset: end, Issued: now.UnixMilli()})
	}
	return page, next, total, nil
}
