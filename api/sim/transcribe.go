package sim

import (
	"errors"
	"math"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/evdesk/evdesk/api"
)

// Credentials of the AI services the simulator accepts: a JWT is valid when
// it is signed (HS256) with DemoAISecret and its iss is DemoAIKey.
// `evdesk sim` prints them; `evdesk --demo` uses them.
const (
	DemoAIKey    = "evdesk-sim-ai-key"
	DemoAISecret = "evdesk-sim-ai-secret-0123456789abcdef"
)

// Sample audio files the simulator transcribes; any other address of the
// sample host is unreachable (40001), and an address that is not audio is
// unsupported (40002).
const (
	SampleHost          = "media.evdesk.example"
	SampleKeynoteURL    = "https://" + SampleHost + "/samples/keynote-welcome.mp3"
	SamplePanelURL      = "https://" + SampleHost + "/samples/hybrid-events-panel.wav"
	SampleBriefingURL   = "https://" + SampleHost + "/samples/checkin-briefing.m4a"
	maxTranscribeJWTAge = time.Hour
)

// SampleAudioURLs lists the sample files in a fixed order.
var SampleAudioURLs = []string{SampleKeynoteURL, SamplePanelURL, SampleBriefingURL}

var audioExtensions = map[string]bool{".mp3": true, ".wav": true, ".m4a": true, ".flac": true, ".ogg": true, ".webm": true}

// line is one utterance of a sample: who speaks and what they say.
type line struct{ speaker, text string }

var sampleScripts = map[string][]line{
	SampleKeynoteURL: {
		{"Alex Morgan", "Good morning, everyone, and welcome to the Northwind Partner Summit."},
		{"Alex Morgan", "Before we begin, a few housekeeping notes: the expo hall opens at ten and closes at six."},
		{"Alex Morgan", "Sessions are recorded, and captions are available in the event app."},
		{"Alex Morgan", "Please welcome our first speaker, Priya Raman."},
		{"Priya Raman", "Thank you, Alex. It is wonderful to see so many of you here in person."},
		{"Priya Raman", "Last year we ran this summit online; this year we have fourteen hundred people in the room."},
		{"Priya Raman", "Today I want to talk about what hybrid events teach us about attention."},
	},
	SamplePanelURL: {
		{"Moderator", "Welcome to the panel on running hybrid events at scale."},
		{"Jamie Chen", "For us the hardest part is check-in: a queue of two hundred people at nine sharp."},
		{"Sofia Alves", "We moved to scanners at every door and the queue was gone in twelve minutes."},
		{"Moderator", "What about the remote audience?"},
		{"Jamie Chen", "They need their own host; someone whose only job is the chat and the questions."},
		{"Sofia Alves", "And captions. Live captions doubled how long people stayed in the stream."},
	},
	SampleBriefingURL: {
		{"Hana Sato", "Quick briefing for the check-in desk volunteers."},
		{"Hana Sato", "Scan the badge first; if it fails, search by last name."},
		{"Hana Sato", "Speakers go to the green desk, sponsors to the blue one."},
		{"Tom Okafor", "And if the network drops, keep scanning: the desk catches up on its own."},
	},
}

func (s *Sim) transcribeRoutes() {
	s.mux.HandleFunc("POST /v2"+api.TranscribePath, s.transcribe)
}

// isAIPath reports whether p is an AI services path: those authenticate
// with the AI services JWT, not an OAuth access token.
func isAIPath(p string) bool { return strings.HasPrefix(p, "/v2/aiservices/") }

// checkAIToken verifies the request's JWT (change log 5.2): HS256 signed
// with DemoAISecret, typ JWT, iss DemoAIKey, iat and exp present, not
// expired, and exp at most an hour after now and after iat.
func (s *Sim) checkAIToken(r *http.Request) *apiError {
	invalid := func(msg string) *apiError {
		return &apiError{Status: http.StatusUnauthorized, Code: CodeAITokenInvalid, Message: msg}
	}
	expired := func(msg string) *apiError {
		return &apiError{Status: http.StatusUnauthorized, Code: CodeAITokenExpired, Message: msg}
	}
	scheme, raw, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	raw = strings.TrimSpace(raw)
	if !ok || !strings.EqualFold(scheme, "Bearer") || raw == "" {
		return invalid("Authorization header with a Bearer JWT is required.")
	}
	claims := jwt.MapClaims{}
	tok, err := jwt.ParseWithClaims(raw, claims, func(t *jwt.Token) (any, error) {
		return []byte(DemoAISecret), nil
	}, jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithoutClaimsValidation())
	switch {
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return invalid("Invalid JWT signature.")
	case err != nil:
		return invalid("Invalid JWT: the token is malformed or not signed with HS256.")
	}
	if typ, _ := tok.Header["typ"].(string); !strings.EqualFold(typ, "JWT") {
		return invalid("Invalid JWT: the header's typ must be JWT.")
	}
	iss, _ := claims["iss"].(string)
	if iss == "" {
		return invalid("Invalid JWT: the iss claim (API key) is required.")
	}
	if iss != DemoAIKey {
		return invalid("Invalid JWT: unknown API key in iss.")
	}
	iat, errIat := claims.GetIssuedAt()
	exp, errExp := claims.GetExpirationTime()
	if errIat != nil || errExp != nil || iat == nil || exp == nil {
		return invalid("Invalid JWT: the iat and exp claims are required (epoch seconds).")
	}
	now := s.now()
	switch {
	case !now.Before(exp.Time):
		return expired("The JWT has expired.")
	case exp.Sub(now) > maxTranscribeJWTAge+time.Minute, exp.Sub(iat.Time) > maxTranscribeJWTAge:
		return expired("The JWT expiry must be one hour or less.")
	case exp.Time.Before(iat.Time):
		return invalid("Invalid JWT: exp is before iat.")
	case iat.After(now.Add(time.Minute)):
		return invalid("Invalid JWT: iat is in the future.")
	}
	return nil
}

