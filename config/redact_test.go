package config

import (
	"bytes"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

func TestRedactMasksSecretsAndKeepsWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// Ordinary text stays readable.
		{`Post "https://x/oauth/token": dial tcp 127.0.0.1:9: connect: connection refused`,
			`Post "https://x/oauth/token": dial tcp 127.0.0.1:9: connect: connection refused`},
		{`Post "https://auth.example.com/oauth/token": context deadline exceeded`,
			`Post "https://auth.example.com/oauth/token": context deadline exceeded`},
		{`oauth2: cannot fetch token: 400 Bad Request`, `oauth2: cannot fetch token: 400 Bad Request`},
		{`get access token: refresh the access token of profile "work": the client secret is not stored`,
			`get access token: refresh the access token of profile "work": the client secret is not stored`},
		{`missing bearer token`, `missing bearer token`},
		{`{"token_type":"bearer","expires_in":3600}`, `{"token_type":"bearer","expires_in":3600}`},
		{`https://api.example.com:8443/v2/events?page=2`, `https://api.example.com:8443/v2/events?page=2`},
		{`listening on http://[::1]:8976/callback`, `listening on http://[::1]:8976/callback`},
		// Query and form parameters.
		{`GET /v2/x?access_token=abc123&page=2`, `GET /v2/x?access_token=[redacted]&page=2`},
		{`grant_type=refresh_token&refresh_token=rt-999&client_secret=cs`,
			`grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]`},
		{`dbus said: secret=hunter2 refused`, `dbus said: secret=[redacted] refused`},
		{`client_secret = "s3 cr3t"`, `client_secret = [redacted]`},
		{`code_verifier=abcdef`, `code_verifier=[redacted]`},
		// JSON bodies.
		{`{"access_token":"at-1","token_type":"bearer","refresh_token":"rt \"1\""}`,
			`{"access_token":"[redacted]","token_type":"bearer","refresh_token":"[redacted]"}`},
		{`{"api_secret": "s"}`, `{"api_secret": "[redacted]"}`},
		// Headers.
		{`Authorization: Bearer sk-live-123`, `Authorization: Bearer [redacted]`},
		{`authorization: Basic dXNlcjpwYXNz`, `authorization: Basic [redacted]`},
		{`{"Authorization": "Bearer abc"}`, `{"Authorization": "Bearer [redacted]"}`},
		{`X-Auth-Token: abc123`, `X-Auth-Token: [redacted]`},
		{`x-api-key: k-1`, `x-api-key: [redacted]`},
		// Bearer tokens and JWTs anywhere.
		{`sent bearer sk-live-123 upstream`, `sent bearer [redacted] upstream`},
		{`jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln end`, `jwt [redacted] end`},
		// Passwords in URLs.
		{`session opened base_url=https://user:pa55@api.example.com/v2`,
			`session opened base_url=https://user:[redacted]@api.example.com/v2`},
		{`Get "http://me:p%40ss@127.0.0.1:9100/v2": EOF`, `Get "http://me:[redacted]@127.0.0.1:9100/v2": EOF`},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestRedactingHandlerMasksURLPasswords(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewRedactingHandler(slog.NewTextHandler(&buf, nil)))
	u, _ := url.Parse("https://user:hunter2@api.example.com/v2")
	log.Info("session opened", "base_url", "https://user:hunter2@api.example.com/v2", "parsed", u,
		slog.Group("profile", "auth_url", "https://u:hunter2@auth.example.com"), "lazy", lazyURL{u},
		"Client_Secret", "hunter2")
	out := buf.String()
	if strings.Contains(out, "hunter2") || !strings.Contains(out, "user:[redacted]@api.example.com") {
		t.Errorf("password leaked or URL unreadable: %s", out)
	}
}

// lazyURL is a slog.LogValuer, resolved only when logged.
type lazyURL struct{ u *url.URL }

func (l lazyURL) LogValue() slog.Value { return slog.StringValue(l.u.String()) }

func TestCredentialsInServerURLsAreRefusedWithoutShowingThem(t *testing.T) {
	for _, field := range []string{FieldBaseURL, FieldAuthURL} {
		for _, u := range []string{"https://user:hunter2@api.example.com/v2", "https://hunter2@api.example.com/v2"} {
			path := writeConfig(t, "[profiles.a]\n# credentials do not go here\n"+field+" = \""+u+"\"\n")
			_, err := Resolve(path, "a", lookupFrom(nil))
			var fe *FileError
			if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), path+":3: profiles.a."+field+": ") ||
				!strings.Contains(err.Error(), "user name or password") || !strings.Contains(err.Error(), "keyring") {
				t.Errorf("%s = %s: %v", field, u, err)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("credential shown: %v", err)
			}
		}
	}
	env := map[string]string{EnvBaseURL: "https://user:hunter2@api.example.com/v2", EnvToken: "t"}
	err := FromEnv(lookupFrom(env)).Validate()
	if err == nil || !strings.HasPrefix(err.Error(), EnvBaseURL+"=") || !strings.Contains(err.Error(), "user name or password") ||
		strings.Contains(err.Error(), "hunter2") {
		t.Errorf("%v", err)
	}
	// A malformed URL with a password is refused for its form, still masked.
	env[EnvBaseURL] = "ftp://user:hunter2@x/v2"
	if err := FromEnv(lookupFrom(env)).Validate(); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("%v", err)
	}
}
