package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// TranscribePath is the transcription endpoint below the base URL
// (phone-scribe change log, section 4).
const TranscribePath = "/aiservices/scribe/transcribe"

// Transcription output format and the default language (2.8: `json` is the
// value used).
const (
	TranscribeFormatJSON   = "json"
	DefaultTranscribeLang  = "en-US"
	maxTranscribeURLLength = 2048
)

// aiUnauthorized is what a 401 of the transcription endpoint means: the
// change log documents no codes, so the client explains the status.
const aiUnauthorized = "the AI services refused the token: check the API key and secret (evdesk login --ai) and the computer's clock"

// Transcriber calls the AI transcription service. Its calls carry a JWT
// from the injected token source (auth.JWTSource), not the OAuth token of
// the events API, so it is a client of its own over the same transport
// (rate limit, retries of 429, user agent, redacted logs).
type Transcriber struct {
	c *Client
}

// NewTranscriber builds a transcriber for the service at baseURL (with the
// /v2 prefix, usually the events API's base URL) authenticating with
// tokens from ts. opts are the Client options (user agent, logger, HTTP
// client, retry, rate limit); a token option among them is overridden by ts.
func NewTranscriber(baseURL string, ts oauth2.TokenSource, opts ...Option) (*Transcriber, error) {
	if ts == nil {
		return nil, errors.New("api: the transcriber needs a token source (AI API key and secret: run `evdesk login --ai`)")
	}
	all := append([]Option{WithBaseURL(baseURL)}, opts...)
	all = append(all, WithTokenSource(ts))
	c, err := New(all...)
	if err != nil {
		return nil, err
	}
	return &Transcriber{c: c}, nil
}

// BaseURL returns the address the transcriber calls.
func (t *Transcriber) BaseURL() string { return t.c.BaseURL() }

// TranscribeRequest is the body of a transcription (2.8).
type TranscribeRequest struct {
	// File is the location (an http or https URL) of the audio file.
	File   string           `json:"file"`
	Config TranscribeConfig `json:"config"`
}

// TranscribeConfig holds the request's options.
type TranscribeConfig struct {
	Language     string `json:"language,omitempty"`
	OutputFormat string `json:"output_format,omitempty"`
}

var localeRE = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// Validate checks the request: an absolute http(s) file URL, a locale code
// such as en-US, output format json.
func (r *TranscribeRequest) Validate() error {
	var v validator
	switch {
	case strings.TrimSpace(r.File) == "":
		v.add("file", "is required: give the URL of the audio file")
	case len(r.File) > maxTranscribeURLLength:
		v.add("file", "is %d characters long; at most %d", len(r.File), maxTranscribeURLLength)
	default:
		if err := CheckLink(r.File); err != nil {
			v.add("file", "%v", err)
		}
	}
	if l := r.Config.Language; l != "" && !localeRE.MatchString(l) {
		v.add("config.language", "%q is not a locale code such as en-US", l)
	}
	v.oneOf("config.output_format", r.Config.OutputFormat, []string{TranscribeFormatJSON})
	return v.err()
}

// Transcript is the result of a transcription (2.8).
type Transcript struct {
	RequestID   string  `json:"request_id"`
	DurationSec float64 `json:"duration_sec"`
	Result      struct {
		TextDisplay string    `json:"text_display"`
		TextLexical string    `json:"text_lexical"`
		Segments    []Segment `json:"segments"`
	} `json:"result"`
}

// Segment is one timed stretch of speech; times are seconds from the start.
type Segment struct {
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	Channel int     `json:"channel"`
	Speaker string  `json:"speaker,omitempty"`
	Text    string  `json:"text"`
	Words   []Word  `json:"words,omitempty"`
}

// Word is one timed word.
type Word struct {
	Word  string  `json:"word"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Duration is the audio length.
func (t *Transcript) Duration() time.Duration {
	return time.Duration(t.DurationSec * float64(time.Second))
}

// Transcribe sends the audio location and returns the timed transcript. The
// call is synchronous (the change log's flow returns the final result in one
// response). Language defaults to DefaultTranscribeLang and the output
// format to json. Like every POST it is not repeated after a failure of
// unknown outcome; a 429 is.
func (t *Transcriber) Transcribe(ctx context.Context, req TranscribeRequest) (*Transcript, error) {
	req.File = strings.TrimSpace(req.File)
	if req.Config.Language == "" {
		req.Config.Language = DefaultTranscribeLang
	}
	if req.Config.OutputFormat == "" {
		req.Config.OutputFormat = TranscribeFormatJSON
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out Transcript
	err := t.c.do(ctx, call{op: "transcribe " + redactAudioURL(req.File), method: http.MethodPost,
		path: TranscribePath, body: &req, meanings: map[int]string{http.StatusUnauthorized: aiUnauthorized}}, &out)
	if err != nil {
		return nil, err
	}
	if out.Result.Segments == nil {
		out.Result.Segments = []Segment{}
	}
	return &out, nil
}

// redactAudioURL drops the query of a file URL (signed storage links carry
// secrets there) for error messages.
func redactAudioURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.RawQuery == "" {
		return s
	}
	u.RawQuery = ""
	return u.String() + "?..."
}
