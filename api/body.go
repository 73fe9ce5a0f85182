package api

import (
	"context"
	"errors"
	"io"
)

// Reading an answer's body. Nothing is decoded until the whole body is in
// and known to fit the cap, so a refused answer costs the cap at most, never
// the decoder's copies of it. The body is read in chunks of growing size
// rather than into one buffer that doubles (whose earlier copies linger
// until collected): the memory held is what was read, plus one chunk.
const (
	firstChunk = 32 << 10
	lastChunk  = 1 << 20
)

// readBody reads all of r, at most limit bytes; a longer body fails with
// ErrResponseTooLarge as soon as the byte past the limit arrives. length is
// the size the server announced (-1 when unknown): one announced over the
// limit is refused before reading, and one within it is read into a buffer
// of that size. Every byte read is counted in ctx's listing meter.
func readBody(ctx context.Context, r io.Reader, length, limit int64) ([]byte, error) {
	if length > limit {
		return nil, ErrResponseTooLarge
	}
	if length >= 0 {
		buf := make([]byte, length)
		n, err := io.ReadFull(r, buf)
		countBytes(ctx, int64(n))
		if err != nil {
			return nil, err
		}
		return buf, nil
	}
	var chunks [][]byte
	var total int64
	size := int64(firstChunk)
	for {
		chunk := make([]byte, min(size, limit+1-total))
		n, err := io.ReadFull(r, chunk)
		countBytes(ctx, int64(n))
		total += int64(n)
		chunks = append(chunks, chunk[:n])
		if total > limit {
			return nil, ErrResponseTooLarge
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, lastChunk)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	body := make([]byte, 0, total)
	for i := range chunks {
		body = append(body, chunks[i]...)
		chunks[i] = nil // collectable as soon as copied
	}
	return body, nil
}
