// Package place says where the check-in files of one server live on this
// computer. A scan belongs to the server (and account) it was taken for:
// the journals, the walk-ins and the caches of an event (roster, arrivals,
// names, walk-in setup, the venue's share) are kept in a folder of that
// server's own, and are never read, shown or sent for another.
//
// The layout, under the journal root (config.JournalDir()):
//
//	servers/<host>-<hash>/server.json   which server (and account) the folder belongs to
//	servers/<host>-<hash>/<event>.jsonl  the journals and caches, as before
//
// <host> is the base URL's host (and port when not the scheme's own), in
// letters, digits, dots and dashes, for people; <hash> is the first 12 hex
// digits of the SHA-256 of the server's key: the base URL normalised
// (config.ServerKey) and, when known, the signed-in account. server.json
// records the key in full: a folder whose record names another server is
// refused, so neither a crafted URL nor a collision of names mixes two
// servers' files. Files of the root itself are the layout before servers
// were recorded: Adopt moves them into a server's folder when the caller is
// certain they are its; otherwise they stay where they are, sent nowhere,
// and Elsewhere tells of them.
package place

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
)

// Server is whom a place belongs to.
type Server struct {
	// BaseURL is the profile's API base URL, as configured.
	BaseURL string
	// Account is the signed-in account's id; "" when evdesk does not know
	// it (a token given in the environment).
	Account string
}

// Key is the server's identity: the normalised base URL, and the account
// when known.
func (s Server) Key() string {
	k := config.ServerKey(s.BaseURL)
	if s.Account != "" {
		k += " account=" + s.Account
	}
	return k
}

// Short is a short, stable name of the server's key (12 hex digits): the
// folder's suffix, and what binds a venue to the server.
func (s Server) Short() string {
	sum := sha256.Sum256([]byte(s.Key()))
	return hex.EncodeToString(sum[:6])
}

// String names the server for people: its host, and the account when known.
func (s Server) String() string {
	h := hostOf(s.BaseURL)
	if s.Account != "" {
		return h + " (account " + s.Account + ")"
	}
	return h
}

// hostOf is the URL's host and port as written, or the URL itself.
func hostOf(base string) string {
	if u, err := url.Parse(strings.TrimSpace(base)); err == nil && u.Host != "" {
		return u.Host
	}
	return strings.TrimSpace(base)
}

// maxLabel bounds the readable part of a folder's name.
const maxLabel = 40

// Label is the readable part of the server's folder name: the host in
// lower case, ":port" as "_port" when not the scheme's default, any other
// character as "_". It never holds a path separator or starts with a dot.
func Label(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	host := ""
	if err == nil {
		host = strings.ToLower(u.Hostname())
		if p := u.Port(); p != "" && p != map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)] {
			host += "_" + p
		}
	}
	var b strings.Builder
	for _, r := range host {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	label := strings.TrimLeft(b.String(), ".")
	if len(label) > maxLabel {
		label = label[:maxLabel]
	}
	if label == "" {
		label = "server"
	}
	return label
}

// FolderName is the name of the server's folder under servers/.
func FolderName(s Server) string { return Label(s.BaseURL) + "-" + s.Short() }

// Place is one server's folder.
type Place struct {
	// Root is the journal root; Dir is the server's folder in it.
	Root, Dir string
	Server    Server
}

// ServersDir is the folder of the servers' folders under root.
func ServersDir(root string) string { return filepath.Join(root, "servers") }

// markerName is the file that records whose folder it is.
const markerName = "server.json"

// maxMarkerBytes bounds a marker: a real one is a few hundred bytes.
const maxMarkerBytes = 16 << 10

// marker is what server.json holds.
type marker struct {
	Version int    `json:"version"`
	Key     string `json:"key"`
	BaseURL string `json:"base_url"`
	Account string `json:"account,omitempty"`
}

