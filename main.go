// Command evdesk is a terminal console for an event-management platform:
// events, check-in, co-editors, emails and more. `evdesk --demo` runs it
// against the embedded simulator. The commands live in internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/evdesk/evdesk/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, cli.NewFactory(cli.System()), os.Args[1:])
	stop()
	os.Exit(code)
}
