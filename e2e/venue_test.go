package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

// venueE2E gates the tests that run a venue of desk processes: they take
// tens of seconds of waiting for the engine's elections and leases. .ci/run
// sets it.
const venueE2E = "EVDESK_VENUE_E2E"

func needVenueE2E(t *testing.T) {
	if os.Getenv(venueE2E) == "" {
		t.Skipf("set %s=1 to run a venue of desk processes (.ci/run does)", venueE2E)
	}
}

// TestVenueAgreesOfflineSurvivesItsUpstreamAndSendsOnce: three desk
// processes form a venue. With the service out of reach, a person scanned
// at one desk is ALREADY CHECKED IN at the next, naming the first desk;
// the desk that sends upstream is killed, another takes over; when the
// service returns, every check-in reaches it exactly once.
func TestVenueAgreesOfflineSurvivesItsUpstreamAndSendsOnce(t *testing.T) {
	needVenueE2E(t)
	t.Parallel()
	v := newVenueRig(t, sim.Options{NoRateLimit: true})
	a := v.startDesk("Door A")
	b := v.startDesk("Door B", a.addr)
	c := v.startDesk("Door C", a.addr)
	desks := []*deskProc{a, b, c}
	for _, d := range desks {
		d.waitVenue(t, "a whole venue", time.Minute, func(state, up string, n int) bool {
			return state == "meshed" && up != "" && n == 3
		})
	}
	_, up, _, _ := a.venue()
	for _, d := range desks[1:] {
		if _, u, _, _ := d.venue(); u != up {
			t.Fatalf("%s says %q sends upstream, %s says %q", a.name, up, d.name, u)
		}
	}

	// checkin stats --venue watches the venue a moment, without being a
	// desk of it, and lists its desks.
	out, err := v.command(t.TempDir(), "checkin", "stats", v.event, "--venue", v.file, "--join", a.addr, "--no-mdns",
		"--listen", freeAddr(t), "-o", "json").Output()
	if err != nil {
		t.Fatalf("checkin stats --venue: %v\n%s", err, out)
	}
	var st struct {
		Venue struct {
			State    string `json:"state"`
			Upstream string `json:"upstream"`
			Desks    []struct {
				Name string `json:"name"`
			} `json:"desks"`
		} `json:"venue"`
	}
	if err := json.Unmarshal(out, &st); err != nil || st.Venue.State != "meshed" || st.Venue.Upstream != up || len(st.Venue.Desks) != 3 {
		t.Fatalf("checkin stats --venue: %v\n%s", err, out)
	}

	people := v.sim.RegistrantEmails(v.event)[:40]
	v.sim.SetFaults(0, 1, 0) // the service is out of reach
	for i, p := range people[:30] {
		if ans := desks[i%3].scan(t, p); ans.Verdict != "CHECKED IN" || ans.Desk != desks[i%3].name {
			t.Fatalf("first scan of %s: %+v", p, ans)
		}
	}
	for i, p := range people[:30] {
		d, first := desks[(i+1)%3], desks[i%3].name
		waitUntil(t, d.name+" to know "+p, 10*time.Second, func() bool { return d.knows(p) })
		ans := d.scan(t, p)
		if ans.Verdict != "ALREADY CHECKED IN" || ans.Desk != first || !strings.Contains(ans.Detail, first) {
			t.Fatalf("second scan of %s at %s (first at %s): %+v", p, d.name, first, ans)
		}
	}

	var upstream *deskProc
	var rest []*deskProc
	for _, d := range desks {
		if d.name == up {
			upstream = d
		} else {
			rest = append(rest, d)
		}
	}
	upstream.kill()
	killed := time.Now()
	for _, d := range rest {
		d.waitVenue(t, "a new upstream desk", time.Minute, func(state, u string, _ int) bool { return u != "" && u != up })
	}
	took := time.Since(killed)
	t.Logf("%s killed; %s took over in %v", up, func() string { _, u, _, _ := rest[0].venue(); return u }(), took.Round(10*time.Millisecond))
	for i, p := range people[30:] {
		if ans := rest[i%2].scan(t, p); ans.Verdict != "CHECKED IN" {
			t.Fatalf("scan of %s after the kill: %+v", p, ans)
		}
	}

	v.sim.SetFaults(0, 0, 0)
	waitUntil(t, "every check-in at the service", 2*time.Minute, func() bool {
		return len(v.sim.CheckIns(v.event, "")) == len(people)
	})
	for _, p := range people {
		if n := v.sentCount(p); n != 1 {
			t.Errorf("%s reached the service in %d requests", p, n)
		}
	}
}

// knows reports whether the desk said it learned of a check-in of email
// made at another desk.
func (d *deskProc) knows(email string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range d.arrivals {
		if a.Email == email {
			return true
		}
	}
	return false
}