// ErrOtherServer is behind a folder that belongs to another server.
var ErrOtherServer = errors.New("the check-in folder belongs to another server")

// Open returns the folder of server s under root, creating it with its
// record when missing, and refuses one that records another server, that is
// not a plain folder, or a server whose base URL is not an http(s) URL.
func Open(root string, s Server) (Place, error) {
	if root == "" {
		return Place{}, errors.New("check-in files: no journal folder configured")
	}
	if err := config.CheckHTTPURL(strings.TrimSpace(s.BaseURL)); err != nil {
		return Place{}, fmt.Errorf("check-in files: the base URL %q %v: evdesk keeps check-ins only for a server's http(s) URL", s.BaseURL, err)
	}
	servers := ServersDir(root)
	dir := filepath.Join(servers, FolderName(s))
	if filepath.Dir(dir) != servers { // Label keeps separators out; this is the net under it
		return Place{}, fmt.Errorf("check-in files: the folder name for %s leaves %s", s, servers)
	}
	p := Place{Root: root, Dir: dir, Server: s}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Place{}, fmt.Errorf("check-in files: %w", err)
	}
	for _, d := range []string{servers, dir} {
		if fi, err := os.Lstat(d); err != nil {
			return Place{}, fmt.Errorf("check-in files: %w", err)
		} else if !fi.IsDir() {
			return Place{}, fmt.Errorf("check-in files: %s is not a plain folder (a link, or a file): evdesk keeps check-ins only in a folder of its own; move it aside", d)
		}
	}
	m, err := readMarker(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, p.claim()
	case err != nil:
		return Place{}, err
	case m.Key != s.Key():
		return Place{}, fmt.Errorf("%w: %s holds the check-ins of %s, not of %s (the same folder name for two servers); evdesk will not mix them: move that folder aside, or use the profile of that server",
			ErrOtherServer, dir, markerServer(m), s)
	}
	return p, nil
}

// markerServer names a marker's server for people.
func markerServer(m marker) string {
	s := Server{BaseURL: m.BaseURL, Account: m.Account}
	return fmt.Sprintf("%s (base_url %s)", s, config.ServerKey(m.BaseURL))
}

// claim records the folder as the server's. A folder that holds files but
// no record is not taken: whose they are is unknown.
func (p Place) claim() error {
	entries, err := os.ReadDir(p.Dir)
	if err != nil {
		return fmt.Errorf("check-in files: %w", err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("%w: %s holds files but no record of its server (%s): evdesk will not take them for %s; move the folder aside",
				ErrOtherServer, p.Dir, markerName, p.Server)
		}
	}
	data, err := json.MarshalIndent(marker{Version: 1, Key: p.Server.Key(), BaseURL: config.ServerKey(p.Server.BaseURL),
		Account: p.Server.Account}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(p.Dir, markerName), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("check-in files: record the folder's server: %w", err)
	}
	return nil
}

// readMarker reads a folder's record, bounded.
func readMarker(dir string) (marker, error) {
	path := filepath.Join(dir, markerName)
	f, err := os.Open(path)
	if err != nil {
		return marker{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMarkerBytes+1))
	if err != nil {
		return marker{}, fmt.Errorf("check-in files: %w", err)
	}
	var m marker
	if len(data) > maxMarkerBytes || json.Unmarshal(data, &m) != nil || m.Version != 1 || m.Key == "" {
		return marker{}, fmt.Errorf("%w: %s is not a record evdesk wrote (it names no server): evdesk will not use the folder's files; move the folder aside",
			ErrOtherServer, path)
	}
	return m, nil
}

// Owner names the server whose folder dir is, when dir is a server's
// folder (it holds a record, readable or not).
func Owner(dir string) (string, bool) {
	m, err := readMarker(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false
	case err != nil:
		return "a server evdesk cannot name (" + filepath.Join(dir, markerName) + " is unreadable)", true
	}
	return markerServer(m), true
}
