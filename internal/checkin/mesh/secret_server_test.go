package mesh

import (
	"strings"
	"testing"
)

// A venue file recorded for one server refuses a desk of another, with
// words; desks of different servers (or accounts) sharing one file get
// different links' credentials, cluster names and mDNS tags, so they never
// form one venue; desks of one server agree on all three.
func TestVenueIsBoundToItsServer(t *testing.T) {
	sec, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	sec.Server = "https://api.example.com:443/v2"
	if _, err := sec.ForServer("https://staging.example.com:443/v2", "b1"); err == nil ||
		!strings.Contains(err.Error(), "is for the desks of https://api.example.com:443/v2") ||
		!strings.Contains(err.Error(), "evdesk venue init") {
		t.Fatalf("another server's desk: %v", err)
	}
	if _, err := sec.ForServer("https://api.example.com:443/v2", ""); err == nil {
		t.Fatal("a desk of no known server joined")
	}
	one, err := sec.ForServer("https://api.example.com:443/v2", "aaaaaaaaaaaa")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := sec.ForServer("https://api.example.com:443/v2", "aaaaaaaaaaaa")
	if *one != *again {
		t.Fatal("two desks of one server disagree on the venue")
	}
	sec.Server = "" // a file made before servers were recorded
	other, err := sec.ForServer("https://staging.example.com:443/v2", "bbbbbbbbbbbb")
	if err != nil {
		t.Fatal(err)
	}
	if one.User == other.User || one.Password == other.Password || one.clusterName() == other.clusterName() ||
		venueTag(one) == venueTag(other) {
		t.Fatalf("desks of two servers can meet: %s/%s %s/%s", one.User, other.User, one.clusterName(), other.clusterName())
	}
	if one.Password == sec.Password || strings.Contains(one.Password, sec.Password) {
		t.Fatal("the bound password is the file's")
	}
	if _, err := one.TLS(); err != nil { // the certificate still names the venue
		t.Fatal(err)
	}
}
