// Package snapshot saves an account's phone policy to a file and reports
// what changed since: settings and fields added, removed or changed, each
// named by a dotted path (call_park.expiration_period), so an admin can spot
// drift. The CLI and the phone screen share it.
package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/atomicfile"
)

// Kind and Version mark a snapshot file.
const (
	Kind    = "evdesk.phone-account-settings"
	Version = 1
)

// Snapshot is the file's content: the settings as the server sent them and
// what was asked for.
type Snapshot struct {
	Kind    string    `json:"kind"`
	Version int       `json:"version"`
	SavedAt time.Time `json:"saved_at"`
	// Source names where the settings came from (profile or base URL).
	Source string `json:"source,omitempty"`
	// Types are the setting_types asked for; empty means all.
	Types    []string        `json:"setting_types,omitempty"`
	Settings json.RawMessage `json:"settings"`
}

// New captures settings.
func New(settings *api.PhoneSettings, types []string, source string, now time.Time) (*Snapshot, error) {
	raw, err := json.Marshal(settings)
	if err != nil {
		return nil, fmt.Errorf("snapshot: encode settings: %w", err)
	}
	return &Snapshot{Kind: Kind, Version: Version, SavedAt: now.UTC().Truncate(time.Second), Source: source,
		Types: slices.Clone(types), Settings: raw}, nil
}

// Save writes the snapshot atomically (a temporary file renamed over path),
// readable by the owner only: a policy is an account's business.
func Save(path string, s *Snapshot) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("snapshot: encode: %w", err)
	}
	if err := atomicfile.WriteFile(path, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("snapshot: write %s: %w", path, err)
	}
	return nil
}

// Load reads a snapshot file. A bare settings object (the output of
// `evdesk phone settings -o json`, or the API's answer saved with curl) is
// accepted too.
func Load(path string) (*Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", path, err)
	}
	return s, nil
}

// Parse reads a snapshot (or a bare settings object) from data.
func Parse(data []byte) (*Snapshot, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if _, ok := probe["kind"]; !ok {
		if _, err := api.DecodePhoneSettings(data); err != nil {
			return nil, err
		}
		return &Snapshot{Kind: Kind, Version: Version, Settings: bytes.TrimSpace(data)}, nil
	}
	var s Snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	switch {
	case s.Kind != Kind:
		return nil, fmt.Errorf("kind %q is not a phone settings snapshot (%q)", s.Kind, Kind)
	case s.Version > Version:
		return nil, fmt.Errorf("version %d is newer than this evdesk reads (%d): upgrade evdesk", s.Version, Version)
	case len(s.Settings) == 0:
		return nil, errors.New("no settings in the file")
	}
	if _, err := api.DecodePhoneSettings(s.Settings); err != nil {
		return nil, err
	}
	return &s, nil
}

// PhoneSettings decodes the saved settings.
func (s *Snapshot) PhoneSettings() (*api.PhoneSettings, error) {
	return api.DecodePhoneSettings(s.Settings)
}

// Compare lists what changed from the snapshot to now. When the snapshot
// holds a chosen set of settings, only those are compared, so settings that
// were never asked for do not show as added.
func (s *Snapshot) Compare(now *api.PhoneSettings) ([]Change, error) {
	var after []byte
	var err error
	if len(s.Types) == 0 {
		after, err = json.Marshal(now)
	} else {
		picked := map[string]json.RawMessage{}
		for _, k := range s.Types {
			if raw, ok := now.Raw(k); ok {
				picked[k] = raw
			}
		}
		after, err = json.Marshal(picked)
	}
	if err != nil {
		return nil, err
	}
	return Diff(s.Settings, after)
}
