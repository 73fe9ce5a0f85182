package config

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
)

// How evdesk reaches its servers: HTTPS only (plain http to this machine
// alone, unless the profile allows it), TLS 1.2 or newer, and the system's
// certificate authorities plus, where a proxy re-signs TLS, the profile's
// own bundle.

// Settings of the connection.
const (
	// FieldAllowInsecureHTTP lets a profile use plain http:// to a server
	// other than this machine (allow_insecure_http = true); evdesk warns on
	// every run.
	FieldAllowInsecureHTTP = "allow_insecure_http"
	// FieldCAFile names a PEM bundle of certificate authorities trusted
	// besides the system's (ca_file; EVDESK_CA_FILE).
	FieldCAFile = "ca_file"
	// EnvCAFile is the environment's ca_file.
	EnvCAFile = "EVDESK_CA_FILE"
)

// MinTLSVersion is the oldest TLS evdesk speaks: 1.2 (the platform requires
// 1.2 or 1.3 on its streaming service, and older versions are broken).
const MinTLSVersion = tls.VersionTLS12

// MaxCAFileSize bounds a CA bundle (the whole Mozilla bundle is ~220 KB).
const MaxCAFileSize = 4 << 20

// IsLoopbackHost reports whether host (no port) is this machine: localhost
// or a loopback address. Plain http to it never leaves the machine.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// insecureURL reports whether s is a plain http:// URL to another machine.
func insecureURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && strings.EqualFold(u.Scheme, "http") && !IsLoopbackHost(u.Hostname())
}

// insecureProblem says why a server URL with plain http is refused, or "".
func (p Profile) insecureProblem(field, value string) string {
	if value == "" || !insecureURL(value) || p.AllowInsecureHTTP {
		return ""
	}
	u, _ := url.Parse(value)
	return fmt.Sprintf("%q uses plain http to %s: evdesk sends tokens and the client secret over https only (plain http only to this machine: 127.0.0.1, [::1], localhost); use https://%s%s, or set %s = true in the profile to accept the risk",
		Redact(value), u.Host, u.Host, u.EscapedPath(), FieldAllowInsecureHTTP)
}

// InsecureHTTPWarning is the warning evdesk gives on every run of a profile
// that allows plain http and uses it to another machine; "" otherwise.
func (p Profile) InsecureHTTPWarning() string {
	if !p.AllowInsecureHTTP {
		return "" // such a profile is refused (Validate)
	}
	var hosts []string
	for _, s := range []string{p.BaseURL, p.AuthURL} {
		if insecureURL(s) {
			u, _ := url.Parse(s)
			if h := u.Host; !slices.Contains(hosts, h) {
				hosts = append(hosts, h)
			}
		}
	}
	if len(hosts) == 0 {
		return ""
	}
	return fmt.Sprintf("INSECURE: plain http to %s (%s = true in profile %q): tokens and the client secret cross the network unencrypted",
		strings.Join(hosts, ", "), FieldAllowInsecureHTTP, p.Name)
}

// TLSConfig is the TLS every connection of the profile uses: TLS 1.2 or
// newer, trusting the system's authorities and the profile's ca_file.
func (p Profile) TLSConfig() (*tls.Config, error) {
	c := &tls.Config{MinVersion: MinTLSVersion}
	if p.CAFile == "" {
		return c, nil
	}
	pool, err := p.caPool()
	if err != nil {
		return nil, fmt.Errorf("%s=%q: %w", p.label(FieldCAFile), p.CAFile, err)
	}
	c.RootCAs = pool
	return c, nil
}

// caPool is the system's authorities with the bundle in p.CAFile added.
func (p Profile) caPool() (*x509.CertPool, error) {
	pem, err := ReadCapped(p.CAFile, MaxCAFileSize)
	if errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("the file is over %d MiB, more than a CA bundle holds: is it the right file?", MaxCAFileSize>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the CA bundle: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("holds no PEM certificate (-----BEGIN CERTIFICATE-----): give the certificate authority your network's proxy signs with")
	}
	return pool, nil
}
