package ui

import "sync"

// RetryNote is what the API client is retrying now ("list events: try 2
// of 8 in 1s (HTTP 503)"), for the status bar: the client's calls write it
// from their own goroutines, the status bar reads it while work is in
// flight. A nil note says nothing.
type RetryNote struct {
	mu   sync.Mutex
	text string
}

// Set records the latest retry ("" once the call is over).
func (n *RetryNote) Set(text string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.text = text
	n.mu.Unlock()
}

// Text is the latest retry, or "".
func (n *RetryNote) Text() string {
	if n == nil {
		return ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.text
}
