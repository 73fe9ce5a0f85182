package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/transcript"
)

// transcribeOptions are `evdesk transcribe`'s.
type transcribeOptions struct {
	deps
	Export  *exporter
	Request api.TranscribeRequest
	// transcriber builds the session's transcription client.
	transcriber func(ctx context.Context, s *session) (*api.Transcriber, error)
}

// newTranscribeCmd is `evdesk transcribe URL`.
func newTranscribeCmd(f *Factory, runF runFunc[transcribeOptions]) *cobra.Command {
	o := &transcribeOptions{deps: f.deps(), transcriber: func(ctx context.Context, s *session) (*api.Transcriber, error) {
		return newTranscriber(ctx, f, f.flags, s)
	}}
	var language string
	cmd := &cobra.Command{
		Use:   "transcribe AUDIO_URL",
		Short: "Transcribe an audio file into a timed transcript (text, JSON or SRT)",
		Long: "Send the location (an http or https URL) of an audio file to the AI transcription service and\n" +
			"print the timed transcript. It needs the AI services API key and secret of the profile\n" +
			"(`evdesk login --ai`); with --demo the simulator's are used.\n\n" +
			"Demo samples: " + fmt.Sprint(sim.SampleAudioURLs),
		Example: "  evdesk --demo transcribe " + sim.SampleKeynoteURL + " -o srt > keynote.srt",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Request = api.TranscribeRequest{File: args[0], Config: api.TranscribeConfig{Language: language}}
			if o.Request.Config.Language == "" {
				o.Request.Config.Language = api.DefaultTranscribeLang
			}
			if err := o.Request.Validate(); err != nil {
				return err
			}
			return run(cmd, o, runF, func(ctx context.Context, o *transcribeOptions) error {
				return o.inSession(ctx, func(s *session) error {
					tr, err := o.transcriber(ctx, s)
					if err != nil {
						return err
					}
					t, err := tr.Transcribe(ctx, o.Request)
					if err != nil {
						return err
					}
					return o.Export.WriteText(o.IO.Out, t, func(w io.Writer) error { return transcript.Write(w, t, o.Export.format) })
				})
			})
		},
	}
	o.Export = addExporter(cmd, transcript.FormatText, formatJSON, transcript.FormatSRT)
	cmd.Flags().StringVar(&language, "language", api.DefaultTranscribeLang, "locale code of the speech")
	return cmd
}

// newTranscriber builds the session's transcription client: the demo uses
// the simulator's AI key and secret, a profile its stored ones (`evdesk
// login --ai`). The service lives at the events API's base URL.
func newTranscriber(ctx context.Context, f *Factory, flags rootFlags, s *session) (*api.Transcriber, error) {
	var ts *auth.JWTSource
	var err error
	if s.demo {
		ts, err = auth.NewJWTSource(auth.AICredentials{APIKey: sim.DemoAIKey, APISecret: sim.DemoAISecret})
	} else {
		var p config.Profile
		load := f.Profile
		if flags.other {
			load = f.OwnProfile
		}
		if p, err = load(flags.profile); err == nil {
			ts, err = auth.JWTSourceFor(ctx, p, f.AuthStore(auth.StoreOptions{}))
		}
	}
	if err != nil {
		return nil, err
	}
	// A transcription changes nothing on the account: a read-only
	// session may still make one.
	return api.NewTranscriber(s.client.BaseURL(), ts, append(slices.Clone(s.clientOpts), api.WithReadOnly(""))...)
}
