package scanqueue

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseEmailListReportsBadLinesByNumber(t *testing.T) {
	in := ParseEmailList([]byte("\xef\xbb\xbfa@example.org\r\n\n# note\nnot-mail\n  B@Example.org \nx@y\n"))
	if fmt.Sprint(in.Emails, in.Lines) != "[a@example.org B@Example.org] [1 5]" {
		t.Fatalf("lines: %v %v", in.Emails, in.Lines)
	}
	if len(in.Bad) != 2 || in.Bad[0].Line != 4 || in.Bad[1].Line != 6 || !strings.Contains(in.Bad[1].Reason, "needs a dot") {
		t.Fatalf("bad: %+v", in.Bad)
	}

	csvIn := ParseEmailList([]byte("Name;E-mail;Role\n\"Silva; Ana\";ana@example.org;x\nBob\n;;\nCy;cy@\n"))
	if fmt.Sprint(csvIn.Emails, csvIn.Lines) != "[ana@example.org] [2]" {
		t.Fatalf("csv: %v %v", csvIn.Emails, csvIn.Lines)
	}
	if len(csvIn.Bad) != 2 || csvIn.Bad[0].Line != 3 || csvIn.Bad[1].Line != 5 {
		t.Fatalf("csv bad: %+v", csvIn.Bad)
	}
}

func TestParseEmailListOfNothing(t *testing.T) {
	for _, data := range []string{"", "\n\n", "# only a comment\n"} {
		if in := ParseEmailList([]byte(data)); len(in.Emails)+len(in.Bad) != 0 {
			t.Errorf("%q: %+v", data, in)
		}
	}
}
