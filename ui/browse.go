package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// Browse opens u in the browser in the background and says so; where no
// browser can be opened (over SSH, say) it shows the address instead, to
// copy.
func Browse(ctx *Context, u string) tea.Cmd {
	if u == "" {
		return Toast(ToastInfo, "There is no web address to open")
	}
	open := ctx.OpenURL
	return Async(func() tea.Msg {
		if open == nil {
			return noticeMsg{title: "No browser here: open this address yourself", text: sanitize.Line(u)}
		}
		if err := open(u); err != nil {
			return noticeMsg{title: "Could not open a browser (" + sanitize.Line(err.Error()) + "): open this address yourself",
				text: sanitize.Line(u)}
		}
		return ToastMsg{Level: ToastSuccess, Text: "Opened in the browser: " + sanitize.Line(u)}
	})
}

// noticeMsg shows text whole in a panel until the user closes it: an
// address to copy must not be cut to fit a status line.
type noticeMsg struct{ title, text string }
