package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// PhoneService reads an account's phone policy (phone spec sections 2, 4, 7).
type PhoneService struct{ c *Client }

// Phone scopes (phone spec section 4): the endpoint accepts either.
const (
	PhoneScope         = "phone:read:admin"
	PhoneGranularScope = "phone:read:list_account_settings:admin"
)

// PhoneSettingsOptions selects the settings to read.
type PhoneSettingsOptions struct {
	// Types lists setting keys (PhoneSettingTypes, the three that carry the
	// provider's name spelt with the path word); empty asks for the
	// provider's default selection.
	Types []string
	// Word is the path word the branded keys must carry; "" accepts any
	// (AccountSettings fills in the client's).
	Word string
}

// Validate checks every type against the known setting keys; a problem
// names the bad value and, when one is close, the key that was meant.
func (o PhoneSettingsOptions) Validate() error {
	var v validator
	for i, t := range o.Types {
		switch t = strings.TrimSpace(t); {
		case t == "":
			v.add(fmt.Sprintf("setting_types[%d]", i), "is empty")
		case !isPhoneSettingTypeFor(o.Word, t):
			msg := fmt.Sprintf("%q is not a phone setting type", t)
			if w, _ := brandWord(t); w != "" {
				msg = fmt.Sprintf("%q carries the word %q, but this profile's path word is %q: use %q",
					t, w, o.Word, PhoneSettingKeyFor(o.Word, t))
			} else if near := NearestName(t, PhoneSettingTypesFor(cmp.Or(o.Word, DefaultPathWord))); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			} else {
				msg += "; see `evdesk phone settings --help` for the list"
			}
			v.add("setting_types", "%s", msg)
		}
	}
	return v.err()
}

// query builds ?setting_types=a,b with each type once, in the given order.
func (o PhoneSettingsOptions) query() url.Values {
	var types []string
	for _, t := range o.Types {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return nil
	}
	return url.Values{"setting_types": {strings.Join(types, ",")}}
}

// ParsePhoneSettingTypes splits a comma-separated list ("voicemail, sms"),
// dropping blanks. Pass the result to PhoneSettingsOptions and Validate it.
func ParsePhoneSettingTypes(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// AccountSettings reads the account's phone settings. An account without
// phone service answers 403 (IsPhoneNotSetUp reports it).
func (s *PhoneService) AccountSettings(ctx context.Context, opts PhoneSettingsOptions) (*PhoneSettings, error) {
	opts.Word = s.c.word
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var out PhoneSettings
	if err := s.c.do(ctx, call{op: "get phone settings", method: http.MethodGet,
		path: phoneSettingsPath, query: opts.query(), repeatable: true,
		meanings: map[int]string{http.StatusForbidden: phoneForbidden}}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// phoneSettingsPath is the phone endpoint below the base URL.
const phoneSettingsPath = "/phone/account_settings"

// phoneForbidden is what the spec says a 403 of the phone endpoint means. It
// documents no code, so a token without the phone scope cannot be told apart
// by the code: the meaning names both.
const phoneForbidden = "phone service has not been set up on this account (it needs a Business or Enterprise plan and a phone licence), or the token lacks the " + PhoneScope + " scope"

// IsPhoneNotSetUp reports whether err is a 403 of the phone endpoint, which
// the spec documents as an account whose phone service has not been set up.
// It does not depend on the answer's code (the spec documents none).
func IsPhoneNotSetUp(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusForbidden && strings.HasSuffix(e.Path, phoneSettingsPath)
}

// SettingTypes lists the 43 setting keys as this client's provider spells
// them (its path word in the three that carry the provider's name).
func (s *PhoneService) SettingTypes() []string { return PhoneSettingTypesFor(s.c.word) }
