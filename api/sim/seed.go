package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
)

// Fixtures names seeded records with known properties, for tests and demos.
// The ids are the same on every run.
type Fixtures struct {
	DraftEventID         string // demo host; DRAFT
	UpcomingEventID      string // demo host; published, upcoming, has registrants
	NoRegistrantsEventID string // demo host; published, upcoming, no registrants
	PastEventID          string // demo host; published, ended
	CancelledEventID     string // demo host; cancelled, would still be upcoming
	ConferenceEventID    string // demo host; CONFERENCE, upcoming
	RecurringEventID     string // demo host; weekly RECURRING series, upcoming
	MonthlyEventID       string // demo host; monthly (by day) RECURRING series
	OtherHostEventID     string // other host; upcoming; the demo host is not registered
	AttendedEventID      string // other host; upcoming; the demo host is registered

	LargeConferenceEventID   string // demo host; hybrid CONFERENCE, LargeConferenceRegistrants registrants
	LargeConferenceSessionID string // its opening keynote
	ConferenceSessionID      string // first session of ConferenceEventID
	RecurringSessionID       string // first occurrence of RecurringEventID

	BigEmailEventID string // demo host; upcoming; its invitation went to BigEmailRecipients people
	BigEmailTypeID  string // that invitation (status sent)

	// QuestionsEventID is the event whose registration form has required
	// questions (the conference; RequiredQuestions lists them); other
	// events ask only for optional names.
	QuestionsEventID string
}

// Fixtures returns the ids of notable seeded events.
func (s *Sim) Fixtures() Fixtures { return s.fixtures }

type seedState int

const (
	seedUpcoming seedState = iota
	seedPast
	seedDraft
	seedCancelled
)

// seedRecurrence is a recurrence with its end date relative to the seed day.
type seedRecurrence struct {
	typ, interval, endTimes int
	untilDay                int // end_date_time, days after the seed day (0 = none)
	weekly                  []int
	monthDay                int
	week, weekDay           int
}

// seedEvent describes one seeded event; times are relative to the clock's
// current UTC day, in the venue's (or the named) timezone.
type seedEvent struct {
	name    string // "{year}" becomes the start year
	typ     string
	att     string
	state   seedState
	day     int    // first day, relative to the seed day
	at      string // local start, "15:04"
	mins    int    // length of each session
	days    int    // conference days
	where   string // a seedVenues key, or a timezone for virtual events
	hub     string
	cats    string // categories, "|"-separated
	tags    string // comma-separated
	tagline string
	rec     *seedRecurrence
}

type seedVenue struct {
	api.Venue
	tz string
}

