package mesh

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log"
	"net"
	"strconv"
	"time"

	"github.com/hashicorp/mdns"
)

// mdnsService is the DNS-SD service desks announce themselves under.
const mdnsService = "_evdesk-venue._tcp"

// venueTag tells desks of one venue from those of another in the mDNS
// records without giving the venue's id away.
func venueTag(sec *Secret) string {
	sum := sha256.Sum256([]byte("evdesk venue " + sec.ID + sec.bound))
	return "venue=" + hex.EncodeToString(sum[:8])
}

// discover looks on the local network, for up to wait, for desks of the
// venue; where multicast is blocked it finds none (use --join).
func discover(sec *Secret, self string, wait time.Duration) []string {
	entries := make(chan *mdns.ServiceEntry, 64)
	var found []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range entries {
			if !hasTag(e.InfoFields, venueTag(sec)) || hasTag(e.InfoFields, "node="+self) || e.AddrV4 == nil || e.Port == 0 {
				continue
			}
			found = append(found, net.JoinHostPort(e.AddrV4.String(), strconv.Itoa(e.Port)))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	p := mdns.DefaultParams(mdnsService)
	p.Entries, p.Timeout, p.DisableIPv6 = entries, wait, true
	p.Logger = log.New(io.Discard, "", 0)
	_ = mdns.QueryContext(ctx, p)
	close(entries)
	<-done
	return found
}

func hasTag(fields []string, tag string) bool {
	for _, f := range fields {
		if f == tag {
			return true
		}
	}
	return false
}

// announce answers other desks' mDNS questions with this desk's address
// until the returned stop is called. The desk is announced under a name of
// its own and the addresses it listens on (every address of an interface
// that carries multicast, when it listens on all): the machine's host name
// may not resolve, or only to loopback, which no other desk can reach.
func announce(sec *Secret, self, host string, port int) (func(), error) {
	ips, err := announcedAddrs(host)
	if err != nil {
		return nil, err
	}
	svc, err := mdns.NewMDNSService("evdesk-"+self, mdnsService, "", "evdesk-"+self+".local.", port, ips,
		[]string{venueTag(sec), "node=" + self})
	if err != nil {
		return nil, err
	}
	srv, err := mdns.NewServer(&mdns.Config{Zone: svc, Logger: log.New(io.Discard, "", 0)})
	if err != nil {
		return nil, err
	}
	return func() { _ = srv.Shutdown() }, nil
}

// announcedAddrs are the addresses a desk listening on host is announced
// under.
func announcedAddrs(host string) ([]net.IP, error) {
	if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
		return []net.IP{ip}, nil
	}
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	var ips []net.IP
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagMulticast == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
				ips = append(ips, n.IP.To4())
			}
		}
	}
	if len(ips) == 0 {
		return nil, errors.New("no network interface that carries multicast has an IPv4 address")
	}
	return ips, nil
}
