package config

import (
	"strings"
	"testing"
)

func lookupFrom(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestFromEnv(t *testing.T) {
	p := FromEnv(lookupFrom(map[string]string{EnvBaseURL: " http://127.0.0.1:9/v2 ", EnvToken: "t"}))
	if p.BaseURL != "http://127.0.0.1:9/v2" || p.PathWord != DefaultPathWord || p.Token != "t" {
		t.Fatalf("%+v", p)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateNamesTheVariable(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, EnvBaseURL},
		{map[string]string{EnvBaseURL: "ftp://x", EnvToken: "t"}, EnvBaseURL},
		{map[string]string{EnvBaseURL: "https://x/v2"}, EnvToken},
		{map[string]string{EnvBaseURL: "https://x/v2", EnvToken: "t", EnvPathWord: "a/b"}, EnvPathWord},
	} {
		err := FromEnv(lookupFrom(tc.env)).Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want mention of %s", tc.env, err, tc.want)
		}
	}
}
