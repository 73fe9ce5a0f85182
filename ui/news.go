package ui

import tea "charm.land/bubbletea/v2"

// NewsMsg puts a piece of news in the status bar until the user reads it:
// a headline there, and the whole text in a panel on the News key (N). The
// console tells what changed on the platform this way (the change log's
// start-up notice) without interrupting anyone's work.
type NewsMsg struct {
	Headline    string // one line for the status bar
	Title, Text string // the panel N opens
}

// WithStartup runs cmd in the background once the console starts, for
// news that takes a network call to find; it never holds up the first
// frame, and a nil message from it shows nothing.
func WithStartup(cmd tea.Cmd) Option {
	return func(a *App) { a.startup = cmd }
}

// readNews opens the news in the notice panel and clears the headline.
func (a *App) readNews() {
	a.openOverlay(&notice{title: a.news.Title, text: a.news.Text})
	a.news = nil
}
