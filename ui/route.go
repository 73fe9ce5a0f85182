package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui/internal/teax"
	"github.com/evdesk/evdesk/ui/timer"
)

// ScreenID names a screen for as long as it is on a stack. The shell gives
// one to every screen it opens; screens never need to know theirs.
type ScreenID int64

// addressed is a message on its way back to the screen whose command
// produced it. The shell delivers it to that screen wherever it is (another
// section's stack, under other screens) and drops it once the screen is
// gone: a reply always reaches its owner and no one else.
type addressed struct {
	to  ScreenID
	msg tea.Msg
}

// addressTo makes every message that cmd (and the commands it batches or
// sequences) produces come back addressed to id. The shell's own messages
// and the program's pass through as they are. Only id and cmd are read, so
// the wrapper never touches a model from the command's goroutine.
func addressTo(id ScreenID, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	if timer.Is(cmd) { // stays recognisable as a timer
		return timer.Map(cmd, func(msg tea.Msg) tea.Msg { return address(id, msg) })
	}
	return func() tea.Msg { return address(id, cmd()) }
}

func address(id ScreenID, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		out := make(tea.BatchMsg, len(m))
		for i, c := range m {
			out[i] = addressTo(id, c)
		}
		return out
	case asyncDoneMsg:
		return asyncDoneMsg{msg: address(id, m.msg)}
	case AskMsg:
		return AskMsg{Question: m.Question, Yes: addressTo(id, m.Yes)}
	case addressed, broadcastMsg, asyncStartMsg, PushMsg, PopMsg, ToastMsg, SucceededMsg, toastExpiredMsg, spinTickMsg, noticeMsg, NewsMsg, KeepMsg, SectionMsg:
		return msg
	}
	if cmds, ok := teax.Sequence(msg); ok {
		wrapped := make([]tea.Cmd, len(cmds))
		for i, c := range cmds {
			wrapped[i] = addressTo(id, c)
		}
		return tea.Sequence(wrapped...)()
	}
	if teax.ProgramMsg(msg) { // the program's own: clipboard, bell, quit
		return msg
	}
	return addressed{to: id, msg: msg}
}
