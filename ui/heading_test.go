package ui

import (
	"errors"
	"testing"

	"github.com/evdesk/evdesk/ui/internal/golden"
)

func TestHeadingSaysWhatTheScreenIsDoing(t *testing.T) {
	th := NewTheme(true, true)
	for _, tc := range []struct {
		st   LoadState
		want string
	}{
		{LoadState{Busy: "adding", Loading: true}, "Links  adding..."},
		{LoadState{Loading: true, Summary: "2 links"}, "Links  loading..."},
		{LoadState{Err: errors.New("down"), Summary: "2 links"}, "Links  2 links  ERROR: reload failed, r to retry"},
		{LoadState{Err: errors.New("down")}, "Links  ERROR: load failed, r to retry"},
		{LoadState{Summary: "2 links"}, "Links  2 links"},
		{LoadState{}, "Links"},
	} {
		if got := golden.Plain(Heading(th, "Links", tc.st)); got != tc.want+"\n" {
			t.Errorf("%+v: got %q, want %q", tc.st, got, tc.want)
		}
	}
}
