package ui

import tea "charm.land/bubbletea/v2"

// KeyJudge is a screen that takes scans and, while JudgesKeys reports
// true, has a prompt of its own open that a scan must not type into (the
// kiosk's PIN): then its keys pass the scan gate like anywhere else, a
// person's arrive as keys, and a scanner's as ScannedKeyMsg, so the scan
// reaches the screen whole and is never taken for the prompt's.
type KeyJudge interface {
	JudgesKeys() bool
}

// ScannedKeyMsg is a key of a scan, given to a KeyJudge that judges keys.
type ScannedKeyMsg struct{ Key tea.KeyPressMsg }

// judgesKeys reports whether the focused screen wants a scanner's keys told
// from a person's (KeyJudge).
func (a *App) judgesKeys() bool {
	j, ok := a.Top().(KeyJudge)
	return ok && j.JudgesKeys()
}

// scannedAs is a scan's message as the focused screen takes it: a key is a
// ScannedKeyMsg where the screen judges keys.
func (a *App) scannedAs(m tea.Msg, judging bool) tea.Msg {
	if k, ok := m.(tea.KeyPressMsg); ok && judging {
		return ScannedKeyMsg{Key: k}
	}
	return m
}
