package mesh

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/evdesk/evdesk/internal/atomicfile"
)

// Secret is a venue's secret: the certificate authority every desk's TLS
// is checked against, the certificate and key the desks present to each
// other, and the credentials of the links between desks. A desk without it
// cannot join, read or write.
type Secret struct {
	Version int    `json:"version"`
	Name    string `json:"name"`
	// ID names the venue on the network (the cluster's name, the mDNS
	// record); it is not secret.
	ID string `json:"id"`
	// CA, Cert and Key are PEM: the venue's authority, and the desks'
	// certificate and private key, signed by it.
	CA   string `json:"ca"`
	Cert string `json:"cert"`
	Key  string `json:"key"`
	// User and Password are the credentials of the links between desks.
	User     string `json:"user"`
	Password string `json:"password"`
	// Server is the base URL (normalised) of the server the venue's desks
	// check in to, when `evdesk venue init` knew it: a desk of another
	// server is refused. Files made before it was recorded have none.
	Server string `json:"server,omitempty"`

	// bound is the server (and account) the desk checks in to, mixed
	// into the links' credentials, the cluster's name and the mDNS tag
	// (ForServer): desks of two servers never form one venue, whatever
	// the file says.
	bound string
}

const secretVersion = 1

// maxSecretBytes bounds a venue file: a real one is about 2 KB.
const maxSecretBytes = 64 << 10

// maxVenueName bounds a venue's name.
const maxVenueName = 60

// certLife is how long the venue's certificates are good for.
const certLife = 5 * 365 * 24 * time.Hour

// CheckVenueName says what is wrong with a venue's name, or nil.
func CheckVenueName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("the venue's name is blank: name it, such as \"Lisbon Congress Centre\"")
	case len([]rune(name)) > maxVenueName:
		return fmt.Errorf("the venue's name is %d characters long: keep it to %d", len([]rune(name)), maxVenueName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return errors.New("the venue's name holds a control character: use letters, digits, spaces and punctuation")
	}
	return nil
}

// NewSecret makes a venue's secret: a fresh authority, the desks'
// certificate and credentials.
func NewSecret(name string) (*Secret, error) {
	if err := CheckVenueName(name); err != nil {
		return nil, err
	}
	id := make([]byte, 8)
	pw := make([]byte, 24)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	if _, err := rand.Read(pw); err != nil {
		return nil, err
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "evdesk venue " + name, Organization: []string{"evdesk"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certLife),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	hexID := hex.EncodeToString(id)
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: tlsName(hexID)},
		DNSNames:     []string{tlsName(hexID)},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(certLife),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &Secret{
		Version: secretVersion, Name: name, ID: hexID,
		CA:       string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})),
		Cert:     string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		Key:      string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})),
		User:     "desk-" + hexID,
		Password: hex.EncodeToString(pw),
	}, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	return n
}

// tlsName is the name in the desks' certificate: desks reach each other by
// address, and every desk checks the others' certificate for this name.
func tlsName(id string) string { return "desk." + id + ".venue.evdesk.invalid" }

// Write saves the secret to path (0600, atomically); it refuses to replace
// a file unless force.
func (s *Secret) Write(path string, force bool) error {
	if _, err := os.Stat(path); err == nil && !force {
		return fmt.Errorf("%s exists: keep it (every desk of the venue needs the same file), or replace it with --force", path)
	}
	return atomicfile.Write(path, 0o600, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	})
}

// ReadSecret reads and checks a venue file.
func ReadSecret(path string) (*Secret, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("venue file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSecretBytes+1))
	if err != nil {
		return nil, fmt.Errorf("venue file %s: %w", path, err)
	}
	if len(data) > maxSecretBytes {
		return nil, fmt.Errorf("venue file %s is over %d KiB: it is not a venue file (make one with `evdesk venue init`)", path, maxSecretBytes>>10)
	}
	return parseSecret(data, "venue file "+path)
}

// parseSecret reads and checks a secret; what names where it came from.
func parseSecret(data []byte, what string) (*Secret, error) {
	var s Secret
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s is not a venue file (%v): make one with `evdesk venue init NAME --out FILE`", what, err)
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return &s, nil
}

// check says which field of the secret is wrong.
func (s *Secret) check() error {
	switch {
	case s.Version != secretVersion:
		return fmt.Errorf("version %d; this evdesk reads version %d", s.Version, secretVersion)
	case CheckVenueName(s.Name) != nil:
		return fmt.Errorf("name: %v", CheckVenueName(s.Name))
	case len(s.ID) != 16 || strings.Trim(s.ID, "0123456789abcdef") != "":
		return errors.New("id: 16 hexadecimal digits expected")
	case s.User == "" || len(s.Password) < 32:
		return errors.New("user and password: missing or too short")
	}
	if _, err := s.TLS(); err != nil {
		return err
	}
	return nil
}

// TLS is the configuration of every link between desks: each side shows
// the venue's certificate and accepts only a peer that shows one signed by
// the venue's authority.
func (s *Secret) TLS() (*tls.Config, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(s.CA)) {
		return nil, errors.New("ca: no PEM certificate")
	}
	pair, err := tls.X509KeyPair([]byte(s.Cert), []byte(s.Key))
	if err != nil {
		return nil, fmt.Errorf("cert and key: %v", err)
	}
	return &tls.Config{
		MinVersion:   tls.VersionTLS13,
		Certificates: []tls.Certificate{pair},
		RootCAs:      pool,
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ServerName:   tlsName(s.ID),
	}, nil
}

// ForServer is the secret as a desk checking in to one server uses it:
// server is the desk's base URL, normalised (config.ServerKey), and bind a
// short, stable name of that server and the signed-in account (the check-in
// folder's, place.Server.Short). A file recorded for another server is
// refused with words. The links' credentials, the cluster's name and the
// desks' mDNS tag are derived with bind, so desks of different servers
// (or accounts) sharing one file form separate venues and never meet:
// no desk's scans reach an upstream desk that would send them to a server
// they were not taken for.
func (s *Secret) ForServer(server, bind string) (*Secret, error) {
	if bind == "" {
		return nil, errors.New("venue: the desk's server is unknown")
	}
	if s.Server != "" && s.Server != server {
		return nil, fmt.Errorf("venue file %q is for the desks of %s, and this desk checks in to %s: a desk joins only a venue of its own server (its scans would be sent to the venue's server); make a venue file for this server with `evdesk venue init`, or use the profile of %s",
			s.Name, s.Server, server, s.Server)
	}
	c := *s
	mac := hmac.New(sha256.New, []byte(s.Password))
	mac.Write([]byte("evdesk venue server\n" + bind))
	c.User = s.User + "-" + bind
	c.Password = hex.EncodeToString(mac.Sum(nil))
	c.bound = bind
	return &c, nil
}

// clusterName is the engine's cluster name for the venue (and server).
func (s *Secret) clusterName() string {
	if s.bound == "" {
		return "evdesk-" + s.ID
	}
	return "evdesk-" + s.ID + "-" + s.bound
}

// Fingerprint is a short, public digest of the venue's authority, shown so
// people can tell two venue files apart.
func (s *Secret) Fingerprint() string {
	sum := sha256.Sum256([]byte(s.CA))
	return hex.EncodeToString(sum[:4])
}
