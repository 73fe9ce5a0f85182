package sim

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Server is a simulator listening on a TCP address.
type Server struct {
	*Sim
	srv *http.Server
	ln  net.Listener
	// scheme is "https" for StartTLS, else "http"; caPEM is the
	// certificate StartTLS serves, which is its own authority.
	scheme string
	caPEM  []byte

	done     chan struct{} // closed when Serve returns
	serveErr error
}

// Start serves a new simulator on addr ("127.0.0.1:0" picks a free port).
func Start(addr string, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return serve(ln, opts, "http", nil), nil
}

// StartTLS serves a new simulator over https, TLS 1.2 or newer, with a
// certificate for this machine made for the run (CAPEM, to trust it).
func StartTLS(addr string, opts Options) (*Server, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	cert, caPEM, err := selfSigned(now())
	if err != nil {
		return nil, fmt.Errorf("make the simulator's certificate: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	tln := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	return serve(tln, opts, "https", caPEM), nil
}

func serve(ln net.Listener, opts Options, scheme string, caPEM []byte) *Server {
	s := &Server{
		Sim:    New(opts),
		ln:     ln,
		done:   make(chan struct{}),
		scheme: scheme,
		caPEM:  caPEM,
	}
	s.srv = &http.Server{Handler: s.Sim, ReadHeaderTimeout: 10 * time.Second}
	if h := s.hooks.Load(); h != nil {
		go s.RunWebhooks(h.life)
	}
	go func() {
		err := s.srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.serveErr = err
		close(s.done)
	}()
	return s
}

// URL is the API base address, e.g. http://127.0.0.1:41234/v2.
func (s *Server) URL() string { return s.scheme + "://" + s.ln.Addr().String() + "/v2" }

// AuthURL is the OAuth server's root (no /v2): {AuthURL}/oauth/authorize
// and {AuthURL}/oauth/token.
func (s *Server) AuthURL() string { return s.scheme + "://" + s.ln.Addr().String() }

// CAPEM is the PEM certificate a StartTLS server serves (its own
// authority); nil for plain http.
func (s *Server) CAPEM() []byte { return s.caPEM }

// ChangelogURL is the address of the simulator's change log feed.
func (s *Server) ChangelogURL() string { return s.AuthURL() + ChangelogPath }

// Addr is the listening address.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Shutdown stops accepting connections, cuts pending latency waits short and
// waits for in-flight requests until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.Sim.Close()
	if err := s.srv.Shutdown(ctx); err != nil {
		return err
	}
	<-s.done
	return s.serveErr
}

// Close stops the server at once, closing open connections.
func (s *Server) Close() error {
	s.Sim.Close()
	err := s.srv.Close()
	<-s.done
	if err == nil {
		err = s.serveErr
	}
	return err
}
