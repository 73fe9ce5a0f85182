package ui_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/internal/teax"
	"github.com/evdesk/evdesk/ui/uitest"
)

// list is a filterable list as the base sees it.
type list struct {
	filtering bool
	query     string
}

func (l *list) Filtering() bool    { return l.filtering }
func (l *list) FilterText() string { return l.query }

// baseRig is a screen base with one action on n, refresh, a list and a
// body that records what reached it.
type baseRig struct {
	b      ui.ScreenBase
	list   list
	ran    []string
	body   []tea.Msg
	cancel bool // an esc action is offered
}

func newBaseRig() *baseRig {
	r := &baseRig{}
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	r.b = ui.NewScreenBase(ctx, ui.ScreenConfig{
		Actions: func() ui.Actions {
			as := ui.Actions{{Key: ctx.Keys.New, Help: "new thing", Why: r.b.NotBusy, Run: func() tea.Cmd {
				r.ran = append(r.ran, "new")
				return nil
			}}}
			if r.cancel {
				as = append(as, ui.Action{Key: ctx.Keys.Back, Help: "clear", Run: func() tea.Cmd { return nil }})
			}
			return as
		},
		Refresh: func() tea.Cmd { r.ran = append(r.ran, "refresh"); return nil },
		List:    &r.list,
		Help:    []key.Binding{ctx.Keys.Filter},
		Nav:     []key.Binding{ctx.Keys.Up, ctx.Keys.Down},
		Body:    func(msg tea.Msg) tea.Cmd { r.body = append(r.body, msg); return nil },
	})
	return r
}

func TestScreenBaseDispatchesKeysToActionsAndTheRestToTheBody(t *testing.T) {
	r := newBaseRig()
	r.b.Update(uitest.Key("n"))
	r.b.Update(uitest.Key("r"))
	r.b.Update(uitest.Key("j"))
	if len(r.ran) != 2 || r.ran[0] != "new" || r.ran[1] != "refresh" || len(r.body) != 1 {
		t.Fatalf("ran %v, body %v", r.ran, r.body)
	}
	// While the filter is typed into, every key is the filter's.
	r.list.filtering = true
	r.b.Update(uitest.Key("n"))
	if len(r.ran) != 2 || len(r.body) != 2 {
		t.Fatalf("while filtering: ran %v, body %v", r.ran, r.body)
	}
	if !r.b.CapturingInput() || r.b.ShortHelp() != nil {
		t.Fatal("the filter has the keyboard, yet the base neither captures input nor leaves the help line to it")
	}
}

func TestScreenBaseDialogTakesKeysFirst(t *testing.T) {
	r := newBaseRig()
	asked := false
	r.b.Dialog.Ask(r.b.Ctx.Theme, "Sure?", false, func() tea.Cmd { asked = true; return nil })
	r.b.Update(uitest.Key("j"))
	if len(r.ran) != 0 || len(r.body) != 0 {
		t.Fatalf("a key reached the screen under an open dialog: ran %v, body %v", r.ran, r.body)
	}
	r.b.Update(uitest.Key("y"))
	if !asked || r.b.Dialog.Open() {
		t.Fatal("the dialog did not take its answer")
	}
}

func TestScreenBaseSaysWhyNotWhileBusy(t *testing.T) {
	r := newBaseRig()
	r.b.SetSize(60, 10)
	r.b.Do("saving", func() tea.Msg { return nil })
	cmd := r.b.Update(uitest.Key("n"))
	if msg, ok := cmd().(ui.ToastMsg); !ok || msg.Text != "Wait: saving is still in progress" {
		t.Fatalf("n while busy: %#v", cmd())
	}
	if got := r.b.Heading("Things", ui.LoadState{}); !strings.Contains(got, "saving...") {
		t.Fatalf("heading %q does not say what is under way", got)
	}
	r.b.Done()
	r.b.Update(uitest.Key("n"))
	if len(r.ran) != 1 {
		t.Fatalf("n once the work is done: ran %v", r.ran)
	}
}

