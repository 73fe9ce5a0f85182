package changelog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Budgets of one fetch.
const (
	// MaxFeedBytes caps the feed's body: a change log of MaxEntries long
	// entries fits many times over.
	MaxFeedBytes = 4 << 20
	// FetchTimeout bounds the whole fetch (connect, headers and body).
	FetchTimeout = 10 * time.Second
	// maxCacheBytes caps the cached copy read back.
	maxCacheBytes = 8 << 20
)

// ErrTooLarge is a feed over MaxFeedBytes.
var ErrTooLarge = fmt.Errorf("the change log is larger than %d MiB", MaxFeedBytes>>20)

// CheckURL says what is wrong with a changelog_url, or nil.
func CheckURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL, such as https://developers.example.com/changelog/rss", sanitize.Line(s))
	}
	if u.User != nil {
		return errors.New("the change log URL must not hold a user name or password")
	}
	return nil
}

// Fetch downloads and parses the feed at rawURL within MaxFeedBytes and
// FetchTimeout. It sends no credentials: the feed is public, and no token
// of evdesk's goes to a server that did not issue it.
func Fetch(ctx context.Context, client *http.Client, rawURL string, now time.Time) (*Feed, error) {
	if err := CheckURL(rawURL); err != nil {
		return nil, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch the change log: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch the change log: %s answered %s", sanitize.Line(req.URL.Host), sanitize.Line(resp.Status))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxFeedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch the change log: %w", err)
	}
	if len(body) > MaxFeedBytes {
		return nil, ErrTooLarge
	}
	f, err := Parse(body)
	if err != nil {
		return nil, err
	}
	f.URL, f.FetchedAt = rawURL, now.UTC()
	return f, nil
}

// Cache keeps the last feed read from each URL, for offline use.
type Cache struct{ Dir string }

// DefaultCache is in the XDG cache dir.
func DefaultCache() Cache { return Cache{Dir: filepath.Join(config.CacheDir(), "changelog")} }

func (c Cache) path(rawURL string) string {
	sum := sha256.Sum256([]byte(rawURL))
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:8])+".json")
}

// Save writes f atomically (0600).
func (c Cache) Save(f *Feed) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("create the change log cache: %w", err)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(c.path(f.URL), b, 0o600)
}

// Load reads the copy kept for rawURL; fs.ErrNotExist when there is none.
// A damaged or oversized copy is an error naming the file.
func (c Cache) Load(rawURL string) (*Feed, error) {
	p := c.path(rawURL)
	b, err := config.ReadCapped(p, maxCacheBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("read the change log cache %s: %w", p, err)
	}
	var f Feed
	if err := json.Unmarshal(b, &f); err != nil || f.URL != rawURL {
		return nil, fmt.Errorf("the change log cache %s is damaged; it is replaced at the next fetch", p)
	}
	if len(f.Entries) > MaxEntries {
		f.Entries = f.Entries[:MaxEntries]
	}
	return &f, nil
}

// Result is a feed and where it came from.
type Result struct {
	Feed *Feed
	// Offline is the fetch's error when the feed came from the cache.
	Offline error
}

// Get fetches the feed and keeps a copy; when the fetch fails it falls back
// to the copy, saying why in Offline. With neither, the fetch's error.
func Get(ctx context.Context, client *http.Client, c Cache, rawURL string, now time.Time) (Result, error) {
	f, err := Fetch(ctx, client, rawURL, now)
	if err == nil {
		// A cache that cannot be written only costs the offline copy.
		_ = c.Save(f)
		return Result{Feed: f}, nil
	}
	cached, cerr := c.Load(rawURL)
	if cerr != nil {
		if errors.Is(cerr, fs.ErrNotExist) {
			return Result{}, fmt.Errorf("%w (and no copy is kept for offline use yet)", err)
		}
		return Result{}, errors.Join(err, cerr)
	}
	return Result{Feed: cached, Offline: err}, nil
}
