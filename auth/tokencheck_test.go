package auth

import (
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

func TestCheckTokenRefusesWhatCannotBeStoredOrSent(t *testing.T) {
	for tok, want := range map[string]string{
		"abc.DEF-123_~+/==":                 "",
		"":                                  "the access token is empty",
		"ab\x1b]0;PWNED\x07":                "the access token holds a control character (0x1B) at byte 3: a token is printable text without spaces",
		"ab\ncd":                            "the access token holds a control character (0x0A) at byte 3",
		"ab cd":                             "the access token holds a space at byte 3",
		"abé":                               "the access token holds a byte outside ASCII (0xC3) at byte 3",
		strings.Repeat("a", MaxSecretLen):   "",
		strings.Repeat("a", MaxSecretLen+1): "the access token is 2501 bytes long, more than the 2500 evdesk accepts",
	} {
		err := CheckToken("access token", tok)
		if (want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), want)) {
			t.Errorf("%.20q: %v, want %q", tok, err, want)
		}
	}
}

func TestATokenAnswerWithAControlCharacterIsRefused(t *testing.T) {
	now := time.Now()
	good := (&oauth2.Token{AccessToken: "acc", RefreshToken: "ref", TokenType: "Bearer"}).WithExtra(map[string]any{
		"user_id": "u-1", "account_id": "acct\x1b[2J", "scope": "a:read b\x07:write"})
	s, err := sessionFromToken("p", good, now)
	if err != nil {
		t.Fatal(err)
	}
	if s.UserID != "u-1" || s.AccountID != "" || len(s.Scopes) != 1 || s.Scopes[0] != "a:read" {
		t.Errorf("labels: user %q account %q scopes %q", s.UserID, s.AccountID, s.Scopes)
	}
	for _, bad := range []*oauth2.Token{
		{AccessToken: "acc\x1b]0;x\x07", RefreshToken: "ref"},
		{AccessToken: "acc", RefreshToken: "ref\nX-Injected: 1"},
		{AccessToken: "acc", TokenType: "Bearer\r\n"},
	} {
		_, err := sessionFromToken("p", bad, now)
		if !errors.Is(err, ErrBadTokenAnswer) || !strings.HasSuffix(err.Error(), "; nothing was stored") {
			t.Errorf("%v", err)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\n\r") {
			t.Errorf("the message quotes the token: %q", err)
		}
	}
}
