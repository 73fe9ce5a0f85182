package cli

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/evdesk/evdesk/config"
)

// noSessionFactory is a factory whose session fails the test if opened:
// what these commands' flags build is read from their options alone.
func noSessionFactory(t *testing.T) *Factory {
	t.Helper()
	isolateXDG(t)
	ios, _, _, _ := TestStreams()
	f := NewFactory(ios)
	f.OpenSession = func(context.Context, rootFlags, bool) (*session, error) {
		t.Fatal("a session was opened")
		return nil, nil
	}
	f.Profile = func(string) (config.Profile, error) {
		return config.Profile{Name: "work", BaseURL: "https://api.example.com/v2"}, nil
	}
	return f
}

// capture is a runF that keeps the options it was given.
func capture[O any](got **O) runFunc[O] {
	return func(_ context.Context, o *O) error { *got = o; return nil }
}

// TestCommandsTakeTheirOptionsWithoutASimulator runs the commands that
// write files or sign in through their runF: each one's flags and
// arguments land in its options, and nothing is opened.
func TestCommandsTakeTheirOptionsWithoutASimulator(t *testing.T) {
	f := noSessionFactory(t)
	exec := func(c interface {
		SetArgs([]string)
		Execute() error
	}, args ...string) {
		t.Helper()
		c.SetArgs(args)
		if err := c.Execute(); err != nil {
			t.Fatal(err)
		}
	}

	var venue *venueInitOptions
	exec(newVenueInitCmd(f, capture(&venue)), " Hall 2 ", "--out", "v.json", "--force")
	if venue.Name != "Hall 2" || venue.Out != "v.json" || !venue.Force || venue.Server() != "https://api.example.com:443/v2" {
		t.Errorf("venue init: %+v server %q", venue, venue.Server())
	}

	var tier *nameTierOptions
	exec(newExhibitorsNameTierCmd(f, capture(&tier)), "T1", " Gold ")
	if tier.TierID != "T1" || tier.Name != "Gold" || tier.Clear || tier.Path == "" {
		t.Errorf("name-tier: %+v", tier)
	}
	exec(newExhibitorsNameTierCmd(f, capture(&tier)), "T1", "--clear")
	if !tier.Clear || tier.Name != "" {
		t.Errorf("name-tier --clear: %+v", tier)
	}

	var cfg *configOptions
	exec(newConfigSetProfileCmd(f, capture(&cfg)), "work", "--base-url", " https://api.example.com/v2 ", "--mouse=false", "--default")
	entry := config.ProfileEntry{ClientID: "kept"}
	cfg.Set(&entry)
	if cfg.Name != "work" || !cfg.MakeDefault || entry.BaseURL != "https://api.example.com/v2" || entry.ClientID != "kept" ||
		entry.Mouse == nil || *entry.Mouse || entry.AuthURL != "" {
		t.Errorf("set-profile: %+v %+v", cfg, entry)
	}
	exec(newConfigUseCmd(f, capture(&cfg)), "work")
	if cfg.Name != "work" || cfg.Path != config.Path() {
		t.Errorf("use: %+v", cfg)
	}

	var login *loginOptions
	exec(newLoginCmd(f, capture(&login)), "--no-browser", "--ai", "--timeout", "2m")
	if p, err := login.Profile(); err != nil || p.Name != "work" || !login.NoBrowser || !login.AI || login.WebhookSecret || login.Timeout != 2*time.Minute {
		t.Errorf("login: %+v %v", login, err)
	}

	var desk *deskOptions
	exec(newDeskCmd(f, capture(&desk)), "ev1", "--session", "s1", "--desk", " Door A ", "--kiosk", "--venue", "v.json", "--join", "10.0.0.2:7422")
	if desk.EventID != "ev1" || desk.SessionID != "s1" || desk.Desk != "Door A" || !desk.Kiosk || desk.Board || desk.Headless ||
		desk.Venue.file != "v.json" || len(desk.Venue.join) != 1 {
		t.Errorf("desk: %+v", desk)
	}

	var simo *simOptions
	exec(newSimCmd(f, capture(&simo)), "--addr", "127.0.0.1:0", "--tls", "--rps", "0", "--env-file", "sim.env", "--token-ttl", "3s")
	if simo.Addr != "127.0.0.1:0" || !simo.TLS || simo.Sim.RPS != 0 || simo.EnvFile != "sim.env" || simo.Sim.TokenTTL != 3*time.Second {
		t.Errorf("sim: %+v", simo)
	}

	var ver *versionOptions
	f.BuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v2.0.0"}}, true
	}
	exec(newVersionCmd(f, capture(&ver)))
	if ver.Build.Version != "v2.0.0" {
		t.Errorf("version: %+v", ver.Build)
	}
}