func TestScreenBaseCloseCancelsStartedWorkOnly(t *testing.T) {
	r := newBaseRig()
	started := make(chan context.Context, 1)
	cmd := r.b.Start("counting", func(ctx context.Context) tea.Msg { started <- ctx; return nil })
	cmds, _ := teax.Sequence(cmd())
	go cmds[1]() // the work itself, after its start
	ctx := <-started
	r.b.Close()
	<-ctx.Done() // cancelled: leaving stops a count
}

func TestScreenBaseCapturesEscWhileItMeansSomething(t *testing.T) {
	r := newBaseRig()
	if r.b.CapturingBack() {
		t.Fatal("esc is captured with nothing to clear")
	}
	r.list.query = "kub"
	if !r.b.CapturingBack() {
		t.Fatal("esc does not clear an applied filter first")
	}
	r.list.query, r.cancel = "", true
	if !r.b.CapturingBack() {
		t.Fatal("esc is one of the actions, yet it would leave the screen")
	}
}

func TestScreenBaseHelpListsTheActionsThenRefresh(t *testing.T) {
	r := newBaseRig()
	var short []string
	for _, b := range r.b.ShortHelp() {
		short = append(short, b.Help().Key+" "+b.Help().Desc)
	}
	if want := []string{"n new thing", "r refresh", "/ filter"}; !slices.Equal(short, want) {
		t.Fatalf("short help %q, want %q", short, want)
	}
	if full := r.b.FullHelp(); len(full) != 2 || len(full[0]) != 2 || len(full[1]) != 2 {
		t.Fatalf("full help %v", full)
	}
}

// A screen with nothing to act on yet lists refresh alone in its one-line
// help; its actions still answer, and the ? panel lists them.
func TestScreenBaseWaitingListsRefreshAlone(t *testing.T) {
	r := newBaseRig()
	waiting := true
	r.b.Configure(ui.ScreenConfig{
		Actions: func() ui.Actions {
			return ui.Actions{{Key: r.b.Ctx.Keys.New, Help: "new thing", Run: func() tea.Cmd { r.ran = append(r.ran, "new"); return nil }}}
		},
		Refresh: func() tea.Cmd { return nil },
		Waiting: func() bool { return waiting },
	})
	if short := r.b.ShortHelp(); len(short) != 1 || short[0].Help().Desc != "refresh" {
		t.Fatalf("short help while waiting: %v", short)
	}
	if full := r.b.FullHelp(); len(full) != 1 || len(full[0]) != 2 {
		t.Fatalf("full help while waiting: %v", full)
	}
	r.b.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
	if !slices.Equal(r.ran, []string{"new"}) {
		t.Fatalf("the action did not answer while waiting: %v", r.ran)
	}
	waiting = false
	if short := r.b.ShortHelp(); len(short) != 2 {
		t.Fatalf("short help once ready: %v", short)
	}
}

// A typing screen (a desk a scanner types into) has every key and esc.
func TestScreenBaseTypingCapturesEverything(t *testing.T) {
	r := newBaseRig()
	r.b.Configure(ui.ScreenConfig{Typing: true})
	if !r.b.CapturingInput() || !r.b.CapturingBack() {
		t.Fatal("a typing screen lets the shell's keys act over its input")
	}
}

// A key that is both a screen's action and a list key (the phone screen's
// filter) is listed once in the help, among the screen's own.
func TestHelpListsAKeyOnce(t *testing.T) {
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Keys: ui.DefaultGlobalKeys()}
	b := ui.NewScreenBase(ctx, ui.ScreenConfig{
		Actions: func() ui.Actions {
			return ui.Actions{{Key: ctx.Keys.Filter, Run: func() tea.Cmd { return nil }}}
		},
		Nav: []key.Binding{ctx.Keys.Up, ctx.Keys.Filter, ctx.Keys.Down},
	})
	n := 0
	for _, col := range b.FullHelp() {
		for _, k := range col {
			if k.Help().Key == ctx.Keys.Filter.Help().Key {
				n++
			}
		}
	}
	if n != 1 {
		t.Fatalf("the filter key is listed %d times: %v", n, b.FullHelp())
	}
}
