package sim

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/evdesk/evdesk/api"
)

// The server's rules, written from the spec and the provider's
// descriptions. They are the simulator's own: nothing here calls the api
// package's validators or shares their code, so the client and the
// simulator can catch each other's mistakes in tests.

// Limits of the spec (section 8) and the provider's descriptions.
const (
	maxAttendeesPerBatch  = 300 // attendee-action PATCH
	maxCoeditorsPerEvent  = 3   // co-editors list and PATCH (maxItems 3)
	maxAllowedDomains     = 50  // allow_domain_list
	maxCalendarEntries    = 6   // calendar (maxItems 6)
	maxTags               = 200 // tags (maxItems 200)
	maxBlockedCountries   = 200 // blocked_countries (maxItems 200)
	maxCategories         = 20  // categories (maxItems 20)
	maxTicketsPerRequest  = 30  // create tickets (maxItems 30)
	maxTicketSessions     = 200 // tickets[].session_ids
	maxExhibitorSessions  = 200 // associated_sessions
	maxRegistrationSource = 16  // registration_source (maxLength 16)
	maxTicketEmail        = 128 // tickets[].email
	maxTicketName         = 64  // first_name, last_name
	maxExternalTicketID   = 128 // external_ticket_id
	maxComments           = 255 // comments
	maxCustomQuestions    = 100 // custom_questions
	maxQuestionTitle      = 256 // custom_questions[].title
)

// Allowed values of the spec's enumerations (section 2).
var (
	eventTypes      = []string{"SIMPLE_EVENT", "CONFERENCE", "RECURRING"}
	accessLevels    = []string{"PRIVATE_UNRESTRICTED", "PRIVATE_RESTRICTED"}
	attendanceTypes = []string{"virtual", "in-person", "hybrid"}
	meetingTypes    = []string{"MEETING", "WEBINAR"}
	eventCategories = []string{"Education & Family", "Business & Networking", "Entertainment & Visual Arts",
		"Food & Drink", "Fitness & Health", "Home & Lifestyle", "Community & Spirituality", "Other"}
	linkTypes        = []string{"registration", "group-join"}
	recurringOptions = []string{"all_sessions", "single_session", "multiple_sessions"}
	permissionGroups = []string{"Publish", "EventConfiguration", "EventBranding", "Registration & Join", "Venue",
		"EventExperience", "EventPlanning", "SpecialRole", "PostEvent", "Analytics", "Email", "Integrations"}
	coeditorOperations = []string{"add", "update", "delete"}
	validationLevels   = []string{"standard", "strict", "none"}
)

// repeatLimits are the largest repeat_interval of each recurrence type.
var repeatLimits = map[int]int{1: 90, 2: 12, 3: 3}

// authMethods are the authentication methods of access links, "%s" standing
// for the provider's name.
var authMethods = []string{"%s_account", "%s_account_otp", "corporate_idp", "bypass_auth", "accelerated_auth"}

// checks gathers the problems of one request, each naming its field.
type checks struct{ problems []api.FieldError }

