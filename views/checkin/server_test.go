package checkin

import (
	"errors"
	"net"
	"net/http"
	"sync"
	"testing"
)

// server serves the simulator on loopback, and can be switched off and on
// again at the same address: off, a desk's connections fail as a desk's
// do when the venue's network is down (nothing reaches the server).
type server struct {
	t       testing.TB
	handler http.Handler
	addr    string
	mu      sync.Mutex
	hs      *http.Server
}

func startServer(t testing.TB, h http.Handler) *server {
	t.Helper()
	s := &server{t: t, handler: h}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = l.Addr().String()
	s.serve(l)
	t.Cleanup(s.down)
	return s
}

func (s *server) URL() string { return "http://" + s.addr }

func (s *server) serve(l net.Listener) {
	hs := &http.Server{Handler: s.handler}
	s.mu.Lock()
	s.hs = hs
	s.mu.Unlock()
	go func() {
		if err := hs.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.t.Errorf("serve: %v", err)
		}
	}()
}

// down closes the listener and every connection.
func (s *server) down() {
	s.mu.Lock()
	hs := s.hs
	s.hs = nil
	s.mu.Unlock()
	if hs != nil {
		_ = hs.Close()
	}
}

// up listens again at the same address.
func (s *server) up() {
	s.t.Helper()
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatalf("listen again on %s: %v", s.addr, err)
	}
	s.serve(l)
}
