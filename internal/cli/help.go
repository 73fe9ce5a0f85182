package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
)

// helpTopics are `evdesk help exit-codes` and `evdesk help environment`
// (gh's help topics): commands that only have help, written from the code
// so they cannot drift from it.
func helpTopics() []*cobra.Command {
	return []*cobra.Command{
		{Use: "exit-codes", Short: "What each exit status of evdesk means", Long: exitCodesHelp()},
		{Use: "environment", Short: "The environment variables evdesk reads", Long: environmentHelp()},
	}
}

// environmentHelp lists config.EnvVars and the conventions evdesk honours.
func environmentHelp() string {
	var b strings.Builder
	b.WriteString("evdesk reads these environment variables; a non-empty value wins over the config file.\n\n")
	list := func(vars []config.EnvVar) {
		for _, v := range vars {
			fmt.Fprintf(&b, "  %s\n      %s\n", v.Name, wrapText(v.Meaning, 74, "      "))
		}
	}
	list(config.EnvVars)
	b.WriteString("\nAnd these wider conventions:\n\n")
	list(config.OtherEnvVars)
	return b.String()
}

// wrapText wraps s at width, continuation lines indented.
func wrapText(s string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len(w) > width {
			b.WriteString("\n" + indent)
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
