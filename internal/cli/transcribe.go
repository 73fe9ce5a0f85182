package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/transcript"
)

// addTranscribeCommands adds `evdesk transcribe URL`.
func addTranscribeCommands(root *cobra.Command, f *Factory) {
	out := newOutput(transcript.FormatText, "json", transcript.FormatSRT)
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
			req := api.TranscribeRequest{File: args[0], Config: api.TranscribeConfig{Language: language}}
			if req.Config.Language == "" {
				req.Config.Language = api.DefaultTranscribeLang
			}
			if err := req.Validate(); err != nil {
				return err
			}
			return f.withSession(func(cmd *cobra.Command, _ []string, s *session) error {
				tr, err := newTranscriber(cmd.Context(), f.flags, s)
				if err != nil {
					return err
				}
				t, err := tr.Transcribe(cmd.Context(), req)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if out.value == "json" {
					return writeJSON(w, t)
				}
				return transcript.Write(w, t, out.value)
			})(cmd, args)
		},
	}
	cmd.Flags().VarP(out, "output", "o", "output format: text, json or srt")
	cmd.Flags().StringVar(&language, "language", api.DefaultTranscribeLang, "locale code of the speech")
	root.AddCommand(cmd)
}

// newTranscriber builds the session's transcription client: the demo uses
// the simulator's AI key and secret, a profile its stored ones (`evdesk
// login --ai`). The service lives at the events API's base URL.
func newTranscriber(ctx context.Context, flags rootFlags, s *session) (*api.Transcriber, error) {
	var ts *auth.JWTSource
	var err error
	if s.demo {
		ts, err = auth.NewJWTSource(auth.AICredentials{APIKey: sim.DemoAIKey, APISecret: sim.DemoAISecret})
	} else {
		var p config.Profile
		if p, err = config.LoadProfile(flags.profile); err == nil {
			ts, err = auth.JWTSourceFor(ctx, p, nil)
		}
	}
	if err != nil {
		return nil, err
	}
	return api.NewTranscriber(s.client.BaseURL(), ts, s.clientOpts...)
}
