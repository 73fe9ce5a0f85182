package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestAConfigFileOverOneMiBIsRefusedBeforeParsing(t *testing.T) {
	// Valid TOML, so only the size can refuse it.
	big := "[profiles.a]\nclient_id = \"" + strings.Repeat("x", 2<<20) + "\"\n"
	paths := []string{writeConfig(t, big)}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths = append(paths, "/dev/zero") // endless, with a size of 0: only the bounded read stops it
	}
	for _, path := range paths {
		_, err := ReadFile(path)
		var fe *FileError
		if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), "over 1 MiB") {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := Parse("x.toml", []byte(big)); err == nil || !strings.Contains(err.Error(), "over 1 MiB") {
		t.Errorf("Parse: %v", err)
	}
}

func TestShapesThatExplodeTheDecoderAreRefused(t *testing.T) {
	under := func(s string) string { return s[:min(len(s), MaxFileSize)] }
	for _, tc := range []struct{ name, src, want string }{
		{"nested arrays", under("[profiles.a]\nscopes = " + strings.Repeat("[", 5_000_000)), "nested more than 8 deep"},
		{"nested inline tables", "a = " + strings.Repeat("{b=", 100_000), "nested more than 8 deep"},
		{"arrays in an inline table", "a = {b = [[{c = " + strings.Repeat("[", 20), "nested more than 8 deep"},
		{"long dotted key", strings.Repeat("a.", 10_000) + "a = 1", "more than 6 dotted parts"},
		{"long table header", "[" + strings.Repeat("a.", 10_000) + "a]", "more than 6 dotted parts"},
		{"long key in an inline table", "a = {b = 1, " + strings.Repeat("c.", 40) + "c = 2}", "more than 6 dotted parts"},
		{"many keys", strings.Repeat("k = 1\n", 2001), "more than 2000 keys and values"},
		{"many table headers", strings.Repeat("[t]\n", 2001), "more than 2000 keys and values"},
		{"a long array", "[profiles.a]\nscopes = [" + strings.Repeat("1,", 2000) + "1]", "more than 2000 keys and values"},
		{"a long inline table", "a = {" + strings.Repeat("b = 1, ", 2000) + "c = 1}", "more than 2000 keys and values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.src)
			_, err := ReadFile(path)
			var fe *FileError
			if !errors.As(err, &fe) || fe.Line < 1 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%.200v", err)
			}
		})
	}
}

func TestBracketsAndDotsInStringsAndCommentsDoNotCount(t *testing.T) {
	deep := strings.Repeat("[{.", 40)
	src := "# " + deep + "\n" +
		"default_profile = \"a\"\n" +
		"profiles.b.base_url = \"http://y/v2\"\n" +
		"[profiles.a] # " + deep + "\n" +
		"client_id = \"" + deep + "\\\"" + deep + "\"\n" +
		"path_word = '" + deep + "'\n" +
		"scopes = [\n  \"a:read\", # " + deep + "\n  '''x" + deep + "\n" + deep + "''',\n]\n"
	// A scope holds characters its own check refuses: the message tells
	// that the decoder read the whole file and the field check spoke.
	_, err := Parse("x.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "x.toml:7: profiles.a.scopes") {
		t.Fatalf("%v", err)
	}
	src = strings.Replace(src, "'''x"+deep+"\n"+deep+"'''", "'''b:write'''", 1)
	f, err := Parse("x.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if a := f.Profiles["a"]; a.ClientID != deep+`"`+deep || a.PathWord != deep || len(a.Scopes) != 2 {
		t.Fatalf("%+v", a)
	}
	if err := checkShape("x.toml", []byte("[profiles.\""+deep+"\"]\n"), ConfigLimits.MaxEntries); err != nil {
		t.Fatal(err)
	}
}

func TestADecoderPanicIsAnError(t *testing.T) {
	defer func(d func(string, any) (toml.MetaData, error)) { tomlDecode = d }(tomlDecode)
	tomlDecode = func(string, any) (toml.MetaData, error) { panic("boom") }
	_, err := Parse("x.toml", []byte("a = 1\n"))
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "x.toml") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("%v", err)
	}
}
