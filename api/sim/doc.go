// Package sim is an in-memory simulator of the event-management API: an
// http.Handler serving the spec's endpoints under /v2 with realistic seed
// data, bearer-token auth with scopes, the spec's error codes, expiring page
// tokens on an injectable clock, the LIGHT rate limit and fault knobs
// (latency, 5xx answers, dropped connections), the OAuth authorization
// server and the AI transcription endpoint.
//
// Each resource lives in its own file (events.go, hubs.go, ...) and registers
// its routes from routes in sim.go; the plumbing shared by all of them (auth,
// scopes, JSON, errors, paging, faults, rate limit) lives in sim.go and its
// neighbours. The simulator checks requests with its own code, written from
// the spec and the provider's descriptions (checks.go): it never calls the
// api package's validators, so a client rule that is too strict or too loose
// shows up as a disagreement in the tests.
//
// # Simulator-only behaviour
//
// Everything below is the simulator's own choice where neither the spec nor
// the provider's descriptions say what the service does. The evdesk client
// depends on none of it.
//
// Codes (the constants Code* of this package):
//   - 401 code 124: a missing, unknown or expired access token.
//   - 403 code 4711: the token lacks the endpoint's scope.
//   - 400 code 300: invalid fields, each named in the message as
//     "field: problem"; also an unknown or expired next_page_token.
//   - 400 codes 3000, 3001, 3002: delete of an event that is not a draft,
//     publish of an event that is not a draft, cancel of a draft, past or
//     cancelled event.
//   - 403 code 403: the account has no phone service (the spec gives only
//     the status; its text says so, while a missing phone scope is 4711).
//   - AI services: 401 codes 40101 (bad signature, issuer, typ or shape)
//     and 40102 (expired, or a life over an hour); 400 codes 40001 (audio
//     not reachable: only the sample files exist), 40002 (not an audio
//     format), 40003 (a language other than English).
//   - 429 (the rate limit) and the fault knobs' 500, 502 and 503 carry
//     code = status.
//
// Rate limit: one LIGHT bucket (Options.RPS a second, burst as large) per
// access token, and one per AI API key for the transcription endpoint; a
// 429 carries Retry-After in whole seconds.
//
// Auth and plumbing:
//   - Seeded access tokens (DemoToken, ReadOnlyToken, OtherHostToken,
//     NoPhoneToken, and any added with AddToken) never expire; the OAuth server's tokens live
//     Options.TokenTTL (an hour by default) and its answer adds user_id and
//     account_id. Refresh tokens rotate: a used one is refused
//     (invalid_grant). The demo client is DemoClientID with
//     DemoClientSecret; redirect URIs must equal DemoRedirectURI or one
//     added with RegisterRedirectURI; AutoApproveParam or
//     AutoApproveHeader skips the consent page.
//   - Page tokens are signed, tied to their listing and expire after 15
//     minutes on Options.Now; page_size is 1 to 300 (default 30).
//   - The fault knobs (Options.Latency, ErrorRate, DropRate,
//     PoisonedAddresses: a check-in batch holding one is refused whole with
//     the documented 400) and the hostile package, which attacks the client
//     on purpose, are test tools.
//   - StartTLS serves https (TLS 1.2 or newer) with a certificate made for
//     the run that is its own authority (CAPEM; `evdesk sim --tls` writes it
//     and prints EVDESK_CA_FILE).
//   - Error bodies are the documented { code, message } and nothing more; a
//     400 about fields names them in its message ("field: problem").
//   - Phone: the demo account's policy carries every setting and two the
//     spec does not list (online_fax, call_screening); NoPhoneToken's
//     account has no phone service.
//   - Transcription knows three sample files (SampleAudioURLs) and English.
//   - Listing events without role_type lists the caller's as an attendee.
//
// Requests:
//   - Date-times must be exactly yyyy-MM-ddTHH:mm:ssZ (the spec's form):
//     an offset, a fraction or a date alone is a 400 naming the field.
//   - Enumerations are matched exactly (attendance_type in lower case, as
//     the spec's table writes it); country codes are current two-letter
//     ISO 3166-1 codes in capitals (the registry of golang.org/x/text).
//   - Calendar problems of an update are field errors (code 300): the spec
//     lists 26202 to 26204 for create only.
//   - An update ignores meeting_type (the spec changes it through the
//     session API), as it ignores the read-only start_time and end_time.
//   - Day lists of a recurrence are read in either shape (array, or the
//     compact string or integer).
//
// Tickets (create tickets; the description lists the codes, not when each
// applies):
//   - A recurring event's tickets follow the default access link's
//     recurring_registration_option, else the first registration link's
//     that has one, else all_sessions: the spec does not say which link's
//     option applies (evdesk asks the user: register --link).
//   - 26501 for a draft, and for a cancelled event.
//   - 26502 for a ticket_type_id that cannot be an id (characters other
//     than letters, digits, '-' and '_', or over 64); a well-formed id that
//     is not one of the event's is refused per ticket (ticket_type_notfound).
//   - 2007 (404) when a named ticket type has no seat left at all;
//     stock_not_exist per ticket when its seats run out within a request.
//   - 26401 when a named ticket type is not on sale now; invalid_sale_time
//     per ticket when the event's default type is not. Seeded ticket types
//     are on sale from three months before the event until it ends.
//   - Registration forms: most events ask for an optional first and last
//     name; Fixtures.QuestionsEventID (the conference) requires first_name,
//     job_title, organization and WorkshopQuestion (one of WorkshopChoices).
//     Missing answers are 260504, listing the questions as a JSON array
//     after " - ", as the description's example does; with
//     validation_level=strict, answers to questions the form lacks are
//     260503, listed the same way. registration_needed skips the questions
//     and gives the ticket a registration link instead of a join link.
//   - Per ticket: email_not_found for a missing or malformed address,
//     fast_join_with_registrationNeeded, tickets_duplicate_custom_questions
//     for a title answered twice, invalid_api_registration_questions_answers
//     for an answer outside a question's choices. ticket_generated_failed is
//     never produced.
//
// Change log and webhooks (the change log document shows neither the
// feed's format nor the webhook payloads):
//   - The change log is an RSS 2.0 feed at ChangelogPath, with no access
//     token. Each item's categories are its tags and its areas (phone,
//     webhooks, events, oauth, real-time media streaming). The section 9
//     entries keep their dates; the tags of the dated phone entries are the
//     simulator's choice. The deprecation of the three recording fields and
//     the webhook changes of section 6 carry dates of the simulator's own
//     (their text says so). Three entries are wholly its own and carry the
//     category ChangelogSimCategory ("simulator").
//   - Webhooks (Options.Webhook): the endpoint is validated with the
//     endpoint.url_validation challenge before any event; deliveries are
//     signed with the wall clock's epoch seconds; a failed one is tried
//     again after 1 s, 5 s and 25 s (at most 64 waiting). The payloads are
//     invented: {event, event_ts, payload: {account_id, object}}, with the
//     change log's new fields inside object (participant data events in
//     object.participant, user data in object.user); a recording's
//     external_storage_url is one of SampleAudioURLs in turn.
//   - POST WebhookFirePath is a simulator-only control endpoint (no
//     token): ?event=NAME (repeatable, any name; default every named
//     event) delivers at once and answers each delivery's status;
//     ?replay=1 sends the last delivery again byte for byte.
//
// Other resources:
//   - Co-editors: a fourth co-editor of an event, the event's owner,
//     no-reply and events@ mailboxes, a repeated address, and an update or
//     delete of someone who is not a co-editor are refused per address in
//     the 201 answer's errors, with a message and no code.
//   - Exhibitors: an exhibitor_id sent with a create is answered 1020 when
//     it cannot be an id or names an existing exhibitor, 2006 when it names
//     none; is_sponsor is true when absent.
//   - Access links: each link's URL, the seeded links and ticket types.
package sim
