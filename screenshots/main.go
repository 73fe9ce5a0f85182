// Command screenshots regenerates the PNG screenshots of the demo console:
//
//	go run ./screenshots                 # every screen, into screenshots/
//	go run ./screenshots -only phone-403 # some screens
//	go run ./screenshots -list           # the screens it knows
//
// Each screen runs the real console as a Bubble Tea program inside a virtual
// terminal (github.com/charmbracelet/x/vt, used as both input and output)
// against an in-process simulator on a fixed clock; keys are typed as
// terminal bytes, the program waits for the expected text and for nothing to
// be in flight, and the terminal's cells are drawn with Go Mono. The output
// is byte-identical from run to run.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

// Terminal size of every screenshot.
const (
	termWidth  = 120
	termHeight = 36
)

// fixedNow is the demo's clock: the simulator's seed, "today" in the console
// and every relative date derive from it.
var fixedNow = time.Date(2026, time.November, 23, 10, 0, 0, 0, time.UTC)

// screen is one screenshot: how to reach it from a fresh console.
type screen struct {
	Name  string // file name without .png
	About string // what it shows
	// Token is the simulator token the console signs in with (default: the
	// demo host).
	Token string
	// Section is the tab the console starts on (default: the first).
	Section string
	Steps   []step
}

// step types keys, then waits until every Wait text is on screen, nothing
// is in flight and the screen has settled.
type step struct {
	Keys string // terminal bytes: "\r" enter, "\t" tab, "\x1b[Z" shift+tab
	Wait []string
}

const (
	enter = "\r"
	// eventsLoaded is on screen once every events listing has loaded.
	eventsLoaded = "63 loaded"
)

