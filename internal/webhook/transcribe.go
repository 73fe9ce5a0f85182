package webhook

import (
	"context"
	"fmt"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/transcript"
)

// TranscribeRecording sends a recording's location to the transcription
// service and writes the timed transcript as SRT beside the spooled event.
// It returns the SRT file's path and the transcript.
func TranscribeRecording(ctx context.Context, tr *api.Transcriber, rec Recording) (string, *api.Transcript, error) {
	if err := CheckRecordingURL(rec.URL); err != nil {
		return "", nil, err
	}
	t, err := tr.Transcribe(ctx, api.TranscribeRequest{File: rec.URL,
		Config: api.TranscribeConfig{Language: api.DefaultTranscribeLang}})
	if err != nil {
		return "", nil, fmt.Errorf("transcribe the recording: %w", err)
	}
	p := TranscriptPath(rec.Path)
	if err := transcript.Save(p, t, transcript.FormatSRT); err != nil {
		return "", nil, fmt.Errorf("write the transcript: %w", err)
	}
	return p, t, nil
}
