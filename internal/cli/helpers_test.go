package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// execute runs an evdesk command line in-process: the root command built
// by a factory on in-memory streams, as main builds it on the real ones.
// It returns what the command wrote and its error (before main turns it
// into an exit status).
func execute(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ios, _, out, errOut := TestStreams()
	return executeOn(t, NewFactory(ios), out, errOut, args...)
}

// executeOn is execute on a factory of the test's making.
func executeOn(t *testing.T, f *Factory, out, errOut *bytes.Buffer, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = f.Execute(ctx, args)
	if ferr := f.IOStreams.Flush(); ferr != nil {
		t.Fatal(ferr)
	}
	return out.String(), errOut.String(), err
}

// demo is a command line run against the embedded simulator.
func demo(args ...string) []string { return append([]string{"--demo"}, args...) }

// isolateXDG gives the test config, state and cache directories of its own
// and clears the variables that would choose a profile or a server.
func isolateXDG(t *testing.T) string {
	dir := t.TempDir()
	for _, v := range []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(dir, strings.ToLower(v)))
	}
	for _, v := range []string{"EVDESK_PROFILE", "EVDESK_BASE_URL", "EVDESK_TOKEN"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	return dir
}
