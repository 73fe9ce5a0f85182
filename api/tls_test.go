package api_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// tlsServer serves sim over https offering TLS up to maxVersion; it counts
// the requests that reach it.
func tlsServer(t *testing.T, maxVersion uint16) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	s := sim.New(sim.Options{NoRateLimit: true})
	var reached atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		s.ServeHTTP(w, r)
	}))
	srv.TLS = &tls.Config{MinVersion: tls.VersionTLS10, MaxVersion: maxVersion}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	return srv, &reached
}

// trusting is a TLS config that trusts srv's certificate and, as a careless
// caller might, allows TLS 1.0.
func trusting(srv *httptest.Server) *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS10}
}

// TestTLSBelow12IsRefusedClearly: a server that offers only TLS 1.1 is
// refused at the handshake, even when the caller's TLS config would allow
// it, with a message that says so, and the call is not repeated.
func TestTLSBelow12IsRefusedClearly(t *testing.T) {
	srv, reached := tlsServer(t, tls.VersionTLS11)
	var waits atomic.Int64
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithTLSConfig(trusting(srv)), api.WithSleep(func(context.Context, time.Duration) error { waits.Add(1); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Events.Get(context.Background(), "any")
	if !errors.Is(err, api.ErrOldTLS) || !strings.Contains(err.Error(), "offers only TLS older than 1.2") ||
		!strings.Contains(err.Error(), strings.TrimPrefix(srv.URL, "https://")) {
		t.Fatalf("err = %v", err)
	}
	if reached.Load() != 0 || waits.Load() != 0 {
		t.Fatalf("%d requests reached the server, %d retries", reached.Load(), waits.Load())
	}
}

// TestTLS12AndTheCAFileWork: the same server offering TLS 1.2 answers, and
// the simulator's own https (StartTLS) is trusted through its PEM.
func TestTLS12AndTheCAFileWork(t *testing.T) {
	srv, reached := tlsServer(t, tls.VersionTLS12)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithTLSConfig(trusting(srv)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Hubs.List(context.Background()); err != nil || reached.Load() != 1 {
		t.Fatalf("TLS 1.2: %v (%d requests)", err, reached.Load())
	}

	https, err := sim.StartTLS("127.0.0.1:0", sim.Options{NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = https.Close() })
	if !strings.HasPrefix(https.URL(), "https://") || !strings.HasPrefix(https.AuthURL(), "https://") {
		t.Fatalf("URLs %s %s", https.URL(), https.AuthURL())
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(https.CAPEM()) {
		t.Fatal("the simulator's PEM holds no certificate")
	}
	c, err = api.New(api.WithBaseURL(https.URL()), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithTLSConfig(&tls.Config{RootCAs: pool}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Hubs.List(context.Background()); err != nil {
		t.Fatalf("over the simulator's https: %v", err)
	}
	// Without its authority the certificate is refused, not skipped, not
	// retried, and the message says how to trust a proxy's authority.
	var waits atomic.Int64
	c, _ = api.New(api.WithBaseURL(https.URL()), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithSleep(func(context.Context, time.Duration) error { waits.Add(1); return nil }))
	_, err = c.Hubs.List(context.Background())
	if !errors.Is(err, api.ErrUntrustedCertificate) || !strings.Contains(err.Error(), "EVDESK_CA_FILE") || waits.Load() != 0 {
		t.Fatalf("an unknown authority: %v (%d retries)", err, waits.Load())
	}
}
