package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Shell completion that knows the data: event ids with their names, access
// links, email types, sessions, ticket types and profiles, asked of the API
// with a short timeout, and answered from the cache (the last answer, kept
// per profile) when the API cannot answer in time. A completion never
// hangs a shell and never prints what a terminal could act on.

// completeTimeout bounds one completion's requests: a shell waits on it
// (Factory.CompleteTimeout, which tests shorten).
const completeTimeout = 2 * time.Second

// maxCompletions bounds one answer (and the cache file).
const maxCompletions = 500

// completion is one offered value and its description.
type completion struct {
	Value string `json:"value"`
	Desc  string `json:"desc,omitempty"`
}

// completionCache is one answer as kept on disk.
type completionCache struct {
	Fetched time.Time    `json:"fetched"`
	Items   []completion `json:"items"`
}

// safeValue is what a completed value may hold: ids are made of these; a
// value with anything else is not offered (a shell would run it).
var safeValue = regexp.MustCompile(`^[A-Za-z0-9._:@-]{1,128}$`)

// completeData answers a completion of kind (for event, "" when none) by
// fetch, else from the cache.
func (f *Factory) completeData(cmd *cobra.Command, kind, event, prefix string,
	fetch func(ctx context.Context, c *api.Client) ([]completion, error)) ([]cobra.Completion, cobra.ShellCompDirective) {
	path := f.completionPath(kind, event)
	ctx, cancel := context.WithTimeout(cmd.Context(), f.CompleteTimeout)
	defer cancel()
	items, err := func() ([]completion, error) {
		s, err := f.OpenSession(ctx, f.flags, forCLI)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		return fetch(ctx, s.client)
	}()
	if err == nil {
		items = cleanCompletions(items)
		if !f.flags.demo { // the demo's ids are new on every run
			b, _ := json.Marshal(completionCache{Fetched: f.Now(), Items: items})
			if os.MkdirAll(filepath.Dir(path), 0o700) == nil {
				_ = atomicfile.WriteFile(path, b, 0o600)
			}
		}
	} else if cached, cerr := readCompletionCache(path); cerr == nil {
		items = cached.Items
		cobra.CompDebugln("evdesk: offline ("+sanitize.Line(err.Error())+"); answering from the cache of "+cached.Fetched.Format(time.RFC3339), true)
	}
	var out []cobra.Completion
	for _, it := range items {
		if strings.HasPrefix(it.Value, prefix) {
			out = append(out, cobra.CompletionWithDesc(it.Value, it.Desc))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// cleanCompletions keeps safe values, descriptions on one line without the
// tab that separates them, at most maxCompletions.
func cleanCompletions(items []completion) []completion {
	var out []completion
	for _, it := range items {
		if !safeValue.MatchString(it.Value) {
			continue
		}
		it.Desc = strings.ReplaceAll(sanitize.Line(it.Desc), "\t", " ")
		if r := []rune(it.Desc); len(r) > 80 {
			it.Desc = string(r[:79]) + "…"
		}
		out = append(out, it)
		if len(out) == maxCompletions {
			break
		}
	}
	return out
}

// maxCompletionCache bounds the cache file read back.
const maxCompletionCache = 256 << 10

func readCompletionCache(path string) (completionCache, error) {
	var c completionCache
	b, err := config.ReadCapped(path, maxCompletionCache)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, err
	}
	c.Items = cleanCompletions(c.Items) // the file is ours, but a file is outside input
	return c, nil
}

// completionPath is the cache file of one kind of answer for the profile
// in use (and the event, for an event's links, types and sessions).
func (f *Factory) completionPath(kind, event string) string {
	profile := f.flags.profile
	if profile == "" {
		profile = f.Getenv(config.EnvProfile)
	}
	sum := sha256.Sum256([]byte(profile + "\x00" + f.Getenv(config.EnvBaseURL) + "\x00" + event))
	return filepath.Join(config.CacheDir(), "completion", kind+"-"+hex.EncodeToString(sum[:8])+".json")
}

// completeEvents offers the events the user hosts: upcoming, drafts and
// past, each listing's first page.
func (f *Factory) completeEvents(cmd *cobra.Command, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return f.completeData(cmd, "events", "", prefix, func(ctx context.Context, c *api.Client) ([]completion, error) {
		var out []completion
		for _, k := range []string{api.ListUpcoming, api.ListDraft, api.ListPast} {
			page, err := c.Events.ListPage(ctx, api.ListEventsOptions{RoleType: "host", StatusType: k, PageSize: 300}, "")
			if err != nil {
				return nil, err
			}
			for _, e := range page.Events {
				out = append(out, completion{e.EventID, e.Name + " (" + k + ")"})
			}
		}
		return out, nil
	})
}

// completeArgs completes a command's positional arguments by the names its
// usage line gives them: EVENT_ID, LINK_ID, EMAIL_TYPE.
func (f *Factory) completeArgs(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
	names := argNames(cmd)
	if len(args) >= len(names) {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	switch names[len(args)] {
	case "EVENT_ID":
		return f.completeEvents(cmd, prefix)
	case "LINK_ID":
		return f.completeData(cmd, "links", args[0], prefix, func(ctx context.Context, c *api.Client) ([]completion, error) {
			links, err := c.AccessLinks.List(ctx, args[0])
			var out []completion
			for _, l := range links {
				out = append(out, completion{l.AccessLinkID, l.Name + " (" + l.Type + ")"})
			}
			return out, err
		})
	case "EMAIL_TYPE":
		return f.completeData(cmd, "email-types", args[0], prefix, func(ctx context.Context, c *api.Client) ([]completion, error) {
			page, err := c.Emails.TypesPage(ctx, args[0], api.ListEmailTypesOptions{PageSize: 300}, "")
			if err != nil {
				return nil, err
			}
			var out []completion
			for _, et := range page.EmailTypes {
				out = append(out, completion{et.EmailTypeID, et.Name})
			}
			return out, nil
		})
	}
	return nil, cobra.ShellCompDirectiveDefault // FILE and the like
}

// argNames are the upper-case argument names of cmd's usage line.
func argNames(cmd *cobra.Command) []string {
	var names []string
	for _, w := range strings.Fields(cmd.Use)[1:] {
		w = strings.Trim(w, "[]")
		if strings.HasPrefix(w, "-") {
			break
		}
		if w != "" && w == strings.ToUpper(w) && strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_|-") == "" {
			names = append(names, w)
		}
	}
	return names
}

// completeWithData gives every command of the tree that takes an EVENT_ID
// (and what follows it) completion from the data, and --profile the
// profiles of the config file.
func (f *Factory) completeWithData(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.ValidArgsFunction == nil && len(argNames(c)) > 0 && argNames(c)[0] == "EVENT_ID" {
			c.ValidArgsFunction = f.completeArgs
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	_ = root.RegisterFlagCompletionFunc("profile", f.completeProfiles)
}

// completeProfiles offers the config file's profiles (no network).
func (f *Factory) completeProfiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	file, err := config.ReadFile(config.Path())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, n := range file.ProfileNames() {
		desc := ""
		if n == file.DefaultProfile {
			desc = "the default"
		}
		out = append(out, cobra.CompletionWithDesc(n, desc))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// registerEventSessionCompletions completes --session with the sessions of
// the event given as the first argument.
func registerEventSessionCompletions(f *Factory, cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("session", func(c *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return f.completeData(c, "sessions", args[0], prefix, func(ctx context.Context, cl *api.Client) ([]completion, error) {
			sessions, err := cl.Attendees.Sessions(ctx, args[0])
			var out []completion
			for _, s := range sessions {
				out = append(out, completion{s.SessionID, s.Name})
			}
			return out, err
		})
	})
}

// registerTicketTypeCompletions completes --ticket-type with the event's
// ticket types (ids, named).
func registerTicketTypeCompletions(f *Factory, cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("ticket-type", func(c *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return f.completeData(c, "ticket-types", args[0], prefix, func(ctx context.Context, cl *api.Client) ([]completion, error) {
			types, err := cl.Registration.TicketTypes(ctx, args[0])
			var out []completion
			for _, t := range types {
				out = append(out, completion{t.TicketTypeID, t.Name})
			}
			return out, err
		})
	})
}

// registerLinkCompletions completes a link command's --ticket-type.
func registerLinkCompletions(f *Factory, cmd *cobra.Command) { registerTicketTypeCompletions(f, cmd) }

// enumCompletions offers an enum's values with their labels.
func enumCompletions(values []api.Enum) cobra.CompletionFunc {
	out := make([]cobra.Completion, len(values))
	for i, e := range values {
		out[i] = cobra.CompletionWithDesc(e.Value, e.Label)
	}
	return cobra.FixedCompletions(out, cobra.ShellCompDirectiveNoFileComp)
}
