package config

import "errors"

// ErrNoCredentials is a profile's lack of any way to sign in: no token and
// nothing to log in with (the CLI exits 4, sign-in needed).
var ErrNoCredentials = errors.New("no credentials")

// credentialsError is a message that is an ErrNoCredentials.
type credentialsError struct{ error }

func (e credentialsError) Is(target error) bool { return target == ErrNoCredentials }

func noCredentials(err error) error { return credentialsError{err} }

// More environment variables evdesk reads (the profile's are in config.go).
const (
	// EnvDebug turns on request logging: "api" logs each request and
	// answer (redacted) to the log and, for a script command, to standard
	// error, as --debug does.
	EnvDebug = "EVDESK_DEBUG"
	// EnvReadOnly ("1", "true") makes a session read-only, as --read-only
	// and read_only = true do.
	EnvReadOnly = "EVDESK_READ_ONLY"
	// EnvTheme chooses the console's theme, as --theme and theme = do.
	EnvTheme = "EVDESK_THEME"
	// EnvMeshDebug ("1") has a venue desk's embedded engine (NATS) write
	// its notices, warnings, errors and debug lines, passwords masked, to
	// the desk's log: for debugging a venue, it says a great deal.
	EnvMeshDebug = "EVDESK_MESH_DEBUG"
)

// EnvVar is an environment variable evdesk reads, and what it does.
type EnvVar struct {
	Name, Meaning string
}

// EnvVars is every EVDESK_* variable evdesk reads, in the order `evdesk
// help environment` lists them. A test fails when the code names one
// that is not here.
var EnvVars = []EnvVar{
	{EnvProfile, "the profile to use when --profile is not given (default: the config file's default_profile)"},
	{EnvBaseURL, "the API's base URL, over the profile's base_url"},
	{EnvAuthURL, "the OAuth server's URL, over the profile's auth_url"},
	{EnvPathWord, "the word in the API's /v2/<word>_events paths, over the profile's path_word"},
	{EnvClientID, "the OAuth client id, over the profile's client_id"},
	{EnvClientSecret, "the OAuth client secret (never written to disk; else the keyring's)"},
	{EnvRedirectURI, "the OAuth redirect URI registered with the app (loopback, where evdesk listens; or https, whose landing address you paste), over the profile's redirect_uri"},
	{EnvScopes, "the OAuth scopes, space-separated, over the profile's scopes"},
	{EnvMaxResponseMB, "the largest answer evdesk reads from the server, in MiB"},
	{EnvMaxListingMB, "the most one listing reads across all its pages, in MiB (default 128)"},
	{EnvMaxListingItems, "the most items one listing holds across its pages (default 250000)"},
	{EnvRateLimit, "the most requests a second evdesk sends"},
	{EnvCAFile, "a PEM bundle of certificate authorities trusted besides the system's, over the profile's ca_file"},
	{EnvToken, "a bearer token for the profile in use, over its login (scripts, CI); never sent to another profile's server, never written to disk"},
	{EnvAIKey, "the transcription service's API key (with " + EnvAISecret + ")"},
	{EnvAISecret, "the transcription service's API secret (with " + EnvAIKey + ")"},
	{EnvKioskPIN, "the PIN that unlocks a kiosk desk (6 to 12 digits), over the profile's kiosk_pin"},
	{EnvChangelogURL, "the provider's developer change log feed (RSS, Atom or JSON Feed), over the profile's changelog_url"},
	{EnvWebhookSecret, "the webhook endpoint's secret token for `evdesk webhooks listen` (never written to disk; else the keyring's)"},
	{EnvDebug, "\"api\": log each request and answer (redacted) to the log and, for script commands, to standard error (--debug)"},
	{EnvReadOnly, "\"1\" or \"true\": a read-only session: console actions unavailable, write commands refused (--read-only)"},
	{EnvTheme, "the console's theme: auto, dark, light or high-contrast (--theme)"},
	{EnvMeshDebug, "\"1\": a venue desk's engine writes its own debug log (passwords masked) to evdesk's log; verbose, for debugging a venue"},
	{"EVDESK_TOKEN_NO_PHONE", "printed by `evdesk sim`: a token of an account without the phone service (name it in a profile's token_env)"},
	{"EVDESK_TOKEN_OTHER_HOST", "printed by `evdesk sim`: the second account's token (name it in a profile's token_env)"},
	{EnvCAFile, "a PEM bundle of certificate authorities trusted besides the system's, over the profile's ca_file"},
	{"EVDESK_REAL_PRINT", "tests only: \"1\" runs the tests that print to a real CUPS server and read badges with pdftotext and zbarimg (.ci/run sets it)"},
}

// OtherEnvVars are the variables of wider conventions that evdesk honours.
var OtherEnvVars = []EnvVar{
	{"NO_COLOR", "any value: no colours (bold and reverse remain)"},
	{"XDG_CONFIG_HOME", "where the config file lives (default ~/.config): evdesk/config.toml"},
	{"XDG_STATE_HOME", "where the log, the check-in journals and the webhook spool live (default ~/.local/state)"},
	{"XDG_CACHE_HOME", "where completion answers and the change log's offline copy are cached (default ~/.cache)"},
}
