package emails

import tea "charm.land/bubbletea/v2"

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
