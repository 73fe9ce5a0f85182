package api

import (
	"fmt"
	"net/http"
)

// WithReadOnly makes the client refuse every request that could change
// the account (any method but GET and HEAD) before it is sent, saying why
// (reason: "--read-only", a profile's read_only = true). The console and
// the CLI check first and say so in their own words; this is the net under
// them, so no path can write from a read-only session.
func WithReadOnly(reason string) Option { return func(c *Client) { c.readOnly = reason } }

// ReadOnlyError is a write refused by a read-only client; nothing was sent.
type ReadOnlyError struct {
	Op, Reason string
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s: not sent: this session is read-only (%s)", e.Op, e.Reason)
}

// refuseWrite is the read-only client's answer to a write, or nil.
func (c *Client) refuseWrite(cl call) error {
	if c.readOnly == "" || cl.method == http.MethodGet || cl.method == http.MethodHead {
		return nil
	}
	return &ReadOnlyError{Op: cl.op, Reason: c.readOnly}
}
