package auth

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/oauth2"
)

// ErrBadTokenAnswer is behind the error for a token endpoint's answer that
// evdesk refuses to store or send: a token that is not printable text, or
// is longer than a keyring entry holds.
var ErrBadTokenAnswer = errors.New("the sign-in server's answer holds an unusable token")

// CheckToken reports whether tok can be stored and sent as a credential:
// printable ASCII without spaces (what OAuth tokens are made of), at most
// MaxSecretLen bytes. what names the token in the message; the token itself
// is never quoted.
func CheckToken(what, tok string) error {
	switch {
	case tok == "":
		return fmt.Errorf("the %s is empty", what)
	case len(tok) > MaxSecretLen:
		return fmt.Errorf("the %s is %d bytes long, more than the %d evdesk accepts", what, len(tok), MaxSecretLen)
	}
	for i := 0; i < len(tok); i++ {
		if b := tok[i]; b < 0x21 || b > 0x7e {
			return fmt.Errorf("the %s holds %s at byte %d: a token is printable text without spaces", what, byteWords(b), i+1)
		}
	}
	return nil
}

func byteWords(b byte) string {
	switch {
	case b == ' ':
		return "a space"
	case b < 0x20 || b == 0x7f:
		return fmt.Sprintf("a control character (0x%02X)", b)
	}
	return fmt.Sprintf("a byte outside ASCII (0x%02X)", b)
}

// checkTokenAnswer refuses an answer of the token endpoint whose tokens
// could not be stored or sent as they are.
func checkTokenAnswer(tok *oauth2.Token) error {
	checks := []struct{ what, v string }{{"access token", tok.AccessToken}}
	if tok.RefreshToken != "" {
		checks = append(checks, struct{ what, v string }{"refresh token", tok.RefreshToken})
	}
	if tok.TokenType != "" {
		checks = append(checks, struct{ what, v string }{"token type", tok.TokenType})
	}
	for _, c := range checks {
		if err := CheckToken(c.what, c.v); err != nil {
			return fmt.Errorf("%w: %v; nothing was stored", ErrBadTokenAnswer, err)
		}
	}
	return nil
}

// maxLabelLen bounds the user and account ids a token answer may carry.
const maxLabelLen = 256

// answerLabel keeps a user or account id of a token answer when it is a
// short line of printable text, and drops it otherwise (it only labels the
// session).
func answerLabel(v any) string {
	s, ok := v.(string)
	if !ok || len(s) > maxLabelLen || !utf8.ValidString(s) ||
		strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return ""
	}
	return s
}
