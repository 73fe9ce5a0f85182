package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/words"
)

// configOptions are the config commands': the file, the environment a
// profile is resolved in, and what each command was asked.
type configOptions struct {
	deps
	Path      string // the config file
	LookupEnv func(string) (string, bool)
	Name      string // the profile: show's ("" for the one in use), set-profile's, use's
	// Set applies set-profile's flags, only those given, to the profile's
	// entry; MakeDefault is its --default.
	Set         func(*config.ProfileEntry)
	MakeDefault bool
}

func newConfigOptions(f *Factory) *configOptions {
	return &configOptions{deps: f.deps(), LookupEnv: os.LookupEnv}
}

func newConfigCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show and edit profiles in the config file",
		Long: "Profiles live in " + "$XDG_CONFIG_HOME/evdesk/" + config.FileName + ". Every field can be overridden by\n" +
			"EVDESK_<FIELD> (EVDESK_BASE_URL, EVDESK_AUTH_URL, EVDESK_PATH_WORD, EVDESK_CLIENT_ID,\n" +
			"EVDESK_REDIRECT_URI, EVDESK_SCOPES). Secrets are never written to the file.",
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newConfigPathCmd(f, nil), newConfigShowCmd(f, nil), newConfigSetProfileCmd(f, nil), newConfigUseCmd(f, nil))
	return cmd
}

func newConfigPathCmd(f *Factory, runF runFunc[configOptions]) *cobra.Command {
	o := newConfigOptions(f)
	return &cobra.Command{
		Use:   "path",
		Short: "Print the config file's path",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Path = config.Path()
			return run(cmd, o, runF, func(_ context.Context, o *configOptions) error {
				_, err := fmt.Fprintln(o.IO.Out, o.Path)
				return err
			})
		},
	}
}

func newConfigShowCmd(f *Factory, runF runFunc[configOptions]) *cobra.Command {
	o := newConfigOptions(f)
	return &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show the active profile (or NAME) with where each value comes from; never shows secrets",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Path, o.Name = config.Path(), profileFlag(cmd)
			if len(args) == 1 {
				o.Name = args[0]
			}
			return run(cmd, o, runF, configShowRun)
		},
	}
}

func configShowRun(_ context.Context, o *configOptions) error {
	f, err := config.ReadFile(o.Path)
	if err != nil {
		return err
	}
	p, err := f.Resolve(o.Name, o.LookupEnv)
	if err != nil {
		return err
	}
	showProfile(o.IO.Out, f, p)
	return nil
}

// showProfile prints a resolved profile without secrets.
func showProfile(out io.Writer, f *config.File, p config.Profile) {
	if _, err := os.Stat(f.Path); err != nil {
		fmt.Fprintf(out, "config file:   %s (not present: the profile comes from the environment)\n", f.Path)
	} else {
		fmt.Fprintf(out, "config file:   %s\n", f.Path)
	}
	if names := f.ProfileNames(); len(names) > 0 {
		fmt.Fprintf(out, "profiles:      %s (default: %s)\n", strings.Join(names, ", "), words.OrDash(f.DefaultProfile))
	}
	fmt.Fprintf(out, "\n[profiles.%s]\n", p.Name)
	row := func(field, v string) {
		origin := p.Origin(field)
		if origin != "" {
			origin = "  # " + origin
		}
		fmt.Fprintf(out, "%-13s = %s%s\n", field, words.OrDash(v), origin)
	}
	row(config.FieldBaseURL, redactURLUserinfo(p.BaseURL))
	row(config.FieldAuthURL, redactURLUserinfo(p.AuthURL))
	row(config.FieldPathWord, p.PathWord)
	row(config.FieldClientID, p.ClientID)
	row(config.FieldRedirectURI, p.RedirectURI)
	row(config.FieldScopes, strings.Join(p.Scopes, " "))
	if p.TokenEnv != "" {
		row(config.FieldTokenEnv, p.TokenEnv)
	}
	if p.ClientSecret != "" {
		fmt.Fprintf(out, "%-13s   (set by %s; not shown)\n", "client secret", config.EnvClientSecret)
	} else {
		fmt.Fprintf(out, "%-13s   (kept in the keyring by `evdesk login`; never shown)\n", "client secret")
	}
	switch {
	case p.TokenEnv != "" && p.Token != "":
		fmt.Fprintf(out, "%-13s   (from %s, which overrides the login; not shown)\n", "token", p.TokenEnv)
	case p.TokenEnv != "":
		fmt.Fprintf(out, "%-13s   (%s is not set)\n", "token", p.TokenEnv)
	case p.Token != "":
		fmt.Fprintf(out, "%-13s   (%s is set and overrides the login; not shown)\n", "token", config.EnvToken)
	}
}

// redactURLUserinfo hides a password in a URL's user info.
func redactURLUserinfo(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	return u.Redacted()
}

