package ui

import "charm.land/bubbles/v2/key"

// DefaultGlobalKeys returns the shell's bindings with their help texts. Each
// program builds its own copy, so no key map is shared or global.
func DefaultGlobalKeys() *GlobalKeys {
	return &GlobalKeys{
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		NextTab: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next section")),
		PrevTab: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "prev section")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Filter:  key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
	}
}

// ShortHelp makes GlobalKeys a help.KeyMap.
func (k GlobalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit}
}

// FullHelp lists the shell's own keys; Refresh and Filter are acted on by
// screens, which list them in their own key maps when they support them.
func (k GlobalKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.NextTab, k.PrevTab, k.Back, k.Help, k.Quit}}
}
