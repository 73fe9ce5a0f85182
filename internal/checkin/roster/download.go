package roster

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/evdesk/evdesk/api"
)

// Download fetches an event's registrants page by page (300 a page) into a
// roster. The api pager starts the listing over when a page token nears its
// 15-minute life and skips what it delivered, so a long download across
// expiry has no gap and no duplicate. progress (may be nil) hears the count
// after each page. now stamps the roster (the moment the download ends).
func Download(ctx context.Context, c *api.Client, eventID string, now func() time.Time, progress func(loaded, total int)) (*Roster, error) {
	pager := c.Attendees.RegistrantsPager(eventID, api.ListRegistrantsOptions{PageSize: api.MaxAttendeesPerBatch})
	var people []Person
	for !pager.Done() {
		items, err := pager.Next(ctx)
		if err != nil {
			return nil, err
		}
		for _, reg := range items {
			people = append(people, PersonOf(reg))
		}
		if progress != nil {
			progress(len(people), pager.Total())
		}
	}
	return New(eventID, now(), pager.Total(), people), nil
}

// Registered asks the server how many registrants an event has (one small
// request): the count a board compares check-ins with.
func Registered(ctx context.Context, c *api.Client, eventID string) (int, error) {
	l, err := c.Attendees.RegistrantsPage(ctx, eventID, api.ListRegistrantsOptions{PageSize: 1}, "")
	if err != nil {
		return 0, err
	}
	return l.TotalRecords, nil
}

// The registrants list is in the provider's published description only,
// not in the spec. The roster, ticket scans and the cancel count rely on
// it; where the service refuses it the desk checks in by email alone.

// EmailOnly says what a desk without the registrants list can do.
const EmailOnly = "ticket codes need the registrants list (the registrants scope, vendor_events_registrants:read), which the service refused: check in by email"

// RegistrantsRefused reports whether err is the service refusing the
// registrants list itself (403: no scope or plan; 404: no such listing),
// which retrying soon will not change.
func RegistrantsRefused(err error) bool {
	var ae *api.Error
	return errors.As(err, &ae) && (ae.Status == http.StatusForbidden || ae.Status == http.StatusNotFound)
}
