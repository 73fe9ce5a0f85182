package sim

import "testing"

// BenchmarkLargeEventRegistrants builds the large conference's 20,000
// registrants in a fresh simulator, as every desk test's simulator does.
//
//	go test ./api/sim -run '^$' -bench LargeEventRegistrants -benchmem
func BenchmarkLargeEventRegistrants(b *testing.B) {
	for b.Loop() {
		s := New(Options{NoRateLimit: true})
		if n := len(s.RegistrantEmails(s.Fixtures().LargeConferenceEventID)); n != LargeConferenceRegistrants {
			b.Fatalf("%d registrants", n)
		}
		s.Close()
	}
}
