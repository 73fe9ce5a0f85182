package cli

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/views"
)

// demoOtherProfile names the simulator's second account in the console's
// --demo, for the phone screen's comparison.
const demoOtherProfile = "other"

// phoneEnv is what the console's phone screen needs beyond the session's
// client: the profile's baseline file, and an opener for another profile's
// account, which goes through openSession as every session does. The
// sessions it opens close with s.
func (f *Factory) phoneEnv(ctx context.Context, s *session) views.Phone {
	others := &otherSessions{f: f}
	s.closers = append(s.closers, others)
	d := views.Phone{OpenProfile: func(name string) (*api.Client, error) { return others.open(ctx, s, name) }}
	if s.demo {
		d.OtherProfile = demoOtherProfile
		return d
	}
	if p, err := f.Profile(s.profile); err == nil { // it loaded once already
		d.Baseline = p.PhoneBaseline
	}
	return d
}

// otherSessions are the sessions the console opened for other profiles.
type otherSessions struct {
	f    *Factory
	mu   sync.Mutex
	list []*session
}

// open builds a console client for profile name, beside s. In --demo the
// simulator's second account stands for profile "other".
func (o *otherSessions) open(ctx context.Context, s *session, name string) (*api.Client, error) {
	if s.demo {
		if name != demoOtherProfile {
			return nil, fmt.Errorf("--demo serves two accounts: compare with profile %q, the simulator's second account", demoOtherProfile)
		}
		return api.New(append(slices.Clone(s.clientOpts), api.WithToken(sim.OtherHostToken))...)
	}
	this, err := o.f.Profile(s.profile)
	if err != nil {
		return nil, err
	}
	that, err := o.f.OwnProfile(name)
	if err != nil {
		return nil, err
	}
	if err := sameAccountTwice(this, that); err != nil {
		return nil, err
	}
	other, err := o.f.OpenSession(ctx, rootFlags{profile: name, other: true}, forConsole)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.list = append(o.list, other)
	return other.client, nil
}

// Close closes every session opened.
func (o *otherSessions) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, s := range o.list {
		s.Close()
	}
	o.list = nil
	return nil
}
