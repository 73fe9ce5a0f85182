package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The shell's popups (the palette, a question, the help, the recent
// errors, a notice) are one stack over the screens: the top one takes the
// keys, and they are drawn in the stack's order, so what is drawn on top
// is what the keys go to.
type overlay interface {
	// onKey handles a key while the overlay is on top.
	onKey(a *App, k tea.KeyPressMsg) tea.Cmd
	// view draws the overlay's box for a content area of w x h.
	view(a *App, w, h int) string
}

// open puts o on top of the stack.
func (a *App) openOverlay(o overlay) { a.overlays = append(a.overlays, o) }

// close takes o off the stack, wherever it is.
func (a *App) closeOverlay(o overlay) {
	for i := len(a.overlays) - 1; i >= 0; i-- {
		if a.overlays[i] == o {
			a.overlays = append(a.overlays[:i], a.overlays[i+1:]...)
			return
		}
	}
}

// topOverlay is the overlay that takes the keys, or nil.
func (a *App) topOverlay() overlay {
	if len(a.overlays) == 0 {
		return nil
	}
	return a.overlays[len(a.overlays)-1]
}

// overlayOf is the topmost overlay of type T on the stack.
func overlayOf[T overlay](a *App) (T, bool) {
	for i := len(a.overlays) - 1; i >= 0; i-- {
		if o, ok := a.overlays[i].(T); ok {
			return o, true
		}
	}
	var zero T
	return zero, false
}

// question is the open question, or nil.
func (a *App) question() *question {
	q, _ := overlayOf[*question](a)
	return q
}

// palette is the command palette while it is on top, or nil.
func (a *App) palette() *commandPalette {
	p, _ := a.topOverlay().(*commandPalette)
	return p
}

// drawOverlays draws the stack over content, bottom first.
func (a *App) drawOverlays(content string, w, h int) string {
	for _, o := range a.overlays {
		content = Modal(content, o.view(a, w, h), w, h)
	}
	return content
}

// question is a yes/no question of the shell's: whether to quit, or a
// screen's (Ask).
type question struct {
	c    Confirm
	quit bool    // the question is whether to quit
	yes  tea.Cmd // what yes runs, for a screen's question
}

func (q *question) view(*App, int, int) string { return q.c.View() }

// onKey answers the question. Over a screen that takes scans the question
// is guarded: only its own keys answer it, and what a scanner types goes
// on to the screen.
func (q *question) onKey(a *App, k tea.KeyPressMsg) tea.Cmd {
	if q.c.Guarded() && !q.c.Claims(k) {
		if a.takesScans() && typedByScanner(k) {
			return a.updateTop(k)
		}
		return nil
	}
	if a.hasty {
		q.c, _, _ = q.c.Update(HastyKeyMsg{Key: k})
		return nil
	}
	c, _, done := q.c.Update(k)
	q.c = c
	if !done {
		return nil
	}
	a.closeOverlay(q)
	switch {
	case !c.Confirmed():
		return nil
	case q.quit:
		return a.quit()
	}
	return q.yes
}

// panelOverlay is a scrolling panel of the shell: the help or the recent
// errors.
type panelOverlay struct {
	p      panel
	errors bool // the recent errors, not the help
}

func (o *panelOverlay) lines(a *App) []string {
	cw, _ := a.contentSize()
	if o.errors {
		return a.errorLines(cw - 6)
	}
	return a.helpLines()
}

func (o *panelOverlay) view(a *App, w, h int) string {
	if o.errors {
		return o.p.view(a.ctx.Theme, "Recent errors (newest first)", o.lines(a), "E or esc closes this list", w, h)
	}
	closer := a.ctx.Keys.Help.Help().Key
	if c, ok := a.Top().(InputCapturer); ok && c.CapturingInput() {
		closer = a.ctx.Keys.HelpAnywhere.Help().Key
	}
	return o.p.view(a.ctx.Theme, "Keys", o.lines(a), closer+" or esc closes this help", w, h)
}

// onKey scrolls the panel, closes it, or asks to quit.
func (o *panelOverlay) onKey(a *App, k tea.KeyPressMsg) tea.Cmd {
	keys := a.ctx.Keys
	_, ch := a.contentSize()
	n := len(o.lines(a))
	toggle := keys.Help
	if o.errors {
		toggle = keys.Errors
	}
	switch {
	case key.Matches(k, toggle, keys.Back):
		a.closeOverlay(o)
	case key.Matches(k, keys.Quit):
		return a.requestQuit()
	case key.Matches(k, keys.Up):
		o.p.scroll(-1, n, ch)
	case key.Matches(k, keys.Down):
		o.p.scroll(1, n, ch)
	case key.Matches(k, keys.PageUp):
		o.p.scroll(-ch/2, n, ch)
	case key.Matches(k, keys.PageDown):
		o.p.scroll(ch/2, n, ch)
	}
	return nil
}

// notice shows a text whole until any key closes it.
type notice struct{ title, text string }

func (n *notice) view(a *App, w, h int) string {
	return panel{}.view(a.ctx.Theme, n.title, wrapWords(n.text, max(10, w-8)), "any key closes this", w, h)
}

func (n *notice) onKey(a *App, _ tea.KeyPressMsg) tea.Cmd {
	a.closeOverlay(n)
	return nil
}

func (p *commandPalette) view(a *App, w, h int) string { return a.paletteView(p, w, h) }

func (p *commandPalette) onKey(a *App, k tea.KeyPressMsg) tea.Cmd { return a.updatePalette(p, k) }
