package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/mdns"

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
		if ans := desks[i%3].scan(t, p); ans.Verdict != "RECORDED" || ans.Desk != desks[i%3].name {
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
		if ans := rest[i%2].scan(t, p); ans.Verdict != "RECORDED" {
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

// TestHeadlessDeskSaysWhatItKnowsThenTheServicesVerdict: a desk without a
// screen answers a scan at once with what it knows (RECORDED, unconfirmed;
// NOT REGISTERED when its roster does not list the person), then writes
// the service's verdict as a line of its own naming the scan's id; a
// person the service refuses is never left as admitted. SIGTERM ends it
// with status 3 (interrupted), as the exit codes say.
func TestHeadlessDeskSaysWhatItKnowsThenTheServicesVerdict(t *testing.T) {
	t.Parallel()
	v := newVenueRig(t, sim.Options{NoRateLimit: true})
	cmd := v.command(t.TempDir(), "desk", v.event, "--headless", "--desk", "Gate 1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	type line struct {
		Kind, Scan, Verdict, Email, Roster, Desk, Detail, ID string
		Confirmed                                            bool
	}
	lines := make(chan line, 16)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var l line
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				lines <- l
			}
		}
		close(lines)
	}()
	next := func(what string) line {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the desk ended before %s: %s", what, stderr.String())
			}
			return l
		case <-time.After(30 * time.Second):
			t.Fatalf("no %s: %s", what, stderr.String())
		}
		return line{}
	}
	guest, stranger := v.sim.RegistrantEmails(v.event)[3], "nobody.here@example.org"
	for _, who := range []string{guest, stranger} {
		if _, err := io.WriteString(in, who+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var scans, verdicts []line
	for len(scans) < 2 || len(verdicts) < 2 {
		l := next("the answers and verdicts of two scans")
		switch l.Kind {
		case "scan":
			scans = append(scans, l)
		case "verdict":
			verdicts = append(verdicts, l)
		}
	}
	if g := scans[0]; g.Verdict != "RECORDED" || g.Confirmed || g.Desk != "Gate 1" || g.ID == "" || (g.Roster != "listed" && g.Roster != "none") {
		t.Fatalf("the guest's answer: %+v", g)
	}
	if s := scans[1]; s.Confirmed || s.ID == "" || !(s.Verdict == "NOT REGISTERED" && s.Roster == "not listed" || s.Verdict == "RECORDED" && s.Roster == "none") {
		t.Fatalf("the stranger's answer: %+v", s)
	}
	byID := map[string]line{}
	for _, l := range verdicts {
		byID[l.ID] = l
	}
	if g := byID[scans[0].ID]; g.Verdict != "CHECKED IN" || !g.Confirmed || g.Email != guest || g.Scan != guest {
		t.Fatalf("the guest's verdict: %+v (verdicts %+v)", g, verdicts)
	}
	if s := byID[scans[1].ID]; s.Verdict != "NOT REGISTERED" || s.Confirmed || s.Email != stranger || !strings.Contains(s.Detail, "not registered") {
		t.Fatalf("the stranger's verdict: %+v (verdicts %+v)", s, verdicts)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("after SIGTERM: %v (want exit status 3)\n%s", err, stderr.String())
	}
}

// TestTwoDeskVenue: two doors are a venue too. Two desk processes, with a
// supervisor's board watching from the start (a watcher is no desk: it
// holds no copy), form the venue and keep two copies of it; a person
// admitted at one door is ALREADY CHECKED IN at the other, the service's
// verdict follows at the first, and the check-in reaches the service once.
func TestTwoDeskVenue(t *testing.T) {
	needVenueE2E(t)
	t.Parallel()
	v := newVenueRig(t, sim.Options{NoRateLimit: true})
	a := v.startDesk("Door A")
	b := v.startDesk("Door B", a.addr)
	board := v.command(t.TempDir(), "checkin", "stats", v.event, "--venue", v.file, "--join", a.addr, "--no-mdns",
		"--listen", freeAddr(t), "-o", "json")
	var boardOut strings.Builder
	board.Stdout = &boardOut
	if err := board.Start(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []*deskProc{a, b} {
		d.waitVenue(t, "a venue of two desks", time.Minute, func(state, up string, n int) bool {
			return state == "meshed" && up != "" && n == 2
		})
	}
	if err := board.Wait(); err != nil {
		t.Fatalf("checkin stats --venue: %v\n%s", err, boardOut.String())
	}
	var st struct {
		Venue struct {
			State    string `json:"state"`
			Replicas int    `json:"replicas"`
			Desks    []struct {
				Name string `json:"name"`
			} `json:"desks"`
		} `json:"venue"`
	}
	if err := json.Unmarshal([]byte(boardOut.String()), &st); err != nil || st.Venue.State != "meshed" || len(st.Venue.Desks) == 0 {
		t.Fatalf("the board: %v\n%s", err, boardOut.String())
	}
	a.waitReplicas(t, 2)
	who := v.sim.RegistrantEmails(v.event)[5]
	admittedThenKnown(t, a, b, who)
	waitUntil(t, "the check-in at the service", time.Minute, func() bool { return v.sentCount(who) > 0 })
	waitUntil(t, "Door A's verdict line", time.Minute, func() bool { return a.verdictOf(who) == "CHECKED IN" })
	if n := v.sentCount(who); n != 1 {
		t.Fatalf("%s reached the service in %d requests", who, n)
	}
}

// TestVenueDesksFindEachOtherOnTheLocalNetwork: two desks given only the
// venue's file (no --join) find each other on the local network (mDNS),
// announced under the machine's network address, and form the venue: a
// person scanned at one is ALREADY CHECKED IN at the other.
func TestVenueDesksFindEachOtherOnTheLocalNetwork(t *testing.T) {
	needVenueE2E(t)
	if !multicastWorks(t) {
		t.Skip("mDNS does not go round on this machine (no interface carries multicast, or the network drops it): desks here can only be joined by address (--join)")
	}
	t.Parallel()
	v := newVenueRig(t, sim.Options{NoRateLimit: true})
	a := v.startDeskFinding("Door A")
	b := v.startDeskFinding("Door B")
	for _, d := range []*deskProc{a, b} {
		d.waitVenue(t, "a venue of two desks found on the network", time.Minute, func(state, up string, n int) bool {
			return state == "meshed" && up != "" && n == 2
		})
	}
	admittedThenKnown(t, b, a, v.sim.RegistrantEmails(v.event)[3])
}

// admittedThenKnown scans who at first (RECORDED there), waits until then
// knows of it, and scans who there: ALREADY CHECKED IN at first.
func admittedThenKnown(t *testing.T, first, then *deskProc, who string) {
	t.Helper()
	if ans := first.scan(t, who); ans.Verdict != "RECORDED" || ans.Desk != first.name {
		t.Fatalf("%s: %+v", first.name, ans)
	}
	waitUntil(t, then.name+" to know "+who, 10*time.Second, func() bool { return then.knows(who) })
	if ans := then.scan(t, who); ans.Verdict != "ALREADY CHECKED IN" || ans.Desk != first.name {
		t.Fatalf("%s: %+v", then.name, ans)
	}
}

// multicastWorks reports whether mDNS goes round on this machine: a
// service announced on its network interfaces is found by a query (a
// machine without such an interface, or whose network drops multicast,
// cannot find desks by it).
func multicastWorks(t *testing.T) bool {
	var ips []net.IP
	ifs, _ := net.Interfaces()
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagMulticast == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
				ips = append(ips, n.IP.To4())
			}
		}
	}
	if len(ips) == 0 {
		return false
	}
	const service = "_evdesk-e2e-probe._tcp"
	svc, err := mdns.NewMDNSService("probe", service, "", "evdesk-e2e-probe.local.", 9, ips, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mdns.NewServer(&mdns.Config{Zone: svc, Logger: log.New(io.Discard, "", 0)})
	if err != nil {
		return false
	}
	defer func() { _ = srv.Shutdown() }()
	entries := make(chan *mdns.ServiceEntry, 4)
	p := mdns.DefaultParams(service)
	p.Entries, p.Timeout, p.DisableIPv6 = entries, 2*time.Second, true
	p.Logger = log.New(io.Discard, "", 0)
	_ = mdns.Query(p)
	return len(entries) > 0
}
