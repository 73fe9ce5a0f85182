package mesh

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/evdesk/evdesk/internal/atomicfile"
)

// DefaultPort is where a desk listens for the other desks of its venue.
const DefaultPort = 7248

// CheckListen says what is wrong with a --listen value and returns the
// host and port.
func CheckListen(addr string) (string, int, error) {
	if addr == "" {
		return "0.0.0.0", DefaultPort, nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("--listen %q: give HOST:PORT, such as 0.0.0.0:%d or :%d", addr, DefaultPort, DefaultPort)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 1 || p > 65535 {
		return "", 0, fmt.Errorf("--listen %q: the port must be a number from 1 to 65535", addr)
	}
	if host == "" {
		host = "0.0.0.0"
	}
	if net.ParseIP(host) == nil {
		return "", 0, fmt.Errorf("--listen %q: give an IP address to listen on (0.0.0.0 for every interface)", addr)
	}
	return host, p, nil
}

// CheckJoin says what is wrong with a --join list and returns its
// addresses.
func CheckJoin(list []string) ([]string, error) {
	var out []string
	for _, a := range list {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		host, port, err := net.SplitHostPort(a)
		if err != nil || host == "" {
			return nil, fmt.Errorf("--join %q: give HOST:PORT of another desk, such as 192.168.1.20:%d", a, DefaultPort)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, fmt.Errorf("--join %q: the port must be a number from 1 to 65535", a)
		}
		out = append(out, net.JoinHostPort(host, port))
	}
	return out, nil
}

// nodeID is the desk's lasting identity in its venue, kept in dir: the
// engine knows a desk that comes back by it.
func nodeID(dir string) (string, error) {
	p := filepath.Join(dir, "node-id")
	if b, err := os.ReadFile(p); err == nil {
		id := strings.TrimSpace(string(b))
		if len(id) == 16 && strings.Trim(id, "0123456789abcdef") == "" {
			return id, nil
		}
	}
	raw := make([]byte, 8)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	id := hex.EncodeToString(raw)
	if err := atomicfile.WriteFile(p, []byte(id+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("venue: keep the desk's identity: %w", err)
	}
	return id, nil
}

// engine is the desk's embedded NATS server with JetStream: it listens
// only for the venue's other desks (TLS both ways, the venue's
// credentials); the desk itself talks to it in process.
type engine struct {
	ns *server.Server
	nc *nats.Conn
	// mu guards opts, the options the engine runs with (routes are added
	// to them as desks are found).
	mu   sync.Mutex
	opts *server.Options
	sec  *Secret
}

// role is what an engine is to its venue.
type role int

const (
	// deskRole: a desk's engine, with its share of the venue's data.
	deskRole role = iota
	// probeRole: a desk's engine before it has met its venue: no store yet
	// (Node.probe).
	probeRole
	// boardRole: a watcher's (a supervisor's board): it keeps none of the
	// venue's data and reaches the desks' through them.
	boardRole
)

// startEngine starts an engine of the venue in its role; logf, when not
// nil, hears the engine's own log (Options.EngineLog).
func startEngine(sec *Secret, dir, id, host string, port int, join []string, as role, size int, logf func(string, ...any)) (*engine, error) {
	tlsc, err := sec.TLS()
	if err != nil {
		return nil, err
	}
	self := net.JoinHostPort(loopbackFor(host), strconv.Itoa(port))
	routes := routeURLs(sec, sizedRoutes(self, join, size))
	// The engine's client port (it routes only once one is open) listens
	// on loopback under a password made for this run; the desk itself
	// connects in process.
	pw := make([]byte, 24)
	if _, err := rand.Read(pw); err != nil {
		return nil, err
	}
	local := hex.EncodeToString(pw)
	// A watcher's engine is named apart: it holds no copy of the venue's
	// data, so it never counts among the desks that do (peers).
	name := deskEngine + id
	if as == boardRole {
		name = boardEngine + id
	}
	opts := &server.Options{
		ServerName: name,
		Host:       "127.0.0.1", Port: server.RANDOM_PORT,
		Username: "desk", Password: local,
		JetStream: as == deskRole,
		StoreDir:  filepath.Join(dir, "store"),
		// The venue's scans are small; bound what the engine may take.
		JetStreamMaxMemory: 64 << 20,
		JetStreamMaxStore:  2 << 30,
		Cluster: server.ClusterOpts{
			Name: sec.clusterName(), Host: host, Port: port,
			Username: sec.User, Password: sec.Password,
			TLSConfig: tlsc, TLSTimeout: 5,
			// One route per pair of desks, carrying every account: with
			// pooling on, the engine's own account ($SYS: JetStream's
			// elections and API) gets a route of its own, which a desk
			// learns to open only from another's word of it, and an
			// engine that solicited a route from such word passes none on.
			// Twenty engines starting again together (probe) then left a
			// desk with routes to all nineteen and no $SYS route to nine:
			// its JetStream requests to leaders there went unanswered
			// for minutes (seen in a 20-desk benchmark run, the engine's
			// log on). Off, routes are as before pooling (nats-server
			// 2.10); older desks still route with it.
			PoolSize: -1,
			// A route learnt from another desk is tried again when it fails
			// (by default it is tried once): twenty desks starting together
			// on a busy machine can miss one, and a desk that one other
			// cannot reach sees nothing that desk holds.
			ConnectRetries: 60, ConnectBackoff: true,
		},
		Routes: routes,
		NoSigs: true, NoLog: true,
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("venue: start the desk's engine: %w", err)
	}
	if logf != nil {
		// Traces stay off: they carry the protocol itself.
		ns.SetLoggerV2(engineLog{logf: logf, hide: []string{sec.Password, local}}, true, false, false)
	}
	go ns.Start()
	if !ns.ReadyForConnections(15 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("venue: the desk's engine did not start listening on %s (is the port in use by another program?)",
			net.JoinHostPort(host, strconv.Itoa(port)))
	}
	nc, err := nats.Connect("", nats.InProcessServer(ns), nats.UserInfo("desk", local), nats.Name("evdesk desk"),
		nats.MaxReconnects(-1))
	if err != nil {
		ns.Shutdown()
		return nil, fmt.Errorf("venue: connect to the desk's engine: %w", err)
	}
	return &engine{ns: ns, nc: nc, opts: opts, sec: sec}, nil
}

// engineLog passes an engine's log to the desk's (Options.EngineLog). The
// engine masks the passwords of the URLs it names, yet a few lines print a
// route's URL whole (a route removed on reload): hide masks those
// passwords in whatever the engine says.
type engineLog struct {
	logf func(string, ...any)
	hide []string
}

func (l engineLog) say(level, format string, args []any) {
	s := strings.TrimRight(fmt.Sprintf(format, args...), "\n")
	for _, h := range l.hide {
		if h != "" {
			s = strings.ReplaceAll(s, h, "[redacted]")
		}
	}
	l.logf("engine %s: %s", level, s)
}

func (l engineLog) Noticef(format string, v ...any) { l.say("INF", format, v) }
func (l engineLog) Warnf(format string, v ...any)   { l.say("WRN", format, v) }
func (l engineLog) Fatalf(format string, v ...any)  { l.say("FTL", format, v) }
func (l engineLog) Errorf(format string, v ...any)  { l.say("ERR", format, v) }
func (l engineLog) Debugf(format string, v ...any)  { l.say("DBG", format, v) }

// Tracef drops the engine's protocol traces: they would carry what the
// desks say to each other.
func (l engineLog) Tracef(string, ...any) {}

// sizedRoutes are the addresses an engine routes to: itself, the desks at
// join, and itself again until they number size, the venue's size as the
// desk gives it (storeSize). The engine skips routes to itself without
// dialling them, but it counts every route: an engine starting its store
// for the first time takes the count (two at the least) for the size of
// the venue in its first election.
func sizedRoutes(self string, join []string, size int) []string {
	addrs := append([]string{self}, join...)
	for len(addrs) < size {
		addrs = append(addrs, self)
	}
	return addrs
}

// routeURLs are the routes to desks at addrs.
func routeURLs(sec *Secret, addrs []string) []*url.URL {
	var routes []*url.URL
	for _, a := range addrs {
		routes = append(routes, &url.URL{Scheme: "nats-route", User: url.UserPassword(sec.User, sec.Password), Host: a})
	}
	return routes
}

// addRoutes has the running engine reach the desks at addrs too.
func (e *engine) addRoutes(addrs []string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	o := e.opts.Clone()
	o.Routes = append(o.Routes, routeURLs(e.sec, addrs)...)
	if err := e.ns.ReloadOptions(o); err != nil {
		return err
	}
	e.opts = o
	return nil
}

// loopbackFor is the address a desk reaches itself at.
func loopbackFor(host string) string {
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		return "127.0.0.1"
	}
	return host
}

// The prefixes of engines' names: a desk's, which keeps a copy of the
// venue's data, and a watcher's (a supervisor's board), which keeps none.
const (
	deskEngine  = "desk-"
	boardEngine = "board-"
)

// peers counts the other desks this one has a route to (a pair of desks
// may share several routes); watchers do not count.
func (e *engine) peers() int {
	return len(e.deskIDs())
}

// deskIDs are the IDs of the desks whose engines this one reaches.
func (e *engine) deskIDs() []string {
	rz, err := e.ns.Routez(&server.RoutezOptions{})
	if err != nil {
		return nil
	}
	var ids []string
	for _, r := range rz.Routes {
		if id, ok := strings.CutPrefix(r.RemoteName, deskEngine); ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// venueAnswers reports whether the venue's engines answer a JetStream
// request: the venue has formed (its leader answers), so a probe joins it
// rather than founds it. A venue still choosing its first leader does not
// answer.
func (e *engine) venueAnswers() bool {
	_, err := e.nc.Request("$JS.API.INFO", nil, time.Second)
	return err == nil
}

func (e *engine) close() {
	if e == nil {
		return
	}
	e.nc.Close()
	e.ns.Shutdown()
	e.ns.WaitForShutdown()
}

var errNoEngine = errors.New("venue: the desk's engine is not running")
