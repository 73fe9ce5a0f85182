package config

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// worstShapes are TOML files at the edge of lim: as large as it allows, as
// many entries as it allows, each in the shape that costs the decoder the
// most (the longest keys, the deepest values).
func worstShapes(lim TOMLLimits) map[string]string {
	fill := func(head string, n int, line func(i int, pad string) string) string {
		// The padding that brings n lines to the size limit.
		pad := max(0, (lim.MaxBytes-len(head))/n-max(len(line(0, "")), len(line(n, ""))))
		var b strings.Builder
		b.WriteString(head)
		for i := range n {
			b.WriteString(line(i, strings.Repeat("p", pad)))
		}
		return b.String()
	}
	// The longest key of the most parts: maxKeyLen bytes.
	parts := func(i int) string {
		last := fmt.Sprintf(".k%d", i)
		part := strings.Repeat("p", (maxKeyLen-len(last)-2)/(maxKeyParts-1)-1)
		return "[" + strings.Repeat(part+".", maxKeyParts-2) + part + last
	}
	n := lim.MaxEntries
	keys := n / maxKeyParts // every dotted part counts
	return map[string]string{
		"dotted keys": fill("", keys, func(i int, pad string) string {
			return parts(i)[1:] + fmt.Sprintf(" = %q\n", pad)
		}),
		"table headers": fill("", keys/2, func(i int, pad string) string {
			return parts(i) + fmt.Sprintf("]\nk = %q\n", pad)
		}),
		"long array": "a = [" + strings.Repeat("1,", n-3) + "1]\ns = \"" +
			strings.Repeat("x", lim.MaxBytes-2*n-16) + "\"\n",
		"nested inline tables": fill("", n/(maxNesting+1), func(i int, pad string) string {
			return fmt.Sprintf("k%d = %s%q%s\n", i, strings.Repeat("{a = ", maxNesting), pad, strings.Repeat("}", maxNesting))
		}),
	}
}

// The limits every evdesk TOML file is read with.
var tomlKinds = map[string]TOMLLimits{"config": ConfigLimits}

// BenchmarkDecodeTOMLLargestAllowed decodes the costliest files the
// limits let through (target: under 100 ms and 20 MB each). Every kind of
// TOML file evdesk reads has limits at most ConfigLimits (their tests
// check), so these shapes bound them all. It also reports the process's
// CPU time per file (cpu-ms/op), which a busy machine inflates less than
// the wall time, and an anchor: encoding/json decoding a megabyte.
func BenchmarkDecodeTOMLLargestAllowed(b *testing.B) {
	for kind, lim := range tomlKinds {
		for shape, src := range worstShapes(lim) {
			b.Run(kind+"/"+strings.ReplaceAll(shape, " ", "_"), func(b *testing.B) {
				measure(b, len(src), func() error {
					var v map[string]toml.Primitive
					_, err := DecodeTOML("x.toml", []byte(src), lim, &v)
					return err
				})
			})
		}
	}
	doc := []byte(`{"a":"` + strings.Repeat("x", 1<<20) + `"}`)
	b.Run("anchor/json_1MiB", func(b *testing.B) {
		measure(b, len(doc), func() error {
			var v map[string]any
			return json.Unmarshal(doc, &v)
		})
	})
}

func measure(b *testing.B, size int, decode func() error) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	before := cpuTime()
	for b.Loop() {
		if err := decode(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU time the process has used (0 where unknown).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestTheLargestAllowedTOMLStaysSmall checks the memory half of the
// benchmark's target: every shape at the limits is accepted, and decoding
// it allocates less than 20 MB. (Its time is the benchmark's.)
func TestTheLargestAllowedTOMLStaysSmall(t *testing.T) {
	for kind, lim := range tomlKinds {
		for shape, src := range worstShapes(lim) {
			if len(src) > lim.MaxBytes {
				t.Fatalf("%s/%s: %d bytes, over the limit", kind, shape, len(src))
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var v map[string]toml.Primitive
			_, err := DecodeTOML("x.toml", []byte(src), lim, &v)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatalf("%s/%s: %.200v", kind, shape, err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 20<<20 {
				t.Errorf("%s/%s: %d KiB of TOML allocated %.1f MB", kind, shape, len(src)>>10, float64(grew)/(1<<20))
			}
		}
	}
}
