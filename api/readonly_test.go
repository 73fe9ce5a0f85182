package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestReadOnlyClientSendsNoWrite: reads go out; a write is refused with the
// reason before anything reaches the server.
func TestReadOnlyClientSendsNoWrite(t *testing.T) {
	var writes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			writes.Add(1)
		}
		_, _ = w.Write([]byte(`{"event_id":"e1","name":"Launch"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("t"), WithReadOnly("--read-only"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Events.Get(context.Background(), "e1"); err != nil {
		t.Fatalf("a read: %v", err)
	}
	_, err = c.Events.Publish(context.Background(), "e1")
	var ro *ReadOnlyError
	if !errors.As(err, &ro) || err.Error() != "publish event: not sent: this session is read-only (--read-only)" {
		t.Fatalf("publish: %v", err)
	}
	if err := c.Events.Delete(context.Background(), "e1"); !errors.As(err, &ro) {
		t.Fatalf("delete: %v", err)
	}
	if n := writes.Load(); n != 0 {
		t.Fatalf("%d writes reached the server", n)
	}
}
