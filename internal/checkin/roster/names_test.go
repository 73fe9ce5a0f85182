package roster

import (
	"github.com/evdesk/evdesk/api"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestReadNamesCSV(t *testing.T) {
	in := "\ufeffE-mail,Last Name,First Name,Organization\n" +
		"Ana@Example.org, Costa ,Ana,Contoso\n" +
		"not-an-email,X,Y,Z\n" +
		"\n" +
		"bo@example.org,Li,Bo\x1b[31m,\n" +
		"cy@example.org," + strings.Repeat("L", 70) + ",Cy,\n"
	names, bad, err := ReadNamesCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := names["ana@example.org"]; got != (Name{First: "Ana", Last: "Costa", Company: "Contoso", Source: "import"}) {
		t.Fatalf("ana: %+v", got)
	}
	// A name with an escape sequence is left out, named, not kept with
	// its remnant ("Bo[31m").
	if got, ok := names["bo@example.org"]; ok {
		t.Fatalf("bo was kept: %+v", got)
	}
	if len([]rune(names["cy@example.org"].Last)) != maxNameRunes {
		t.Fatalf("cy's last name was not bounded")
	}
	if len(bad) != 3 || bad[0].Line != 3 || !strings.Contains(bad[0].Error(), "line 3: email") ||
		bad[1].Line != 5 || !strings.Contains(bad[1].Msg, "first name holds a control character") ||
		bad[2].Line != 6 || !strings.Contains(bad[2].Msg, "last name is 70 characters long; at most 64 are kept") {
		t.Fatalf("bad lines %v", bad)
	}
	// No header: email, first, last, company.
	names, bad, err = ReadNamesCSV(strings.NewReader("di@example.org,Di,Fox,Acme\n"))
	if err != nil || len(bad) != 0 || names["di@example.org"].Full() != "Di Fox" || names["di@example.org"].Company != "Acme" {
		t.Fatalf("%v %v %v", names, bad, err)
	}
	if _, _, err := ReadNamesCSV(strings.NewReader("a@b.c,\"Di\n")); err == nil || !strings.Contains(err.Error(), "not CSV") {
		t.Fatalf("broken CSV: %v", err)
	}
}

func TestNamesBookMergesAndFillsTheRoster(t *testing.T) {
	dir := t.TempDir()
	path := NamesPath(dir, "ev1")
	var wg sync.WaitGroup
	for i, e := range []string{"ana@example.org", "bo@example.org", "cy@example.org"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := AddNames(path, "ev1", map[string]Name{e: {First: string(rune('A' + i)), Company: "Co"}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	// A walk-in's form has no company: the imported one stays.
	book, err := AddNames(path, "ev1", map[string]Name{"ANA@example.org": {First: "Ana", Last: "Costa", Source: "walk-in"}})
	if err != nil {
		t.Fatal(err)
	}
	if book.Len() != 3 {
		t.Fatalf("concurrent adds lost names: %d", book.Len())
	}
	book, _ = LoadNames(path, "ev1")
	if nm, _ := book.Lookup("ana@example.org"); nm.Full() != "Ana Costa" || nm.Company != "Co" {
		t.Fatalf("ana: %+v", nm)
	}
	if _, err := LoadNames(path, "other"); err == nil || !strings.Contains(err.Error(), `belongs to event "ev1"`) {
		t.Fatalf("foreign book: %v", err)
	}
	ro := New("ev1", time.Now(), 2, []Person{{Email: "ana@example.org"}, {Email: "bo@example.org", Name: "Server Name"}})
	walkIn := Person{Email: "dee@example.org", Status: "REGISTERED", Tickets: []Ticket{{ID: "tk1"}}}
	got := ro.WithNames(book, []Person{walkIn, {Email: "ana@example.org"}})
	if p, _ := got.ByEmail("ana@example.org"); p.Name != "Ana Costa" || p.Company != "Co" {
		t.Fatalf("ana on the roster: %+v", p)
	}
	if p, _ := got.ByEmail("bo@example.org"); p.Name != "Server Name" {
		t.Fatalf("the server's name was replaced: %+v", p)
	}
	if p, _, ok := got.ByTicket("tk1"); !ok || p.Email != "dee@example.org" || got.Len() != 3 {
		t.Fatalf("the walk-in is not on the roster: %+v, %d", p, got.Len())
	}
	if ro.Len() != 2 {
		t.Fatal("WithNames changed the roster it was given")
	}
}

// Every ticket evdesk creates teaches the desks a name: the tickets made,
// not those refused, and not those without a name.
func TestLearnTickets(t *testing.T) {
	dir := t.TempDir()
	asked := []api.TicketRequest{{Email: "Ana@Example.org", FirstName: "Ana", LastName: "Costa", Organization: "Contoso"},
		{Email: "bo@example.org", FirstName: "Bo"}, {Email: "cy@example.org"}}
	res := &api.TicketsResult{Tickets: []api.Ticket{{Email: "ana@example.org"}, {Email: "cy@example.org"}},
		Errors: []api.TicketError{{Email: "bo@example.org", ErrorCode: api.TicketErrNoStock}}}
	if err := LearnTickets(dir, "ev1", asked, res); err != nil {
		t.Fatal(err)
	}
	book, _ := LoadNames(NamesPath(dir, "ev1"), "ev1")
	if nm, _ := book.Lookup("ana@example.org"); nm.Full() != "Ana Costa" || nm.Company != "Contoso" || nm.Source != "ticket" || book.Len() != 1 {
		t.Fatalf("%+v, %d names", nm, book.Len())
	}
}