func (s *Sim) transcribe(w http.ResponseWriter, r *http.Request) {
	if e := s.checkAIToken(r); e != nil {
		writeError(w, e)
		return
	}
	// The AI services follow the account's rate limit: one bucket per API
	// key (the JWT's iss, DemoAIKey once the token checked out).
	if s.rateLimited(w, "ai:"+DemoAIKey) {
		return
	}
	var in api.TranscribeRequest
	if err := decodeJSON(w, r, &in); err != nil {
		writeErr(w, err)
		return
	}
	var problems []api.FieldError
	file := strings.TrimSpace(in.File)
	if file == "" {
		problems = append(problems, api.FieldError{Field: "file", Message: "is required."})
	}
	if f := in.Config.OutputFormat; f != "" && f != api.TranscribeFormatJSON {
		problems = append(problems, api.FieldError{Field: "config.output_format", Message: "only json is supported."})
	}
	if len(problems) > 0 {
		writeError(w, fieldError(problems...))
		return
	}
	if l := strings.ToLower(in.Config.Language); l != "" && l != "en" && !strings.HasPrefix(l, "en-") {
		writeError(w, errf(http.StatusBadRequest, CodeLanguageUnsupported,
			"Language %q is not supported; the service transcribes English (en-US, en-GB).", in.Config.Language))
		return
	}
	u, err := url.Parse(file)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		writeError(w, errf(http.StatusBadRequest, CodeAudioUnreachable, "The audio file could not be fetched: %q is not an http(s) URL.", file))
		return
	}
	if !audioExtensions[strings.ToLower(path.Ext(u.Path))] {
		writeError(w, errf(http.StatusBadRequest, CodeAudioUnsupported,
			"Unsupported audio format %q; use WAV, MP3, M4A, FLAC, OGG or WEBM.", path.Ext(u.Path)))
		return
	}
	u.RawQuery, u.Fragment = "", ""
	script, ok := sampleScripts[u.String()]
	if !ok {
		writeError(w, errf(http.StatusBadRequest, CodeAudioUnreachable, "The audio file could not be fetched from %s.", u.Host))
		return
	}
	writeJSON(w, http.StatusOK, buildTranscript(u.String(), script))
}

// buildTranscript times a script: words at a steady pace, a pause between
// utterances, channel 0 for the first speaker and 1 for the others.
func buildTranscript(file string, script []line) *api.Transcript {
	out := &api.Transcript{RequestID: makeID("scribe", file)}
	round := func(f float64) float64 { return math.Round(f*100) / 100 }
	at := 0.6
	var display, lexical []string
	first := script[0].speaker
	for _, l := range script {
		words := strings.Fields(l.text)
		seg := api.Segment{Start: round(at), Speaker: l.speaker, Text: l.text}
		if l.speaker != first {
			seg.Channel = 1
		}
		for _, wd := range words {
			d := 0.18 + 0.045*float64(len(wd))
			seg.Words = append(seg.Words, api.Word{Word: strings.Trim(wd, ".,:;?!"), Start: round(at), End: round(at + d)})
			at += d + 0.08
		}
		seg.End = round(at - 0.08)
		out.Result.Segments = append(out.Result.Segments, seg)
		display = append(display, l.text)
		lexical = append(lexical, strings.ToLower(strings.Map(func(r rune) rune {
			if strings.ContainsRune(".,:;?!", r) {
				return -1
			}
			return r
		}, l.text)))
		at += 0.9
	}
	out.DurationSec = round(at)
	out.Result.TextDisplay = strings.Join(display, " ")
	out.Result.TextLexical = strings.Join(lexical, " ")
	return out
}
