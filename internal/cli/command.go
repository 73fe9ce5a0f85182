package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"
)

// deps are what a command's run takes from the factory, as values a test
// can set on the options directly (gh's pattern): the streams, the clock,
// and the session, opened only when the run asks for it.
type deps struct {
	IO      *IOStreams
	Now     func() time.Time
	Session func(context.Context) (*session, error)
}

// deps hands a command the factory's seams.
func (f *Factory) deps() deps {
	return deps{IO: f.IOStreams, Now: func() time.Time { return f.Now() }, Session: f.cliSession}
}

// inSession runs body in the session d opens, and closes it after.
func (d deps) inSession(ctx context.Context, body func(*session) error) error {
	s, err := d.Session(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	return body(s)
}

// runFunc is a command's body on its options. Every command's constructor
// takes one as runF: nil runs the real body, a test passes its own to see
// the options the flags and arguments built, with nothing opened.
type runFunc[O any] func(context.Context, *O) error

// run calls runF when a test gave one, else the command's own body.
func run[O any](cmd *cobra.Command, o *O, runF, body runFunc[O]) error {
	if runF != nil {
		return runF(cmd.Context(), o)
	}
	return body(cmd.Context(), o)
}
