// Package transcript writes a timed transcript as text or as SubRip (SRT)
// subtitles, for the console's save and the CLI's output alike.
package transcript

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Stamp formats seconds as mm:ss, or h:mm:ss from an hour on.
func Stamp(sec float64) string {
	s := int(math.Floor(max(sec, 0)))
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// srtStamp formats seconds as hh:mm:ss,mmm.
func srtStamp(sec float64) string {
	ms := int64(math.Round(max(sec, 0) * 1000))
	return fmt.Sprintf("%02d:%02d:%02d,%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// Formats Write writes.
const (
	FormatText = "text"
	FormatSRT  = "srt"
)

// WriteText writes one line per segment: "[mm:ss - mm:ss] Speaker: text".
func WriteText(w io.Writer, t *api.Transcript) error {
	for _, s := range t.Result.Segments {
		if _, err := fmt.Fprintf(w, "[%s - %s] %s\n", Stamp(s.Start), Stamp(s.End), segmentLine(s)); err != nil {
			return err
		}
	}
	return nil
}

// WriteSRT writes the segments as SubRip subtitles, the speaker before the
// text.
func WriteSRT(w io.Writer, t *api.Transcript) error {
	for i, s := range t.Result.Segments {
		if _, err := fmt.Fprintf(w, "%d\n%s --> %s\n%s\n\n", i+1, srtStamp(s.Start), srtStamp(s.End), segmentLine(s)); err != nil {
			return err
		}
	}
	return nil
}

// segmentLine is a segment's speaker and text on one sanitised line: a
// line break from the server would end an SRT cue early.
func segmentLine(s api.Segment) string {
	text := s.Text
	if s.Speaker != "" {
		text = s.Speaker + ": " + text
	}
	return sanitize.Line(text)
}

// Write writes t in format (FormatText or FormatSRT).
func Write(w io.Writer, t *api.Transcript, format string) error {
	switch format {
	case FormatSRT:
		return WriteSRT(w, t)
	case FormatText:
		return WriteText(w, t)
	}
	return fmt.Errorf("%q is not a transcript format; use %s or %s", format, FormatText, FormatSRT)
}

// FormatFor picks the format from a file name: .srt is SRT, anything else
// text.
func FormatFor(path string) string {
	if strings.EqualFold(filepath.Ext(path), ".srt") {
		return FormatSRT
	}
	return FormatText
}

// Save writes t to path in format atomically (see atomicfile), readable by
// the user only, so a failed save never leaves half a file.
func Save(path string, t *api.Transcript, format string) error {
	return atomicfile.Write(path, 0o600, func(w io.Writer) error { return Write(w, t, format) })
}
