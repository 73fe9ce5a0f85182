package main

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestScreenshotsRenderAndRepeat(t *testing.T) {
	t.Parallel()
	if _, err := newRasterizer(); err != nil {
		t.Skipf("the Go Mono font could not be loaded, so nothing can be drawn: %v", err)
	}
	dir := t.TempDir()
	names := []string{"events-list", "phone-settings", "phone-403"}
	if err := run(dir, names, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		b := img.Bounds()
		if b.Dx() < termWidth*5 || b.Dy() < termHeight*10 {
			t.Fatalf("%s: %v is too small for %dx%d cells", n, b, termWidth, termHeight)
		}
		colours := map[[4]uint32]bool{}
		for y := b.Min.Y; y < b.Max.Y; y += 3 {
			for x := b.Min.X; x < b.Max.X; x += 3 {
				r, g, bl, a := img.At(x, y).RGBA()
				colours[[4]uint32{r, g, bl, a}] = true
			}
		}
		if len(colours) < 8 {
			t.Errorf("%s: only %d colours: an empty or one-colour picture", n, len(colours))
		}
	}
	// The same screen again gives the same bytes.
	again := t.TempDir()
	if err := run(again, []string{"phone-403"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "phone-403.png"))
	b, _ := os.ReadFile(filepath.Join(again, "phone-403.png"))
	if !bytes.Equal(a, b) {
		t.Error("phone-403.png differs between two runs")
	}
}

func TestScreenTableIsSound(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range screens {
		if s.Name == "" || seen[s.Name] || len(s.Steps) == 0 || len(s.Steps[0].Wait) == 0 {
			t.Errorf("screen %+v: needs a unique name and a first step that waits", s)
		}
		seen[s.Name] = true
	}
	if _, err := pick([]string{"no-such-screen"}); err == nil {
		t.Error("an unknown screen name was accepted")
	}
}

// TestEveryScreenReachesItsLastStep walks every screen's steps (without
// drawing), so a key the console no longer binds fails here and not in
// the next person's `go run ./screenshots`. The screens run all at once:
// each mostly waits for its screen to settle, so -parallel's limit (the
// number of CPUs) would only queue them.
func TestEveryScreenReachesItsLastStep(t *testing.T) {
	t.Parallel()
	errs := make([]error, len(screens))
	var wg sync.WaitGroup
	for i, sc := range screens {
		wg.Go(func() { _, errs[i] = capture(sc) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", screens[i].Name, err)
		}
	}
}
