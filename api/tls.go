package api

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// MinTLSVersion is the oldest TLS the client speaks, set in code rather
// than left to Go's default: 1.2.
const MinTLSVersion = tls.VersionTLS12

// WithTLSConfig sets the TLS of the HTTP client evdesk builds: the trusted
// authorities (a proxy's own), and never a version below MinTLSVersion
// (a lower MinVersion is raised). It does not apply to a client given with
// WithHTTPClient.
func WithTLSConfig(c *tls.Config) Option {
	return func(cl *Client) {
		if c != nil {
			cl.tls = c.Clone()
		}
	}
}

// tlsConfig is c with MinVersion at least MinTLSVersion (a new one for nil).
func tlsConfig(c *tls.Config) *tls.Config {
	if c == nil {
		return &tls.Config{MinVersion: MinTLSVersion}
	}
	c = c.Clone()
	if c.MinVersion < MinTLSVersion {
		c.MinVersion = MinTLSVersion
	}
	return c
}

// ErrOldTLS is behind the error of a server that offers only TLS older
// than MinTLSVersion. Repeating the request cannot help.
var ErrOldTLS = errors.New("the server offers only TLS older than 1.2")

// tlsVersionError names the host of a server that offers only an old TLS.
type tlsVersionError struct {
	host string
	err  error
}

func (e *tlsVersionError) Error() string {
	return fmt.Sprintf("%s offers only TLS older than 1.2, which evdesk does not speak (it needs TLS 1.2 or 1.3): ask its operator to enable TLS 1.2 (%v)", e.host, e.err)
}

func (e *tlsVersionError) Unwrap() []error { return []error{ErrOldTLS, e.err} }

// ErrUntrustedCertificate is behind the error of a server whose
// certificate evdesk does not trust. Repeating the request cannot help.
var ErrUntrustedCertificate = errors.New("the server's certificate is not trusted")

// certificateError names the host whose certificate failed verification.
type certificateError struct {
	host string
	err  error
}

func (e *certificateError) Error() string {
	return fmt.Sprintf("the certificate of %s is not trusted (%v): if your network's proxy re-signs TLS, name its certificate authority with ca_file in the profile or EVDESK_CA_FILE", e.host, e.err)
}

func (e *certificateError) Unwrap() []error { return []error{ErrUntrustedCertificate, e.err} }

// explainTLS turns a handshake that failed on the protocol version or on
// the server's certificate into an error that says so (and is never
// retried); other errors pass unchanged.
func explainTLS(err error, req *http.Request) error {
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return &certificateError{host: req.URL.Host, err: cert.Err}
	}
	var alert tls.AlertError
	versionAlert := errors.As(err, &alert) && alert == 70 // protocol_version
	if !versionAlert && !strings.Contains(err.Error(), "unsupported protocol version") &&
		!strings.Contains(err.Error(), "protocol version not supported") {
		return err
	}
	return &tlsVersionError{host: req.URL.Host, err: err}
}
