package config

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func assertGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func TestDefaultConfigGolden(t *testing.T) {
	b, err := NewDefaultFile("/x/config.toml").Render()
	if err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "default_config", b)
	// The rendered default reads back to the same thing.
	f, err := Parse("/x/config.toml", b)
	if err != nil {
		t.Fatal(err)
	}
	if f.DefaultProfile != DefaultProfileName || f.Profiles[DefaultProfileName].RedirectURI != DefaultRedirectURI {
		t.Fatalf("%+v", f)
	}
}

func TestTwoProfilesGolden(t *testing.T) {
	f := NewDefaultFile("/x/config.toml")
	if err := f.SetProfile("work", ProfileEntry{BaseURL: "https://api.example.com/v2", AuthURL: "https://auth.example.com",
		ClientID: "cid", Scopes: []string{"vendor_events_basic:read", "vendor_events_basic:write"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.Use("work"); err != nil {
		t.Fatal(err)
	}
	b, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "two_profiles", b)
}

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const sample = `default_profile = "work"

[profiles.work]
base_url = "https://api.example.com/v2"
auth_url = "https://auth.example.com/"
client_id = "cid"
scopes = ["a:read", "b:write"]

[profiles.lab]
base_url = "http://127.0.0.1:8765/v2"
path_word = "acme"
`

func TestResolveFromFile(t *testing.T) {
	path := writeConfig(t, sample)
	p, err := Resolve(path, "", lookupFrom(nil))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "work" || p.BaseURL != "https://api.example.com/v2" || p.AuthURL != "https://auth.example.com" ||
		p.ClientID != "cid" || p.PathWord != DefaultPathWord || p.RedirectURI != DefaultRedirectURI ||
		!slices.Equal(p.Scopes, []string{"a:read", "b:write"}) || p.File != path {
		t.Fatalf("%+v", p)
	}
	if got := p.Origin(FieldClientID); got != path+":6" {
		t.Errorf("origin %q", got)
	}
	if err := p.ValidateLogin(); err != nil {
		t.Error(err)
	}
	// --profile beats EVDESK_PROFILE beats default_profile.
	p, err = Resolve(path, "", lookupFrom(map[string]string{EnvProfile: "lab"}))
	if err != nil || p.Name != "lab" || p.PathWord != "acme" {
		t.Fatalf("%+v %v", p, err)
	}
	p, err = Resolve(path, "work", lookupFrom(map[string]string{EnvProfile: "lab"}))
	if err != nil || p.Name != "work" {
		t.Fatalf("%+v %v", p, err)
	}
	_, err = Resolve(path, "nope", lookupFrom(nil))
	if err == nil || !strings.Contains(err.Error(), `"nope" not found`) || !strings.Contains(err.Error(), "lab, work") {
		t.Fatalf("%v", err)
	}
}

func TestEnvOverridesWin(t *testing.T) {
	path := writeConfig(t, sample)
	env := map[string]string{
		EnvBaseURL: "https://other.example/v2", EnvAuthURL: "https://a2.example", EnvPathWord: "zed",
		EnvClientID: "cid2", EnvClientSecret: "s3cret", EnvRedirectURI: "http://localhost:9999/cb",
		EnvScopes: "x:read, y:write", EnvToken: "tok",
	}
	p, err := Resolve(path, "", lookupFrom(env))
	if err != nil {
		t.Fatal(err)
	}
	if p.BaseURL != env[EnvBaseURL] || p.AuthURL != env[EnvAuthURL] || p.PathWord != "zed" || p.ClientID != "cid2" ||
		p.ClientSecret != "s3cret" || p.RedirectURI != env[EnvRedirectURI] || !slices.Equal(p.Scopes, []string{"x:read", "y:write"}) ||
		p.Token != "tok" {
		t.Fatalf("%+v", p)
	}
	if p.Origin(FieldBaseURL) != EnvBaseURL {
		t.Errorf("origin %q", p.Origin(FieldBaseURL))
	}
	// A bad override names the variable, not the file.
	env[EnvBaseURL] = "ftp://x"
	p, _ = Resolve(path, "", lookupFrom(env))
	if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), EnvBaseURL) {
		t.Fatalf("%v", err)
	}
}