func newConfigSetProfileCmd(f *Factory, runF runFunc[configOptions]) *cobra.Command {
	o := newConfigOptions(f)
	var (
		e      config.ProfileEntry
		scopes string
		mouse  bool
	)
	cmd := &cobra.Command{
		Use:   "set-profile NAME",
		Short: "Create or update a profile (only the given flags change)",
		Example: "  evdesk config set-profile work --base-url https://api.example.com/v2 \\\n" +
			"      --auth-url https://auth.example.com --client-id abc123",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Path, o.Name = config.Path(), args[0]
			fl := cmd.Flags()
			o.Set = func(cur *config.ProfileEntry) {
				set := func(flag string, dst *string, v string) {
					if fl.Changed(flag) {
						*dst = strings.TrimSpace(v)
					}
				}
				set("base-url", &cur.BaseURL, e.BaseURL)
				set("auth-url", &cur.AuthURL, strings.TrimRight(e.AuthURL, "/"))
				set("path-word", &cur.PathWord, e.PathWord)
				set("client-id", &cur.ClientID, e.ClientID)
				set("redirect-uri", &cur.RedirectURI, e.RedirectURI)
				set("token-env", &cur.TokenEnv, e.TokenEnv)
				if fl.Changed("scopes") {
					cur.Scopes = config.SplitScopes(scopes)
				}
				if fl.Changed("rate-limit") {
					cur.RateLimit = e.RateLimit
				}
				if fl.Changed("max-response-mb") {
					cur.MaxResponseMB = e.MaxResponseMB
				}
				if fl.Changed("max-listing-mb") {
					cur.MaxListingMB = e.MaxListingMB
				}
				if fl.Changed("max-listing-items") {
					cur.MaxListingItems = e.MaxListingItems
				}
				if fl.Changed("mouse") {
					cur.Mouse = nil // the default: the console takes the mouse
					if !mouse {
						off := false
						cur.Mouse = &off
					}
				}
			}
			return run(cmd, o, runF, configSetProfileRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&e.BaseURL, "base-url", "", "API base URL, e.g. https://api.example.com/v2")
	fl.StringVar(&e.AuthURL, "auth-url", "", "OAuth server root, e.g. https://auth.example.com")
	fl.StringVar(&e.PathWord, "path-word", "", "the word in /v2/<word>_events paths (default "+config.DefaultPathWord+")")
	fl.StringVar(&e.ClientID, "client-id", "", "OAuth client id of your registered application")
	fl.StringVar(&e.RedirectURI, "redirect-uri", "", "the redirect URI registered with the provider app: https://... (you paste the address the browser lands on), or a loopback one with a fixed port on which evdesk listens (default "+config.DefaultRedirectURI+")")
	fl.StringVar(&e.TokenEnv, "token-env", "", "`NAME` of the environment variable holding this profile's token (wins over "+config.EnvToken+"; empty to stop)")
	fl.StringVar(&scopes, "scopes", "", "scopes to request, separated by spaces or commas (empty: the application's)")
	fl.Float64Var(&e.RateLimit, "rate-limit", 0, fmt.Sprintf("most requests a second (0: the default, %v)", config.DefaultRateLimit))
	fl.IntVar(&e.MaxResponseMB, "max-response-mb", 0, "largest answer read, in MiB (0: the default)")
	fl.IntVar(&e.MaxListingMB, "max-listing-mb", 0, "most one listing reads across its pages, in MiB (0: the default)")
	fl.IntVar(&e.MaxListingItems, "max-listing-items", 0, "most items one listing holds (0: the default)")
	fl.BoolVar(&mouse, "mouse", true, "let the console take the mouse (--mouse=false leaves it to the terminal)")
	fl.BoolVar(&o.MakeDefault, "default", false, "make this the default profile")
	return cmd
}

func configSetProfileRun(_ context.Context, o *configOptions) error {
	name, out := o.Name, o.IO.Out
	f, err := config.ReadFile(o.Path)
	if err != nil {
		return err
	}
	cur, exists := f.Profiles[name]
	if !exists {
		cur = config.ProfileEntry{RedirectURI: config.DefaultRedirectURI}
	}
	o.Set(&cur)
	if err := f.SetProfile(name, cur); err != nil {
		var fe *config.FileError
		if errors.As(err, &fe) {
			return fmt.Errorf("profile %q not saved: %s: %s", name, fe.Key, fe.Msg)
		}
		return err
	}
	if o.MakeDefault {
		if err := f.Use(name); err != nil {
			return err
		}
	}
	if err := f.Save(); err != nil {
		return err
	}
	verb := "updated"
	if !exists {
		verb = "created"
	}
	fmt.Fprintf(out, "Profile %q %s in %s.\n", name, verb, o.Path)
	// Say which profile plain commands use, since adding one never
	// switches to it.
	if inUse := f.InUse("", o.LookupEnv); inUse == name {
		fmt.Fprintf(out, "Commands without --profile use %q.\n", name)
	} else {
		fmt.Fprintf(out, "Commands without --profile still use %q; `evdesk config use %s` switches, --profile %s picks it once.\n",
			inUse, name, name)
	}
	return nil
}

func newConfigUseCmd(f *Factory, runF runFunc[configOptions]) *cobra.Command {
	o := newConfigOptions(f)
	return &cobra.Command{
		Use:   "use NAME",
		Short: "Make NAME the default profile (`default` is the implicit one: the environment's)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Path, o.Name = config.Path(), args[0]
			return run(cmd, o, runF, configUseRun)
		},
	}
}

func configUseRun(_ context.Context, o *configOptions) error {
	f, err := config.ReadFile(o.Path)
	if err != nil {
		return err
	}
	if err := f.Use(o.Name); err != nil {
		return err
	}
	if err := f.Save(); err != nil {
		return err
	}
	fmt.Fprintf(o.IO.Out, "Default profile is now %q.\n", o.Name)
	if env, _ := o.LookupEnv(config.EnvProfile); strings.TrimSpace(env) != "" && strings.TrimSpace(env) != o.Name {
		fmt.Fprintf(o.IO.Out, "%s=%s still wins in this shell.\n", config.EnvProfile, strings.TrimSpace(env))
	}
	return nil
}
