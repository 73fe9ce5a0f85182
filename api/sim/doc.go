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
//   - 400 code 300: invalid fields, each named in an "errors" array of
//     {field, message}; also an unknown or expired next_page_token.
//   - 400 codes 3000, 3001, 3002: delete of an event that is not a draft,
//     publish of an event that is not a draft, cancel of a draft, past or
//     cancelled event.
//   - 403 code 403: the account has no phone service (the spec gives only
//     the status; its text says so, while a missing phone scope is 4711).
//   - AI services: 401 codes 40101 (bad signature, issuer, typ or shape)
//     and 40102 (expired, or a life over an hour); 400 codes 40001 (audio
//     not reachable: only the sample files exist), 40002 (not an audio
//     format), 40003 (a language other than English).
//   - A fault of the fault knobs answers 500, 502 or 503 with code = status.
//
// Other choices:
//   - Tickets for a cancelled event are refused with 26501, as for a draft.
package sim