func TestTokenEnvGivesAProfileItsOwnToken(t *testing.T) {
	path := writeConfig(t, sample+"token_env = \"ACME_TOKEN\"\n")
	env := map[string]string{EnvToken: "general", "ACME_TOKEN": "acme"}
	lab, err := Resolve(path, "lab", lookupFrom(env))
	if err != nil || lab.Token != "acme" || lab.TokenEnv != "ACME_TOKEN" || lab.Origin(FieldTokenEnv) != path+":12" {
		t.Fatalf("lab: %+v %v", lab, err)
	}
	work, err := Resolve(path, "work", lookupFrom(env))
	if err != nil || work.Token != "general" {
		t.Fatalf("work: %+v %v", work, err)
	}
	// The named variable unset: no silent fall back to EVDESK_TOKEN, which
	// may belong to another account.
	delete(env, "ACME_TOKEN")
	lab, _ = Resolve(path, "lab", lookupFrom(env))
	if err := lab.Validate(); err == nil || err.Error() != path+`:12: profiles.lab.token_env: profile "lab" takes its token from ACME_TOKEN, which is not set` {
		t.Fatalf("unset variable: %v", err)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := f.Render()
	if !strings.Contains(string(out), `token_env = "ACME_TOKEN"`) {
		t.Errorf("render lost token_env:\n%s", out)
	}
}

func TestPhoneBaselineIsTakenFromTheConfigFilesFolder(t *testing.T) {
	path := writeConfig(t, sample+"phone_baseline = \"baselines/lab.toml\"\n\n[profiles.abs]\nphone_baseline = \"/srv/policy.toml\"\n")
	lab, err := Resolve(path, "lab", lookupFrom(nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(path), "baselines", "lab.toml"); lab.PhoneBaseline != want || lab.Origin(FieldPhoneBaseline) != path+":12" {
		t.Fatalf("lab: %q from %q, want %q from line 12", lab.PhoneBaseline, lab.Origin(FieldPhoneBaseline), want)
	}
	if abs, err := Resolve(path, "abs", lookupFrom(nil)); err != nil || abs.PhoneBaseline != "/srv/policy.toml" {
		t.Fatalf("abs: %q %v", abs.PhoneBaseline, err)
	}
	if work, _ := Resolve(path, "work", lookupFrom(nil)); work.PhoneBaseline != "" {
		t.Fatalf("work has no baseline, got %q", work.PhoneBaseline)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := f.Render()
	if !strings.Contains(string(out), `phone_baseline = "baselines/lab.toml"`) {
		t.Errorf("render lost phone_baseline:\n%s", out)
	}
}

func TestNoFileIsTheEnvironmentProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.toml")
	env := map[string]string{EnvBaseURL: "http://127.0.0.1:9/v2", EnvToken: "t"}
	p, err := Resolve(path, "", lookupFrom(env))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != DefaultProfileName || p.BaseURL != env[EnvBaseURL] || p.Token != "t" || p.File != "" {
		t.Fatalf("%+v", p)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(path, "work", lookupFrom(env)); err == nil {
		t.Fatal("a named profile without a file must fail")
	}
}

func TestFileErrorsNameFileLineAndField(t *testing.T) {
	for _, tc := range []struct {
		name, content, line, key string
	}{
		{"syntax", "[profiles.a]\nbase_url = \n", ":2", "profiles.a.base_url"},
		{"type", "[profiles.a]\nclient_id = \"x\"\nscopes = \"x\"\n", ":3", "profiles.a.scopes"},
		{"unknown field", "[profiles.a]\nbase_url = \"http://x/v2\"\n\nbase_uri = \"http://x\"\n", ":4", "profiles.a.base_uri"},
		{"secret in file", "[profiles.a]\nclient_secret = \"s\"\n", ":2", "profiles.a.client_secret"},
		{"bad url", "[profiles.a]\n# comment\nauth_url = \"ftp://x\"\n", ":3", "profiles.a.auth_url"},
		{"bad redirect", "[profiles.a]\nredirect_uri = \"http://127.0.0.1/cb\"\n", ":2", "profiles.a.redirect_uri"},
		{"remote redirect", "[profiles.a]\nredirect_uri = \"http://example.com:80/cb\"\n", ":2", "profiles.a.redirect_uri"},
		{"dotted", "profiles.a.path_word = \"a/b\"\n", ":1", "profiles.a.path_word"},
		{"default", "default_profile = \"b\"\n[profiles.a]\n", ":1", "default_profile"},
		{"top level", "colour = \"red\"\n", ":1", "colour"},
		{"token variable", "[profiles.a]\nbase_url = \"http://x/v2\"\ntoken_env = \"1-TOKEN\"\n", ":3", "profiles.a.token_env"},
		{"token in file", "[profiles.a]\ntoken = \"s\"\n", ":2", "profiles.a.token"},
		{"zero cap", "[profiles.a]\nmax_response_mb = 0\n", ":2", "profiles.a.max_response_mb"},
		{"negative cap", "[profiles.a]\n\nmax_response_mb = -5\n", ":3", "profiles.a.max_response_mb"},
		{"huge cap", "[profiles.a]\nmax_response_mb = 99999999999\n", ":2", "profiles.a.max_response_mb"},
		{"text cap", "[profiles.a]\nmax_response_mb = \"lots\"\n", ":2", "profiles.a.max_response_mb"},
		{"zero listing budget", "[profiles.a]\nmax_listing_mb = 0\n", ":2", "profiles.a.max_listing_mb: 0 is out of range"},
		{"huge listing items", "[profiles.a]\n\nmax_listing_items = 999999999999\n", ":3", "profiles.a.max_listing_items"},
		{"zero rate", "[profiles.a]\nrate_limit = 0\n", ":2", "profiles.a.rate_limit"},
		{"huge rate", "[profiles.a]\n\nrate_limit = 5000.0\n", ":3", "profiles.a.rate_limit: 5000 is out of range"},
		{"text rate", "[profiles.a]\nrate_limit = \"fast\"\n", ":2", "profiles.a.rate_limit"},
		{"blank baseline", "[profiles.a]\nphone_baseline = \"  \"\n", ":2", "profiles.a.phone_baseline: \"  \" is blank"},
		{"baseline with a line break", "[profiles.a]\n\nphone_baseline = \"a\\nb.toml\"\n", ":3", "profiles.a.phone_baseline: \"a\\nb.toml\" holds a control character"},
		{"baseline not a string", "[profiles.a]\nphone_baseline = 3\n", ":2", "profiles.a.phone_baseline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.content)
			_, err := Resolve(path, "", lookupFrom(nil))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FileError", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+tc.line+": ") || !strings.Contains(msg, tc.key) {
				t.Fatalf("got %q, want %s%s and %s", msg, path, tc.line, tc.key)
			}
			if strings.Contains(tc.name, "secret") && strings.Contains(msg, `"s"`) {
				t.Errorf("secret value leaked: %s", msg)
			}
		})
	}
}

func TestSaveIsAtomicAnd0600(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", FileName)
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetProfile("lab", ProfileEntry{BaseURL: "http://127.0.0.1:1/v2"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("left temp files: %v", entries)
	}
	g, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.DefaultProfile != "" || g.Profiles["lab"].BaseURL != "http://127.0.0.1:1/v2" {
		t.Fatalf("%+v", g)
	}
	if err := g.Use("nope"); err == nil {
		t.Fatal("use of an unknown profile must fail")
	}
	if err := g.SetProfile("bad name", ProfileEntry{}); err == nil {
		t.Fatal("bad profile name accepted")
	}
}

func TestDirHonoursXDGConfigHome(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if Path() != filepath.Join(dir, "evdesk", FileName) {
		t.Fatal(Path())
	}
}

func TestValidateNamesFileForFileProfiles(t *testing.T) {
	path := writeConfig(t, "[profiles.a]\npath_word = \"acme\"\n")
	p, err := Resolve(path, "a", lookupFrom(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), FieldBaseURL) {
		t.Fatalf("%v", err)
	}
	if err := p.ValidateLogin(); err == nil || !strings.Contains(err.Error(), FieldAuthURL) {
		t.Fatalf("%v", err)
	}
	// Login settings are enough credentials for Validate (tokens come from the store).
	p, _ = Resolve(path, "a", lookupFrom(map[string]string{EnvBaseURL: "https://x/v2", EnvAuthURL: "https://x", EnvClientID: "c"}))
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if addr, err := p.RedirectAddr(); err != nil || addr != "127.0.0.1:8976" {
		t.Fatalf("%s %v", addr, err)
	}
}

func TestQuotedProfileNamesRoundTrip(t *testing.T) {
	f := NewDefaultFile(filepath.Join(t.TempDir(), FileName))
	if err := f.SetProfile("eu.prod", ProfileEntry{BaseURL: "https://eu.example/v2"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	p, err := Resolve(f.Path, "eu.prod", lookupFrom(nil))
	if err != nil || p.BaseURL != "https://eu.example/v2" || p.Origin(FieldBaseURL) == f.Path {
		t.Fatalf("%+v %v %q", p, err, p.Origin(FieldBaseURL))
	}
}

func TestMaxResponseMBFromFileAndEnvironment(t *testing.T) {
	path := writeConfig(t, "[profiles.a]\nbase_url = \"https://api.example.com/v2\"\nmax_response_mb = 256\n")
	p, err := Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t"}))
	if err != nil || p.Validate() != nil {
		t.Fatal(err, p.Validate())
	}
	if p.MaxResponseMB != 256 || p.MaxResponseBytes() != 256<<20 || p.Origin(FieldMaxResponseMB) != path+":3" {
		t.Fatalf("%d %d %q", p.MaxResponseMB, p.MaxResponseBytes(), p.Origin(FieldMaxResponseMB))
	}
	p, _ = Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t", EnvMaxResponseMB: "8"}))
	if p.MaxResponseBytes() != 8<<20 || p.Origin(FieldMaxResponseMB) != EnvMaxResponseMB || p.Validate() != nil {
		t.Fatalf("env override: %d %q %v", p.MaxResponseBytes(), p.Origin(FieldMaxResponseMB), p.Validate())
	}
	// Unset means the api package's default.
	if q := FromEnv(lookupFrom(nil)); q.MaxResponseBytes() != 0 {
		t.Errorf("unset cap %d", q.MaxResponseBytes())
	}
	for v, want := range map[string]string{
		"0":                     "EVDESK_MAX_RESPONSE_MB=0 is out of range: give the cap in MiB, from 1 to 65536 (default 64)",
		"-1":                    "EVDESK_MAX_RESPONSE_MB=-1 is out of range",
		"65537":                 "EVDESK_MAX_RESPONSE_MB=65537 is out of range",
		"64MB":                  `EVDESK_MAX_RESPONSE_MB="64MB" is not a whole number: give the cap in MiB, from 1 to 65536 (default 64)`,
		"1e3":                   `EVDESK_MAX_RESPONSE_MB="1e3" is not a whole number`,
		"999999999999999999999": `EVDESK_MAX_RESPONSE_MB="999999999999999999999" is not a whole number`,
	} {
		p, _ := Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t", EnvMaxResponseMB: v}))
		if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v", v, err)
		}
	}
}

func TestListingBudgetFromFileAndEnvironment(t *testing.T) {
	path := writeConfig(t, "[profiles.a]\nbase_url = \"https://api.example.com/v2\"\nmax_listing_mb = 512\nmax_listing_items = 1000000\n")
	p, err := Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t"}))
	if err != nil || p.Validate() != nil {
		t.Fatal(err, p.Validate())
	}
	if p.MaxListingBytes() != 512<<20 || p.MaxListingItems != 1_000_000 || p.Origin(FieldMaxListingItems) != path+":4" {
		t.Fatalf("%d %d %q", p.MaxListingBytes(), p.MaxListingItems, p.Origin(FieldMaxListingItems))
	}
	p, _ = Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t", EnvMaxListingMB: "16"}))
	if p.MaxListingBytes() != 16<<20 || p.Origin(FieldMaxListingMB) != EnvMaxListingMB || p.Validate() != nil {
		t.Fatalf("env override: %d %q %v", p.MaxListingBytes(), p.Origin(FieldMaxListingMB), p.Validate())
	}
	if q := FromEnv(lookupFrom(nil)); q.MaxListingBytes() != 0 || q.MaxListingItems != 0 {
		t.Errorf("unset budget %d %d", q.MaxListingBytes(), q.MaxListingItems)
	}
	for env, want := range map[[2]string]string{
		{EnvMaxListingMB, "lots"}:   `EVDESK_MAX_LISTING_MB="lots" is not a whole number: give the most one listing may read across its pages in MiB, from 1 to 65536 (default 128)`,
		{EnvMaxListingItems, "0"}:   "EVDESK_MAX_LISTING_ITEMS=0 is out of range: give the most items one listing may hold, from 1 to 100000000 (default 250000)",
		{EnvMaxListingItems, "1e6"}: `EVDESK_MAX_LISTING_ITEMS="1e6" is not a whole number`,
	} {
		p, _ := Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t", env[0]: env[1]}))
		if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s=%s: %v", env[0], env[1], err)
		}
	}
}

func TestMouseFalseLeavesTheMouseToTheTerminal(t *testing.T) {
	path := writeConfig(t, sample+"mouse = false\n")
	lab, err := Resolve(path, "lab", lookupFrom(nil))
	if err != nil || !lab.NoMouse {
		t.Fatalf("lab: NoMouse %v, %v", lab.NoMouse, err)
	}
	if work, _ := Resolve(path, "work", lookupFrom(nil)); work.NoMouse {
		t.Fatal("a profile without the setting keeps the mouse")
	}
	bad := writeConfig(t, "[profiles.a]\nmouse = \"off\"\n")
	if _, err := Resolve(bad, "a", lookupFrom(nil)); err == nil {
		t.Fatal(`mouse = "off" should be refused: it is true or false`)
	}
}

func TestRateLimitFromFileAndEnvironment(t *testing.T) {
	path := writeConfig(t, "[profiles.a]\nbase_url = \"https://api.example.com/v2\"\nrate_limit = 80\n")
	p, err := Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t"}))
	if err != nil || p.Validate() != nil {
		t.Fatal(err, p.Validate())
	}
	if p.RequestRate() != 80 || p.Origin(FieldRateLimit) != path+":3" {
		t.Fatalf("%v %q", p.RequestRate(), p.Origin(FieldRateLimit))
	}
	p, _ = Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t", EnvRateLimit: "12.5"}))
	if p.RequestRate() != 12.5 || p.Origin(FieldRateLimit) != EnvRateLimit || p.Validate() != nil {
		t.Fatalf("env override: %v %q %v", p.RequestRate(), p.Origin(FieldRateLimit), p.Validate())
	}
	if q := FromEnv(lookupFrom(nil)); q.RequestRate() != DefaultRateLimit {
		t.Errorf("unset rate %v", q.RequestRate())
	}
	for v, want := range map[string]string{
		"0":    "EVDESK_RATE_LIMIT=0 is out of range: give requests a second, from 0.5 to 1000 (default 30",
		"NaN":  "EVDESK_RATE_LIMIT=NaN is out of range",
		"2000": "EVDESK_RATE_LIMIT=2000 is out of range",
		"30/s": `EVDESK_RATE_LIMIT="30/s" is not a number`,
	} {
		p, _ := Resolve(path, "a", lookupFrom(map[string]string{EnvToken: "t", EnvRateLimit: v}))
		if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v", v, err)
		}
	}
}

func TestKioskPINFromTheProfileOrTheEnvironment(t *testing.T) {
	path := writeConfig(t, sample+"kiosk_pin = \"246813\"\n")
	lab, err := Resolve(path, "lab", lookupFrom(nil))
	if err != nil || lab.KioskPIN != "246813" {
		t.Fatalf("lab: PIN %q, %v", lab.KioskPIN, err)
	}
	lab, _ = Resolve(path, "lab", lookupFrom(map[string]string{EnvKioskPIN: "135791", EnvToken: "t"}))
	if lab.KioskPIN != "135791" {
		t.Fatalf("the environment did not win: %q", lab.KioskPIN)
	}
	// A PIN that is not 6 to 12 digits is refused, naming where it came
	// from and never repeating it.
	bad := writeConfig(t, "[profiles.a]\nkiosk_pin = \"12ab\"\n")
	_, err = Resolve(bad, "a", lookupFrom(nil))
	if err == nil || !strings.Contains(err.Error(), ":2: profiles.a.kiosk_pin: is not a kiosk PIN: use 6 to 12 digits") || strings.Contains(err.Error(), "12ab") {
		t.Fatalf("file: %v", err)
	}
	p, _ := Resolve(path, "lab", lookupFrom(map[string]string{EnvKioskPIN: "99", EnvToken: "t"}))
	if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), "EVDESK_KIOSK_PIN is not a kiosk PIN") || strings.Contains(err.Error(), "99") {
		t.Fatalf("environment: %v", err)
	}
}