var seedVenues = map[string]seedVenue{
	"lis": {api.Venue{Name: "Centro de Congressos de Lisboa", StreetAddress: "Praça das Indústrias 1", City: "Lisboa", State: "Lisboa", PostalCode: "1300-307", Country: "PT"}, "Europe/Lisbon"},
	"opo": {api.Venue{Name: "Taylor's Port Cellars", StreetAddress: "Rua do Choupelo 250", City: "Vila Nova de Gaia", State: "Porto", PostalCode: "4400-088", Country: "PT"}, "Europe/Lisbon"},
	"ber": {api.Venue{Name: "Station Berlin", StreetAddress: "Luckenwalder Str. 4-6", City: "Berlin", State: "Berlin", PostalCode: "10963", Country: "DE"}, "Europe/Berlin"},
	"lon": {api.Venue{Name: "The Brewery", StreetAddress: "52 Chiswell Street", City: "London", State: "England", PostalCode: "EC1Y 4SD", Country: "GB"}, "Europe/London"},
	"dub": {api.Venue{Name: "The Convention Centre Dublin", StreetAddress: "Spencer Dock, North Wall Quay", City: "Dublin", State: "Dublin", PostalCode: "D01 T1W6", Country: "IE"}, "Europe/Dublin"},
	"ams": {api.Venue{Name: "RAI Amsterdam", StreetAddress: "Europaplein 24", City: "Amsterdam", State: "North Holland", PostalCode: "1078 GZ", Country: "NL"}, "Europe/Amsterdam"},
	"amk": {api.Venue{Name: "De Kookfabriek", StreetAddress: "Roelof Hartstraat 68", City: "Amsterdam", State: "North Holland", PostalCode: "1071 VM", Country: "NL"}, "Europe/Amsterdam"},
	"nyc": {api.Venue{Name: "Javits Center", StreetAddress: "429 11th Ave", City: "New York", State: "NY", PostalCode: "10001", Country: "US"}, "America/New_York"},
	"bkn": {api.Venue{Name: "Prospect Park Boathouse", StreetAddress: "101 East Drive", City: "Brooklyn", State: "NY", PostalCode: "11225", Country: "US"}, "America/New_York"},
	"sfo": {api.Venue{Name: "Moscone Center West", StreetAddress: "800 Howard St", City: "San Francisco", State: "CA", PostalCode: "94103", Country: "US"}, "America/Los_Angeles"},
	"pdx": {api.Venue{Name: "Clay Collective Studio", StreetAddress: "2137 SE Division St", City: "Portland", State: "OR", PostalCode: "97202", Country: "US"}, "America/Los_Angeles"},
	"aus": {api.Venue{Name: "Austin Convention Center", StreetAddress: "500 E Cesar Chavez St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}, "America/Chicago"},
	"tor": {api.Venue{Name: "Metro Toronto Convention Centre", StreetAddress: "255 Front St W", City: "Toronto", State: "ON", PostalCode: "M5V 2W6", Country: "CA"}, "America/Toronto"},
	"sao": {api.Venue{Name: "Expo Center Norte", StreetAddress: "Rua José Bernardo Pinto 333", City: "São Paulo", State: "SP", PostalCode: "02055-000", Country: "BR"}, "America/Sao_Paulo"},
	"tyo": {api.Venue{Name: "Tokyo International Forum", StreetAddress: "3-5-1 Marunouchi, Chiyoda-ku", City: "Tokyo", State: "Tokyo", PostalCode: "100-0005", Country: "JP"}, "Asia/Tokyo"},
	"sin": {api.Venue{Name: "Sands Expo and Convention Centre", StreetAddress: "10 Bayfront Ave", City: "Singapore", State: "Singapore", PostalCode: "018956", Country: "SG"}, "Asia/Singapore"},
	"blr": {api.Venue{Name: "Bangalore International Exhibition Centre", StreetAddress: "10th Mile, Tumkur Road", City: "Bengaluru", State: "Karnataka", PostalCode: "562123", Country: "IN"}, "Asia/Kolkata"},
	"syd": {api.Venue{Name: "ICC Sydney", StreetAddress: "14 Darling Dr", City: "Sydney", State: "NSW", PostalCode: "2000", Country: "AU"}, "Australia/Sydney"},
	"akl": {api.Venue{Name: "GridAKL", StreetAddress: "12 Madden St, Wynyard Quarter", City: "Auckland", State: "Auckland", PostalCode: "1010", Country: "NZ"}, "Pacific/Auckland"},
	"cpt": {api.Venue{Name: "Cape Town International Convention Centre", StreetAddress: "1 Lower Long St", City: "Cape Town", State: "Western Cape", PostalCode: "8001", Country: "ZA"}, "Africa/Johannesburg"},
}

const (
	sS = api.EventTypeSimple
	sC = api.EventTypeConference
	sR = api.EventTypeRecurring
	aV = api.AttendanceVirtual
	aI = api.AttendanceInPerson
	aH = api.AttendanceHybrid
)

func weekly(interval, endTimes, untilDay int, days ...int) *seedRecurrence {
	return &seedRecurrence{typ: api.RecurrenceWeekly, interval: interval, endTimes: endTimes, untilDay: untilDay, weekly: days}
}

// Seed hub keys.
const (
	hubMain     = "main"
	hubNoConf   = "community"
	hubInternal = "internal"
	hubOther    = "other"
)

var demoSeed = []seedEvent{
	// Published, upcoming (two series started already and run on).
	{"Northwind Partner Summit {year}", sC, aH, seedUpcoming, 41, "09:00", 510, 3, "lis", hubMain, "Business & Networking", "partners,keynote,roadmap", "Three days with the people who build on Northwind.", nil},
	{"Kubernetes Day Lisbon", sC, aI, seedUpcoming, 23, "09:30", 480, 2, "lis", hubMain, "Business & Networking|Other", "kubernetes,cloud native,devops", "Cloud-native talks and hallway tracks by the Tagus.", nil},
	{"Quarterly All-Hands", sS, aV, seedUpcoming, 12, "16:00", 90, 0, "America/New_York", hubInternal, "Business & Networking", "internal,all-hands", "Results, roadmap and open Q&A with the leadership team.", nil},
	{"Pottery for Beginners (weekly)", sR, aI, seedUpcoming, -10, "18:00", 120, 0, "pdx", hubNoConf, "Entertainment & Visual Arts|Home & Lifestyle", "ceramics,wheel throwing,workshop", "Centre, open and pull your first bowls on the wheel.", weekly(1, 8, 0, 3, 5)},
	{"Data Engineering Meetup Berlin", sS, aI, seedUpcoming, 9, "19:00", 150, 0, "ber", hubMain, "Business & Networking", "data,streaming,meetup", "Lightning talks on pipelines that survive Monday mornings.", nil},
	{"Cloud Cost Optimisation Masterclass", sS, aV, seedUpcoming, 16, "10:00", 120, 0, "Europe/London", hubMain, "Education & Family|Business & Networking", "finops,cloud,webinar", "Cut your cloud bill without slowing your teams.", nil},
	{"Customer Advisory Board", sS, aH, seedUpcoming, 30, "13:00", 240, 0, "lon", hubMain, "Business & Networking", "customers,advisory,strategy", "Shape next year's roadmap with our closest customers.", nil},
	{"Women in Tech Breakfast Toronto", sS, aI, seedUpcoming, 19, "08:00", 120, 0, "tor", hubMain, "Business & Networking|Community & Spirituality", "diversity,networking,breakfast", "Coffee, pastries and candid career stories.", nil},
	{"Observability Summit APAC", sC, aH, seedUpcoming, 55, "09:00", 480, 2, "sin", hubMain, "Business & Networking", "observability,sre,tracing", "Logs, metrics and traces from teams running at scale.", nil},
	{"Product Launch Live: Northwind Atlas", sS, aV, seedUpcoming, 6, "17:00", 60, 0, "Europe/Berlin", hubMain, "Business & Networking", "launch,product,atlas", "See Atlas live and get your questions answered.", nil},
	{"Morning Yoga Flow", sR, aV, seedUpcoming, 3, "07:00", 45, 0, "Australia/Sydney", hubNoConf, "Fitness & Health", "yoga,wellbeing,morning", "Forty-five gentle minutes to start the day.", weekly(1, 0, 60, 2, 4, 6)},
	{"Monthly Product Office Hours", sR, aV, seedUpcoming, 8, "15:00", 60, 0, "America/Chicago", hubMain, "Education & Family", "office hours,product,q&a", "Bring your questions; product managers bring answers.",
		&seedRecurrence{typ: api.RecurrenceMonthly, interval: 1, endTimes: 6, monthDay: 15}},
	{"Leadership Book Club", sR, aH, seedUpcoming, 5, "18:30", 90, 0, "dub", hubInternal, "Education & Family|Community & Spirituality", "books,leadership,discussion", "One book a month, one honest conversation.",
		&seedRecurrence{typ: api.RecurrenceMonthly, interval: 1, untilDay: 200, week: -1, weekDay: 5}},
	{"Spanish Conversation Circle", sR, aV, seedUpcoming, 4, "19:00", 60, 0, "Europe/Madrid", hubNoConf, "Education & Family", "languages,spanish,conversation", "Practise your Spanish with friendly native speakers.", weekly(2, 10, 0, 5)},
	{"Quarterly Security Briefing", sR, aV, seedUpcoming, 7, "14:00", 60, 0, "America/New_York", hubInternal, "Business & Networking", "security,compliance,internal", "Threats we saw, fixes we shipped, what comes next.",
		&seedRecurrence{typ: api.RecurrenceMonthly, interval: 3, endTimes: 4, week: 1, weekDay: 3}},
	{"Daily Stand-up Broadcast", sR, aV, seedUpcoming, -5, "09:00", 15, 0, "Asia/Kolkata", hubInternal, "Business & Networking", "stand-up,engineering,daily", "Fifteen minutes: yesterday, today, blockers.",
		&seedRecurrence{typ: api.RecurrenceDaily, interval: 1, endTimes: 30}},
	{"Tokyo Developer Conference", sC, aH, seedUpcoming, 72, "10:00", 450, 2, "tyo", hubMain, "Business & Networking|Other", "developers,apis,japan", "Two days of APIs, SDKs and hands-on labs.", nil},
	{"AI in Healthcare Forum", sC, aV, seedUpcoming, 47, "14:00", 240, 2, "Europe/Amsterdam", hubMain, "Fitness & Health|Business & Networking", "ai,healthcare,ethics", "Clinicians and engineers on what actually works.", nil},
	{"Sydney Startup Pitch Night", sS, aI, seedUpcoming, 26, "18:00", 180, 0, "syd", hubMain, "Business & Networking", "startups,pitch,investors", "Ten founders, five minutes each, one winner.", nil},
	{"Intro to Sourdough Baking", sS, aI, seedUpcoming, 14, "10:00", 180, 0, "amk", hubNoConf, "Food & Drink", "baking,sourdough,workshop", "Feed a starter, shape a loaf, take it home warm.", nil},
	{"Sales Kickoff Americas", sC, aH, seedUpcoming, 35, "08:30", 540, 3, "aus", hubInternal, "Business & Networking", "sales,kickoff,internal", "New territories, new playbooks, one team.", nil},
	{"Accessibility Design Workshop", sS, aV, seedUpcoming, 8, "15:00", 120, 0, "Europe/Dublin", hubMain, "Education & Family", "accessibility,design,ux", "Hands-on fixes for the barriers users hit most.", nil},
	{"Cape Town Fintech Breakfast", sS, aI, seedUpcoming, 28, "07:30", 120, 0, "cpt", hubMain, "Business & Networking", "fintech,payments,breakfast", "Payments leaders on building for the next billion.", nil},
	{"São Paulo Retail Innovation Day", sS, aH, seedUpcoming, 38, "09:00", 480, 0, "sao", hubMain, "Business & Networking", "retail,ecommerce,innovation", "How Brazil's retailers blend stores and screens.", nil},
	{"Bengaluru DevOps Days", sC, aI, seedUpcoming, 63, "09:00", 480, 2, "blr", hubMain, "Business & Networking|Other", "devops,ci/cd,platform", "Platform teams share what they automated and why.", nil},
	{"Mindful Leadership Webinar", sS, aV, seedUpcoming, 4, "12:00", 60, 0, "America/Los_Angeles", hubMain, "Community & Spirituality|Business & Networking", "leadership,mindfulness,webinar", "Calmer decisions in noisy weeks.", nil},
	{"Northwind Certification Bootcamp", sC, aV, seedUpcoming, 21, "13:00", 240, 3, "UTC", hubMain, "Education & Family", "certification,training,bootcamp", "Three afternoons to your Northwind Practitioner badge.", nil},
	{"Family Coding Saturday", sS, aH, seedUpcoming, 17, "10:00", 180, 0, "nyc", hubNoConf, "Education & Family", "kids,coding,scratch", "Parents and kids build a game together.", nil},
	{"Wine Tasting: Douro Valley Reds", sS, aI, seedUpcoming, 33, "17:00", 120, 0, "opo", hubNoConf, "Food & Drink", "wine,tasting,douro", "Six reds, one valley, a cellar full of stories.", nil},
	{"Town Hall: Engineering Roadmap", sS, aV, seedUpcoming, 11, "17:00", 60, 0, "Europe/London", hubInternal, "Business & Networking", "internal,roadmap,engineering", "What we build next half and why.", nil},
	{"API Design Guild", sR, aV, seedUpcoming, 2, "16:00", 60, 0, "Europe/Berlin", hubInternal, "Education & Family", "api,design,guild", "Review real API proposals with peers.", weekly(1, 12, 0, 4)},
	{"Half-Marathon Training Group", sR, aI, seedUpcoming, -14, "07:00", 75, 0, "bkn", hubNoConf, "Fitness & Health", "running,training,community", "Easy miles on weekdays, long runs on Sundays.", weekly(1, 0, 70, 1, 4)},
	{"Community Garden Volunteer Day", sS, aI, seedUpcoming, 20, "09:00", 240, 0, "bkn", hubNoConf, "Community & Spirituality|Home & Lifestyle", "volunteering,garden,community", "Plant, weed and share lunch with neighbours.", nil},
	{"SRE Incident Review Live", sS, aV, seedUpcoming, 5, "18:00", 60, 0, "Asia/Singapore", hubMain, "Education & Family", "sre,incidents,postmortem", "A blameless walk through last month's outage.", nil},
	{"Partner Enablement: Atlas 3.0 Release", sS, aV, seedUpcoming, 24, "14:00", 90, 0, "America/New_York", hubMain, "Business & Networking", "partners,enablement,release", "Everything partners need to sell and support Atlas 3.0.", nil},
	{"Cybersecurity Awareness Week", sC, aV, seedUpcoming, 50, "11:00", 120, 5, "America/Chicago", hubMain, "Education & Family|Business & Networking", "security,awareness,phishing", "Five short sessions that make phishing harder.", nil},
	{"Photography Basics: Golden Hour", sS, aV, seedUpcoming, 13, "19:30", 90, 0, "America/Toronto", hubNoConf, "Entertainment & Visual Arts", "photography,light,beginners", "Use the best light of the day, with any camera.", nil},
	{"Healthy Cooking Live", sS, aV, seedUpcoming, 27, "18:00", 60, 0, "America/Sao_Paulo", hubNoConf, "Food & Drink|Fitness & Health", "cooking,nutrition,live", "Cook along: three quick dinners, one shopping list.", nil},
	{"Auckland Product Meetup", sS, aI, seedUpcoming, 44, "18:00", 150, 0, "akl", hubMain, "Business & Networking", "product management,meetup,nz", "Product people, pizza and honest post-mortems.", nil},

	// Published, past.
	{"DevRel Unconference Amsterdam", sC, aI, seedPast, -45, "09:30", 450, 2, "ams", hubMain, "Business & Networking|Other", "devrel,community,unconference", "You set the agenda; we bring the coffee.", nil},
	{"Annual Kickoff All-Hands", sS, aV, seedPast, -80, "16:00", 120, 0, "America/New_York", hubInternal, "Business & Networking", "internal,all-hands,kickoff", "The year's goals, in one room, for everyone.", nil},
	{"Customer Success Summit", sC, aH, seedPast, -30, "09:00", 480, 2, "nyc", hubMain, "Business & Networking", "customer success,retention,summit", "Playbooks from teams with the best renewal rates.", nil},
	{"Winter Running Club", sR, aI, seedPast, -70, "07:00", 60, 0, "bkn", hubNoConf, "Fitness & Health", "running,winter,community", "Cold mornings, warm company.", weekly(1, 8, 0, 2, 5)},
	{"Intro to Kubernetes Webinar", sS, aV, seedPast, -12, "15:00", 60, 0, "Europe/Berlin", hubMain, "Education & Family", "kubernetes,beginners,webinar", "Pods, deployments and services in one hour.", nil},
	{"Berlin Growth Marketing Night", sS, aI, seedPast, -20, "19:00", 150, 0, "ber", hubMain, "Business & Networking", "marketing,growth,meetup", "Experiments that worked, and the many that did not.", nil},
	{"Hackathon: Green Software", sC, aH, seedPast, -35, "10:00", 480, 2, "ams", hubMain, "Other|Community & Spirituality", "hackathon,sustainability,green software", "Build something that uses less energy.", nil},
	{"Onboarding Webinar for New Customers", sR, aV, seedPast, -60, "10:00", 45, 0, "Europe/London", hubMain, "Education & Family", "onboarding,customers,webinar", "Your first week with Northwind, step by step.",
		&seedRecurrence{typ: api.RecurrenceDaily, interval: 7, endTimes: 6}},
	{"Diversity & Inclusion Panel", sS, aV, seedPast, -8, "17:00", 90, 0, "America/New_York", hubMain, "Community & Spirituality", "diversity,inclusion,panel", "Four leaders on building teams where everyone belongs.", nil},
	{"Tokyo Customer Roundtable", sS, aI, seedPast, -15, "15:00", 120, 0, "tyo", hubMain, "Business & Networking", "customers,roundtable,japan", "An intimate conversation with our customers in Japan.", nil},

	// Drafts.
	{"Northwind Developer Conference {year}", sC, aH, seedDraft, 120, "09:00", 510, 3, "sfo", hubMain, "Business & Networking|Other", "developers,conference,keynote", "Our biggest builder event of the year.", nil},
	{"Watercolour Sketching (weekly)", sR, aI, seedDraft, 30, "10:00", 120, 0, "pdx", hubNoConf, "Entertainment & Visual Arts", "watercolour,sketching,art", "Loose, joyful sketches in six Saturday sessions.", weekly(1, 6, 0, 7)},
	{"Investor Day", sS, aH, seedDraft, 90, "13:00", 240, 0, "nyc", hubMain, "Business & Networking", "investors,strategy,finance", "Strategy, numbers and a look at the next three years.", nil},
	{"Holiday Charity Auction", sS, aH, seedDraft, 75, "18:00", 180, 0, "lon", hubNoConf, "Community & Spirituality|Entertainment & Visual Arts", "charity,auction,holiday", "Bid generously; every pound goes to local shelters.", nil},
	{"Internal Hackathon Kickoff", sS, aV, seedDraft, 40, "09:00", 60, 0, "Europe/Lisbon", hubInternal, "Other", "internal,hackathon", "Teams, themes and the rules for 48 hours of building.", nil},
	{"Sustainability Report Briefing", sS, aV, seedDraft, 58, "15:00", 60, 0, "Europe/Amsterdam", hubMain, "Business & Networking", "sustainability,esg,report", "Our emissions, our targets, our progress.", nil},
	{"Marketing Ops Summit", sC, aV, seedDraft, 100, "16:00", 180, 2, "America/Los_Angeles", hubMain, "Business & Networking", "marketing ops,automation,summit", "Tools and processes behind campaigns that ship on time.", nil},
	{"Cheese Making Workshop", sS, aI, seedDraft, 48, "14:00", 180, 0, "amk", hubNoConf, "Food & Drink", "cheese,workshop,food", "Make fresh mozzarella and ricotta from scratch.", nil},

	// Cancelled.
	{"Lisbon Sales Offsite", sC, aI, seedCancelled, 18, "09:00", 480, 2, "lis", hubInternal, "Business & Networking", "sales,offsite,internal", "Two days to plan the next half together.", nil},
	{"Open Source Contributor Day", sS, aH, seedCancelled, 25, "10:00", 420, 0, "ber", hubMain, "Other|Education & Family", "open source,contributing,community", "Your first pull request, with mentors at hand.", nil},
	{"Chess Club Evenings", sR, aI, seedCancelled, 10, "19:00", 120, 0, "bkn", hubNoConf, "Entertainment & Visual Arts|Community & Spirituality", "chess,club,evenings", "Casual games and a monthly blitz tournament.", weekly(1, 10, 0, 4)},
	{"Supplier Risk Webinar", sS, aV, seedCancelled, -22, "16:00", 60, 0, "Europe/London", hubMain, "Business & Networking", "risk,procurement,webinar", "Assess suppliers without drowning in questionnaires.", nil},
	{"Summer Product Fair", sC, aI, seedCancelled, -40, "10:00", 420, 2, "aus", hubMain, "Business & Networking|Food & Drink", "product fair,demos,summer", "Demos, food trucks and the whole product team.", nil},
	{"Parenting in the Digital Age", sS, aV, seedCancelled, 15, "19:00", 60, 0, "America/Chicago", hubNoConf, "Education & Family|Home & Lifestyle", "parenting,screen time,family", "Practical rules for screens at home.", nil},
}

var otherSeed = []seedEvent{
	{"Contoso Analytics Summit", sC, aH, seedUpcoming, 29, "09:00", 480, 2, "sfo", hubOther, "Business & Networking", "analytics,data,summit", "Dashboards are the start; decisions are the point.", nil},
	{"Contoso Design Systems Meetup", sS, aI, seedUpcoming, 12, "18:30", 120, 0, "dub", hubOther, "Entertainment & Visual Arts|Business & Networking", "design systems,ui,meetup", "Tokens, components and the people who maintain them.", nil},
	{"Machine Learning Study Group", sR, aV, seedUpcoming, 6, "18:00", 60, 0, "Asia/Kolkata", hubOther, "Education & Family", "machine learning,study group", "One paper a week, explained by a volunteer.", weekly(1, 10, 0, 3)},
	{"Contoso Customer Webinar: Data Privacy", sS, aV, seedUpcoming, 9, "16:00", 60, 0, "Europe/Berlin", hubOther, "Business & Networking", "privacy,gdpr,webinar", "What the new rules mean for your data team.", nil},
	{"Contoso Year in Review", sS, aV, seedPast, -25, "17:00", 60, 0, "America/New_York", hubOther, "Business & Networking", "review,highlights", "The year's highlights in sixty minutes.", nil},
	{"Contoso Leadership Offsite", sS, aI, seedDraft, 60, "09:00", 480, 0, "cpt", hubOther, "Business & Networking", "leadership,offsite,planning", "Planning the year ahead, away from screens.", nil},
}

var (
	// Events each host is registered for as an attendee of the other's events.
	demoAttends  = []string{"Contoso Analytics Summit", "Contoso Design Systems Meetup", "Contoso Year in Review"}
	otherAttends = []string{"Product Launch Live: Northwind Atlas", "Cloud Cost Optimisation Masterclass", "Intro to Kubernetes Webinar"}
	// Published events nobody registered for (cancel needs no message).
	noRegistrants = map[string]bool{"Accessibility Design Workshop": true, "SRE Incident Review Live": true, "Parenting in the Digital Age": true}

	demoContacts  = []string{"Alex Morgan", "Jamie Chen", "Sofia Alves", "Marcus Weber", "Hana Sato", "Tom Okafor"}
	otherContacts = []string{"Priya Raman", "Daniel Kim"}
	blockedSets   = [][]string{{"KP", "IR", "SY", "CU"}, {"RU", "BY"}, {"KP"}}
	weekdayNames  = []string{"", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	weekOrdinals  = map[int]string{-1: "last", 1: "first", 2: "second", 3: "third", 4: "fourth"}
)

// seed fills the store: hubs, the demo host's events and the other host's.
// Everything derives from the clock's current UTC day and fixed RNG seeds.
func (s *Sim) seed(now time.Time) {
	day0 := now.UTC().Truncate(24 * time.Hour)
	rng := rand.New(rand.NewPCG(0x5eed, 2027))
	hubURL := func(slug string) string { return "https://events." + s.word + ".example/hub/" + slug }
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	s.st.hubs = []*hubRec{
		{ID: HubID, Name: "Northwind Events", OwnerID: DemoHostID, AccessLevel: "PUBLIC", PublicURL: hubURL("northwind"), Active: true, AutoList: true, Landing: true, Conference: true},
		{ID: NoConferenceHubID, Name: "Northwind Community Workshops", OwnerID: DemoHostID, AccessLevel: "PUBLIC", PublicURL: hubURL("northwind-community"), Active: true, AutoList: true},
		{ID: InternalHubID, Name: "Northwind Internal", OwnerID: DemoHostID, AccessLevel: "INTERNAL", Hidden: true, Active: true, Conference: true},
		{ID: OtherHostHubID, Name: "Contoso Learning Hub", OwnerID: OtherHostID, AccessLevel: "PUBLIC", PublicURL: hubURL("contoso"), Active: true, AutoList: true, Landing: true, Conference: true},
	}
	hubIDs := map[string]string{hubMain: HubID, hubNoConf: NoConferenceHubID, hubInternal: InternalHubID, hubOther: OtherHostHubID}
	byName := map[string]*eventRec{}
	for _, group := range []struct {
		events   []seedEvent
		host     *User
		org      string
		contacts []string
	}{
		{demoSeed, s.st.users[DemoHostID], "northwind.example", demoContacts},
		{otherSeed, s.st.users[OtherHostID], "contoso.example", otherContacts},
	} {
		for _, se := range group.events {
			e := s.seedOne(se, group.host, hubIDs[se.hub], group.org, group.contacts, day0, rng)
			s.st.events[e.ev.EventID] = e
			byName[se.name] = e
		}
	}
	for _, n := range demoAttends {
		byName[n].attendees[DemoHostID] = true
	}
	for _, n := range otherAttends {
		byName[n].attendees[OtherHostID] = true
	}
	id := func(name string) string { return byName[name].ev.EventID }
	s.fixtures = Fixtures{
		DraftEventID:         id("Investor Day"),
		UpcomingEventID:      id("Product Launch Live: Northwind Atlas"),
		NoRegistrantsEventID: id("Accessibility Design Workshop"),
		PastEventID:          id("Intro to Kubernetes Webinar"),
		CancelledEventID:     id("Lisbon Sales Offsite"),
		ConferenceEventID:    id("Northwind Partner Summit {year}"),
		RecurringEventID:     id("Pottery for Beginners (weekly)"),
		MonthlyEventID:       id("Monthly Product Office Hours"),
		OtherHostEventID:     id("Contoso Customer Webinar: Data Privacy"),
		AttendedEventID:      id("Contoso Design Systems Meetup"),
		QuestionsEventID:     id("Northwind Partner Summit {year}"),
	}
	s.seedAttendance(byName)
	s.seedEmails(byName)
}

func (s *Sim) seedOne(se seedEvent, host *User, hubID, org string, contacts []string, day0 time.Time, rng *rand.Rand) *eventRec {
	venue, isVenue := seedVenues[se.where]
	tz := se.where
	if isVenue {
		tz = venue.tz
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		panic(fmt.Sprintf("sim seed: %s: %v", se.name, err))
	}
	var hh, mm int
	if _, err := fmt.Sscanf(se.at, "%d:%d", &hh, &mm); err != nil {
		panic(fmt.Sprintf("sim seed: %s: start %q: %v", se.name, se.at, err))
	}
	d := day0.AddDate(0, 0, se.day)
	local := func(offset int) time.Time {
		return time.Date(d.Year(), d.Month(), d.Day()+offset, hh, mm, 0, 0, loc)
	}
	session := time.Duration(se.mins) * time.Minute
	entry := func(start time.Time) api.CalendarEntry {
		st, en := start.UTC(), start.Add(session).UTC()
		return api.CalendarEntry{StartTime: &st, EndTime: &en}
	}

	id := makeID("seed", host.ID, se.name)
	contact := contacts[rng.IntN(len(contacts))]
	ev := api.Event{
		EventID:        id,
		Timezone:       tz,
		EventType:      se.typ,
		HubID:          hubID,
		AttendanceType: se.att,
		Categories:     strings.Split(se.cats, "|"),
		Tags:           strings.Split(se.tags, ","),
		Tagline:        se.tagline,
		ContactName:    contact,
		ContactEmail:   strings.ReplaceAll(strings.ToLower(contact), " ", ".") + "@" + org,
		Status:         api.StatusPublished,
		EventURL:       s.eventURL(id),
		HostID:         host.ID,
	}
	if se.state == seedDraft {
		ev.Status = api.StatusDraft
	}
	switch r := rng.Float64(); {
	case hubID == InternalHubID:
		ev.AccessLevel = api.AccessPrivateRestricted
	case r < 0.6:
		ev.AccessLevel = api.AccessPrivateUnrestricted
	case r < 0.85:
		ev.AccessLevel = api.AccessPublic
	default:
		ev.AccessLevel = api.AccessPrivateRestricted
	}
	if se.typ != sC {
		ev.MeetingType = api.MeetingTypeMeeting
		if se.att == aV && rng.IntN(5) < 3 {
			ev.MeetingType = api.MeetingTypeWebinar
		}
	}
	if isVenue {
		v := venue.Venue
		ev.Venue = &v
		ev.PhysicalLocation = formatAddress(v)
	}
	if rng.IntN(4) == 0 {
		ev.BlockedCountries = append([]string(nil), blockedSets[rng.IntN(len(blockedSets))]...)
	}

	switch se.typ {
	case sC:
		for i := range max(se.days, 1) {
			ev.Calendar = append(ev.Calendar, entry(local(i)))
		}
	case sR:
		ev.Recurrence = se.rec.build(day0, se.mins)
		occ := occurrences(local(0), loc, ev.Recurrence)
		ev.Calendar = []api.CalendarEntry{entry(occ[0])}
	default:
		ev.Calendar = []api.CalendarEntry{entry(local(0))}
	}
	schedule(&ev, local(0))
	if se.att != aI && se.typ != sR && rng.IntN(2) == 0 {
		ls, le := ev.StartTime.Add(-30*time.Minute), *ev.EndTime
		ev.LobbyStartTime, ev.LobbyEndTime = &ls, &le
	}
	ev.Name = strings.ReplaceAll(se.name, "{year}", fmt.Sprint(ev.StartTime.In(loc).Year()))
	ev.Description = describe(se, ev, org)

	e := &eventRec{ev: ev, cancelled: se.state == seedCancelled, attendees: map[string]bool{}}
	if se.state != seedDraft && !noRegistrants[se.name] {
		e.registrants = 12 + rng.IntN(880)
	}
	return e
}

func (r *seedRecurrence) build(day0 time.Time, mins int) *api.Recurrence {
	rec := &api.Recurrence{Type: r.typ, RepeatInterval: r.interval, Duration: mins, EndTimes: r.endTimes,
		MonthlyWeek: r.week, MonthlyWeekDay: r.weekDay}
	if r.untilDay != 0 {
		until := day0.AddDate(0, 0, r.untilDay).Add(23*time.Hour + 59*time.Minute)
		rec.EndDateTime = &until
	}
	if len(r.weekly) > 0 {
		wd := api.NewWeekDays(false, r.weekly...)
		rec.WeeklyDays = &wd
	}
	if r.monthDay != 0 {
		md := api.NewMonthDays(false, r.monthDay)
		rec.MonthlyDays = &md
	}
	return rec
}

func formatAddress(v api.Venue) string {
	place := v.City
	if v.State != "" && v.State != v.City {
		place += ", " + v.State
	}
	return fmt.Sprintf("%s, %s, %s %s, %s", v.Name, v.StreetAddress, place, v.PostalCode, v.Country)
}

// describe writes a believable description from the seed's facts.
func describe(se seedEvent, ev api.Event, org string) string {
	parts := []string{se.tagline}
	switch se.att {
	case aV:
		parts = append(parts, "Join online from anywhere; your personal link arrives with the confirmation email.")
	case aI:
		parts = append(parts, fmt.Sprintf("Doors open 30 minutes early at %s, %s; bring photo ID for check-in.", ev.Venue.Name, ev.Venue.City))
	case aH:
		parts = append(parts, fmt.Sprintf("Join us at %s in %s or follow the live stream.", ev.Venue.Name, ev.Venue.City))
	}
	switch se.typ {
	case sC:
		parts = append(parts, fmt.Sprintf("%d days of sessions, workshops and time to meet.", len(ev.Calendar)))
	case sR:
		parts = append(parts, describeRecurrence(ev.Recurrence))
	}
	host := "the Northwind events team"
	if strings.HasPrefix(org, "contoso") {
		host = "Contoso"
	}
	parts = append(parts, "Hosted by "+host+".")
	return strings.Join(parts, " ")
}

func describeRecurrence(r *api.Recurrence) string {
	every := func(unit string) string {
		if r.RepeatInterval > 1 {
			return fmt.Sprintf("every %d %ss", r.RepeatInterval, unit)
		}
		return "every " + unit
	}
	var when string
	switch r.Type {
	case api.RecurrenceDaily:
		when = "Meets " + every("day")
	case api.RecurrenceWeekly:
		var names []string
		for _, d := range r.WeeklyDays.Days {
			names = append(names, weekdayNames[d])
		}
		when = "Meets " + every("week") + " on " + strings.Join(names, " and ")
	case api.RecurrenceMonthly:
		if r.MonthlyWeek != 0 {
			when = fmt.Sprintf("Meets on the %s %s of %s", weekOrdinals[r.MonthlyWeek], weekdayNames[r.MonthlyWeekDay], every("month"))
		} else {
			when = fmt.Sprintf("Meets on day %d of %s", r.MonthlyDays.Days[0], every("month"))
		}
	}
	if r.EndTimes > 0 {
		return fmt.Sprintf("%s, %d sessions of %d minutes.", when, r.EndTimes, r.Duration)
	}
	return fmt.Sprintf("%s until %s, %d minutes each.", when, r.EndDateTime.Format("2 January 2006"), r.Duration)
}
