package mesh

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
// until the returned stop is called.
func announce(sec *Secret, self string, port int) func() {
	svc, err := mdns.NewMDNSService("evdesk-"+self, mdnsService, "", "", port, nil,
		[]string{venueTag(sec), "node=" + self})
	if err != nil {
		return func() {}
	}
	srv, err := mdns.NewServer(&mdns.Config{Zone: svc, Logger: log.New(io.Discard, "", 0)})
	if err != nil {
		return func() {}
	}
	return func() { _ = srv.Shutdown() }
}
