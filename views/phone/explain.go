package phone

import (
	"path"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/policy"
	"github.com/evdesk/evdesk/ui"
)

// explain renders a setting's header, purpose, fields in words and lock,
// and what the notes say of it, wrapped to width.
func explain(th *ui.Theme, st *api.PhoneSettings, key string, n notes, width int) []string {
	c, known := st.Common(key)
	var out []string
	out = append(out, wrap(th.Title, policy.Title(key), width)...)
	out = append(out, th.Muted.Render(ansi.Truncate(key+" · "+policy.Group(key), width, "…")))
	state := th.Muted.Render("OFF")
	switch {
	case !st.Has(key):
		state = th.Warning.Render("NOT ON THIS ACCOUNT")
	case !known:
		state = th.Warning.Render("STATE UNKNOWN")
	case c.On():
		state = th.Success.Render("ON")
	}
	if b := lockBadge(c); b != "" {
		state += "  " + th.WarningBadge.Render(" "+strings.ToUpper(b)+" ")
	}
	out = append(out, state)
	if n.other != "" {
		out = append(out, th.Muted.Render(ansi.Truncate("In "+n.other+": "+n.otherState, width, "…")))
	}
	// What the audits say comes first: it is why the user is looking.
	out = append(out, n.lines(th, key, width)...)
	out = append(out, "")
	out = append(out, wrap(lipgloss.NewStyle(), policy.About(key), width)...)
	if words := policy.Describe(st, key); len(words) > 0 {
		out = append(out, "")
		for _, w := range words {
			out = append(out, wrap(lipgloss.NewStyle(), w, width)...)
		}
	}
	if dep := st.DeprecatedFields(key); len(dep) > 0 {
		out = append(out, "")
		out = append(out, wrap(th.Warning, deprecatedText(key, dep), width)...)
	}
	if known {
		out = append(out, "")
		out = append(out, wrap(th.Muted, lockText(c), width)...)
	}
	return out
}

// wrap word-wraps text to width; a "- " item keeps a hanging indent.
func wrap(style lipgloss.Style, text string, width int) []string {
	width = max(10, width)
	prefix, rest := "", text
	if strings.HasPrefix(text, "- ") {
		prefix, rest = "- ", text[2:]
	}
	body := lipgloss.NewStyle().Width(width - len(prefix)).Render(rest)
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		p := strings.Repeat(" ", len(prefix))
		if i == 0 {
			p = prefix
		}
		lines[i] = style.Render(p + strings.TrimRight(l, " "))
	}
	return lines
}

// deprecatedText says which deprecated fields a setting carries and what
// replaces them, in one paragraph: "the same fields of A and B" when every
// field's replacements are its namesakes under the same objects.
func deprecatedText(key string, fields []string) string {
	var parents []string
	same := true
	var each []string
	for _, f := range fields {
		d, _ := api.PhoneDeprecation(key + "." + f)
		var ps []string
		for _, p := range d.Instead {
			rel := fieldOf(p, key)
			parent, leaf := path.Split(strings.ReplaceAll(rel, ".", "/"))
			if leaf != f {
				same = false
			}
			ps = append(ps, strings.ReplaceAll(strings.TrimSuffix(parent, "/"), "/", "."))
		}
		if parents == nil {
			parents = ps
		} else if !slices.Equal(parents, ps) {
			same = false
		}
		each = append(each, f+" ("+replacementOf(key+"."+f, key)+")")
	}
	text := "DEPRECATED fields: "
	if same && len(parents) > 0 {
		text += strings.Join(fields, ", ") + ". The provider will remove them: use the same fields of " + strings.Join(parents, " and ")
	} else {
		text += strings.Join(each, "; ") + ". The provider will remove them"
	}
	return text + "; a baseline on them will then fail as absent."
}
