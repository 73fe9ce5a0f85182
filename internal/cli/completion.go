package cli

import (
	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
)

// registerLinkCompletions is filled in by the completion work.
func registerLinkCompletions(_ *Factory, _ *cobra.Command) {}

// registerEventSessionCompletions is filled in by the completion work.
func registerEventSessionCompletions(_ *Factory, _ *cobra.Command) {}

// enumCompletions offers an enum's values with their labels.
func enumCompletions(values []api.Enum) cobra.CompletionFunc {
	out := make([]cobra.Completion, len(values))
	for i, e := range values {
		out[i] = cobra.CompletionWithDesc(e.Value, e.Label)
	}
	return cobra.FixedCompletions(out, cobra.ShellCompDirectiveNoFileComp)
}

// registerTicketTypeCompletions is filled in by the completion work.
func registerTicketTypeCompletions(_ *Factory, _ *cobra.Command) {}

// completeProfiles is filled in by the completion work.
func (f *Factory) completeProfiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}