// Adding or changing a profile never changes the one in use; only Use
// does, and it accepts "default" (the implicit profile) whether or not the
// file defines one.
func TestOnlyUseChangesTheProfileInUse(t *testing.T) {
	f := &File{Path: "/x/config.toml"}
	env := func(string) (string, bool) { return "", false }
	if err := f.SetProfile("other", ProfileEntry{BaseURL: "https://other.example/v2"}); err != nil {
		t.Fatal(err)
	}
	if got := f.InUse("", env); got != DefaultProfileName {
		t.Fatalf("after adding other, in use: %q", got)
	}
	if got := f.Known(f.InUse("", env)); !slices.Equal(got, []string{"default", "other"}) {
		t.Fatalf("known: %v", got)
	}
	if err := f.Use("other"); err != nil {
		t.Fatal(err)
	}
	if err := f.SetProfile("third", ProfileEntry{BaseURL: "https://third.example/v2"}); err != nil {
		t.Fatal(err)
	}
	if got := f.InUse("", env); got != "other" {
		t.Fatalf("adding third changed the profile in use to %q", got)
	}
	if err := f.Use(DefaultProfileName); err != nil {
		t.Fatalf("use default: %v", err)
	}
	if f.DefaultProfile != "" || f.InUse("", env) != DefaultProfileName {
		t.Fatalf("use default left %q", f.DefaultProfile)
	}
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	// A file that defines "default" makes it the named default.
	if err := f.SetProfile(DefaultProfileName, ProfileEntry{BaseURL: "https://d.example/v2"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Use(DefaultProfileName); err != nil || f.DefaultProfile != DefaultProfileName {
		t.Fatalf("use default: %v, %q", err, f.DefaultProfile)
	}
	if got := f.InUse("third", env); got != "third" {
		t.Fatalf("asked for third, in use %q", got)
	}
	byEnv := func(k string) (string, bool) { return "other", k == EnvProfile }
	if got := f.InUse("", byEnv); got != "other" {
		t.Fatalf("EVDESK_PROFILE=other, in use %q", got)
	}
}

// kiosk_search turns the search on at a locked kiosk; it is off unless set.
func TestKioskSearchIsOffUnlessTheProfileSetsIt(t *testing.T) {
	path := writeConfig(t, "[profiles.a]\nkiosk_search = true\n[profiles.b]\n")
	for name, want := range map[string]bool{"a": true, "b": false} {
		p, err := Resolve(path, name, lookupFrom(nil))
		if err != nil || p.KioskSearch != want {
			t.Errorf("%s: kiosk search %v, %v", name, p.KioskSearch, err)
		}
	}
}
