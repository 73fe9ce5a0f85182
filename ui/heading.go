package ui

// LoadState is what a screen is doing, as its heading tells it.
type LoadState struct {
	Busy    string // an action under way ("adding"); shown before anything else
	Loading bool
	Err     error  // the load failed
	Summary string // once loaded, what there is ("3 links")
}

// Heading is a screen's title line: the (rendered) title, then in words
// what the screen is doing, so every screen says it the same way.
func Heading(th *Theme, title string, st LoadState) string {
	switch {
	case st.Busy != "":
		return title + th.Muted.Render("  "+st.Busy+"...")
	case st.Loading:
		return title + th.Muted.Render("  loading...")
	case st.Err != nil && st.Summary != "":
		// A failed reload keeps the rows of the last good one: say both.
		return title + th.Muted.Render("  "+st.Summary) + th.Error.Render("  ERROR: reload failed, r to retry")
	case st.Err != nil:
		return title + th.Error.Render("  ERROR: load failed, r to retry")
	case st.Summary != "":
		return title + th.Muted.Render("  "+st.Summary)
	}
	return title
}