// screens lists every screenshot in order. To add a screen (check-in desk,
// emails, co-editors...), add a row: its start section, the keys to type and
// the text that proves each step has landed.
var screens = []screen{
	{Name: "events-list", About: "the events list, every listing loaded",
		Steps: []step{{Wait: []string{eventsLoaded}}}},
	{Name: "event-detail", About: "a recurring event in detail",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "/pottery", Wait: []string{"Pottery for Beginners"}},
			{Keys: enter + enter, Wait: []string{"Schedule", "Overview"}},
		}},
	{Name: "confirm-dialog", About: "the confirmation before deleting a draft",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "3", Wait: []string{"3 Draft"}},
			{Keys: enter, Wait: []string{"DRAFT", "Overview"}},
			{Keys: "x", Wait: []string{"cannot be undone"}},
		}},
	{Name: "duplicate-form", About: "the form that duplicates an event",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "2", Wait: []string{"2 Upcoming"}},
			{Keys: enter, Wait: []string{"UPCOMING", "Overview"}},
			{Keys: "d", Wait: []string{"Duplicate", "Timezone"}},
		}},
	{Name: "help", About: "the full help over the events list",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "?", Wait: []string{"Keys", "closes this help"}},
		}},
	{Name: "checkin-desk", About: "the check-in desk after a scan found through the registrant search",
		Section: "Check-in",
		Steps: []step{
			{Wait: []string{"choose an upcoming event"}},
			{Keys: "/observ", Wait: []string{"Observability Summit APAC"}},
			{Keys: enter + enter, Wait: []string{"Whole event"}},
			{Keys: enter, Wait: []string{"CHECK-IN DESK", "roster 20,000"}},
			{Keys: "\x06tanaka", Wait: []string{"jana.tanaka@example.net"}},
			{Keys: enter, Wait: []string{"CHECKED IN", "This desk today 1"}},
			{Keys: "nobody@nowhere.org" + enter, Wait: []string{"NOT REGISTERED"}},
		}},
	{Name: "coeditors", About: "an event's co-editors and what each may edit",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "/partner summit", Wait: []string{"Northwind Partner Summit"}},
			{Keys: enter + enter, Wait: []string{"Overview"}},
			{Keys: "o", Wait: []string{"Co-editors of Northwind Partner Summit"}},
		}},
	{Name: "email-send-status", About: "who received an email, by status and failure reason",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "/kubernetes webinar", Wait: []string{"Intro to Kubernetes Webinar"}},
			{Keys: enter + enter, Wait: []string{"Overview"}},
			{Keys: "m", Wait: []string{"Reminder: 1 day before"}},
			{Keys: "/1 day", Wait: []string{"Reminder: 1 day before"}},
			{Keys: enter + enter, Wait: []string{"550 recipients", "Recipients by status"}},
		}},
	{Name: "access-links", About: "an event's registration and group-join links",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "/kubernetes day", Wait: []string{"Kubernetes Day Lisbon"}},
			{Keys: enter + enter, Wait: []string{"Overview"}},
			{Keys: "l", Wait: []string{"Access links of Kubernetes Day Lisbon", "At join"}},
		}},
	{Name: "registration", About: "the guided registration flow: link, ticket type, sessions, attendees",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "/kubernetes day", Wait: []string{"Kubernetes Day Lisbon"}},
			{Keys: enter + enter, Wait: []string{"Overview"}},
			{Keys: "t", Wait: []string{"Register attendees", "Opening Keynote"}},
		}},
	{Name: "exhibitors", About: "a conference's exhibitors and sponsors",
		Steps: []step{
			{Wait: []string{eventsLoaded}},
			{Keys: "/kubernetes day", Wait: []string{"Kubernetes Day Lisbon"}},
			{Keys: enter + enter, Wait: []string{"Overview"}},
			{Keys: "b", Wait: []string{"Exhibitors of Kubernetes Day Lisbon", "Privacy policy"}},
		}},
	{Name: "transcript", About: "a timed transcript of a sample recording",
		Section: "Transcribe",
		Steps: []step{
			{Wait: []string{"Press n to transcribe an audio file"}},
			{Keys: "n", Wait: []string{"Transcribe an audio file", "Audio file URL"}},
			{Keys: enter + enter, Wait: []string{"7 segments", "Priya Raman"}},
		}},
	{Name: "phone-settings", About: "phone settings grouped by theme, call forwarding explained",
		Section: "Phone",
		Steps: []step{
			{Wait: []string{"1 All 45"}},
			{Keys: "jjjjjjj", Wait: []string{"Call forwarding: medium restriction"}},
		}},
	{Name: "phone-detail", About: "automatic call recording in words",
		Section: "Phone",
		Steps: []step{
			{Wait: []string{"1 All 45"}},
			{Keys: "/automatic call", Wait: []string{"filter: automatic call (1 match)"}},
			{Keys: enter + enter, Wait: []string{"Records inbound and outbound calls.", "J shows the raw JSON"}},
		}},
	{Name: "phone-403", About: "the phone section of an account without phone service",
		Section: "Phone", Token: sim.NoPhoneToken,
		Steps: []step{{Wait: []string{"PHONE NOT SET UP"}}}},
}

func main() {
	out := flag.String("out", "screenshots", "directory for the PNG files")
	only := flag.String("only", "", "comma-separated screen names (default: all)")
	list := flag.Bool("list", false, "list the screens and exit")
	flag.Parse()
	if *list {
		for _, s := range screens {
			fmt.Printf("%-16s %s\n", s.Name, s.About)
		}
		return
	}
	var names []string
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	if err := run(*out, names, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

// run writes <dir>/<name>.png for the named screens (all when names is
// empty).
func run(dir string, names []string, log io.Writer) error {
	// Screenshots are always in colour, whatever the caller's terminal says.
	os.Unsetenv("NO_COLOR")
	selected, err := pick(names)
	if err != nil {
		return err
	}
	r, err := newRasterizer()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, sc := range selected {
		start := time.Now()
		cells, err := capture(sc)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		png, err := r.png(cells)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		path := filepath.Join(dir, sc.Name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(log, "wrote %s (%d bytes, %s)\n", path, len(png), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

func pick(names []string) ([]screen, error) {
	if len(names) == 0 {
		return screens, nil
	}
	var out []screen
	for _, n := range names {
		i := slices.IndexFunc(screens, func(s screen) bool { return s.Name == strings.TrimSpace(n) })
		if i < 0 {
			var known []string
			for _, s := range screens {
				known = append(known, s.Name)
			}
			return nil, fmt.Errorf("no screen %q; known: %s", n, strings.Join(known, ", "))
		}
		out = append(out, screens[i])
	}
	return out, nil
}