func (c *checks) add(field, format string, args ...any) {
	c.problems = append(c.problems, api.FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// err is the 400 of the problems found, or nil.
func (c *checks) err() error {
	if len(c.problems) == 0 {
		return nil
	}
	return fieldError(c.problems...)
}

// present checks a required text field.
func (c *checks) present(field string, v *string) {
	if v == nil || strings.TrimSpace(*v) == "" {
		c.add(field, "is required.")
	}
}

// notBlank checks an optional text field that, when sent, must say something.
func (c *checks) notBlank(field string, v *string) {
	if v != nil && strings.TrimSpace(*v) == "" {
		c.add(field, "must not be blank when sent.")
	}
}

// among checks an enumeration (exact spelling).
func (c *checks) among(field string, v *string, allowed []string) {
	if v == nil || *v == "" || slices.Contains(allowed, *v) {
		return
	}
	c.add(field, "%q is not allowed; use one of %s.", *v, strings.Join(allowed, ", "))
}

// atMost checks a list's length.
func (c *checks) atMost(field string, n, limit int, what string) {
	if n > limit {
		c.add(field, "holds %d %s; at most %d are allowed.", n, what, limit)
	}
}

// longest checks a text's length in characters.
func (c *checks) longest(field, v string, limit int) {
	if n := len([]rune(v)); n > limit {
		c.add(field, "is %d characters long; at most %d are allowed.", n, limit)
	}
}

// wireTimeLayout is the spec's date-time form: UTC, whole seconds.
const wireTimeLayout = "2006-01-02T15:04:05Z"

var wireTimePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`)

// dateTime reads a date-time field in the spec's form
// (yyyy-MM-ddTHH:mm:ssZ); nil when absent or malformed (then a problem).
func (c *checks) dateTime(field string, v *string) *time.Time {
	if v == nil {
		return nil
	}
	t, err := time.Parse(wireTimeLayout, *v)
	if err != nil || !wireTimePattern.MatchString(*v) {
		c.add(field, "%q is not a date-time of the form yyyy-MM-ddTHH:mm:ssZ (UTC, whole seconds).", *v)
		return nil
	}
	return &t
}

// timezone checks an IANA timezone name.
func (c *checks) timezone(field string, v *string) {
	if v == nil || strings.TrimSpace(*v) == "" {
		return
	}
	if _, err := time.LoadLocation(*v); err != nil || *v == "Local" {
		c.add(field, "%q is not a supported timezone.", *v)
	}
}

// countries checks a list of two-letter ISO 3166-1 country codes.
func (c *checks) countries(field string, codes []string) {
	c.atMost(field, len(codes), maxBlockedCountries, "countries")
	for i, code := range codes {
		if !isCountryCode(code) {
			c.add(fmt.Sprintf("%s[%d]", field, i), "%q is not a two-letter ISO country code such as US.", code)
		}
	}
}

// isCountryCode reports an assigned two-letter ISO 3166-1 code in upper
// case (former codes such as UK are not accepted). The simulator keeps its
// own table, apart from the client's (it checks the client), by first
// letter; TestSimCountryCodesMatchXText holds it to golang.org/x/text's
// region registry, a test-only dependency.
func isCountryCode(s string) bool {
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return false
	}
	return strings.IndexByte(secondLetters[s[:1]], s[1]) >= 0
}

// secondLetters lists, for each first letter, the second letters of the
// current codes that start with it.
var secondLetters = map[string]string{
	"A": "CDEFGILMNOQRSTUWXZ",
	"B": "ABDEFGHIJLMNOQRSTVWYZ",
	"C": "ACDFGHIKLMNOPQRSUVWXYZ",
	"D": "EGJKMOZ",
	"E": "ACEGHRSTZ",
	"F": "IJKMOQR",
	"G": "ABDEFGHILMNPQRSTUWY",
	"H": "KMNRTU",
	"I": "CDELMNOQRST",
	"J": "EMOP",
	"K": "EGHIMNPRWYZ",
	"L": "ABCIKRSTUVY",
	"M": "ACDEFGHKLMNOPQRSTUVWXYZ",
	"N": "ACEFGILOPRTUZ",
	"O": "M",
	"P": "ACEFGHKLMNRSTWY",
	"Q": "A",
	"R": "EOSUW",
	"S": "ABCDEGHIJKLMNORSTUVXYZ",
	"T": "ACDFGHJKLMNORTVWZ",
	"U": "AGMNSYZ",
	"V": "ACEGINU",
	"W": "FS",
	"X": "K",
	"Y": "ETU",
	"Z": "AMW",
}

// email reports whether s reads as an address: one @, something before it,
// a dotted domain after it, nothing invisible.
func validEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || strings.Contains(domain, "@") || len(s) > 254 {
		return false
	}
	if !strings.Contains(strings.Trim(domain, "."), ".") || strings.Contains(domain, "..") {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune("<>,;\"", r) ||
			unicode.Is(unicode.Bidi_Control, r)
	})
}

// normEmail is how the simulator stores and compares addresses.
func normEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// validURL reports whether s is an absolute http(s) URL with a host name.
func validURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.Contains(u.Hostname(), ".") &&
		!strings.ContainsAny(s, " \t\r\n")
}

// validDomain reports whether s is a domain name such as example.org.
func validDomain(s string) bool {
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	labels := strings.Split(d, ".")
	if len(d) > 253 || len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") ||
			strings.ContainsFunc(l, func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' }) {
			return false
		}
	}
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

// badRequest is a 400 with a documented code and the provider's message.
func badRequest(code int, msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: code, Message: msg}
}
