package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/changelog"
)

// changelogOptions are `evdesk changelog`'s flags.
type changelogOptions struct {
	tags, areas, since string
	out                *outputFormat
	now                func() time.Time
}

func addChangelogCommand(root *cobra.Command, f *Factory) {
	o := changelogOptions{out: newOutput("table", "json"), now: time.Now}
	cmd := &cobra.Command{
		Use:   "changelog",
		Short: "The platform's change log: breaking changes, deprecations, releases",
		Long: "Print the provider's developer change log (the profile's changelog_url, or\n" +
			"EVDESK_CHANGELOG_URL): each entry's date, tags, areas and title, newest first.\n" +
			"Entries marked * touch an area evdesk uses (" + strings.Join(changelog.UsedAreas, ", ") + ").\n" +
			"A copy is kept in the cache dir: offline, the last copy is shown, and said so.\n\n" +
			"Tags: " + strings.Join(changelog.Tags, ", ") + ".",
		Example: "  evdesk changelog --tag breaking-change,deprecation --area phone\n" +
			"  evdesk changelog --since 2026-09-01 -o json | jq '.entries[].title'\n" +
			"  evdesk --demo changelog",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := o.filter()
			if err != nil {
				return err
			}
			if f.flags.demo { // the embedded simulator serves the feed
				return f.withSession(func(cmd *cobra.Command, _ []string, s *session) error {
					// Its port changes every run: its copy stays in the run's folder.
					return o.run(cmd, s.changelogURL, filter, changelog.Cache{Dir: filepath.Join(s.journalDir, "changelog")})
				})(cmd, nil)
			}
			p, err := config.LoadProfile(f.flags.profile)
			if err != nil {
				return err
			}
			if p.ChangelogURL == "" {
				return fmt.Errorf("profile %q has no %s: set it in %s or set %s (`evdesk sim` prints the simulator's)",
					p.Name, config.FieldChangelogURL, config.Path(), config.EnvChangelogURL)
			}
			ctx, cancel := withTimeout(cmd.Context(), f.flags.timeout)
			defer cancel()
			cmd.SetContext(ctx)
			return o.run(cmd, p.ChangelogURL, filter, changelog.DefaultCache())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.tags, "tag", "", "only entries with one of these `TAGS` (comma-separated)")
	fl.StringVar(&o.areas, "area", "", "only entries in one of these `AREAS` (comma-separated, e.g. events,phone)")
	fl.StringVar(&o.since, "since", "", "only entries dated on or after this `DAY` (2026-09-01)")
	fl.VarP(o.out, "output", "o", "output format: table or json")
	root.AddCommand(cmd)
}

func (o *changelogOptions) filter() (changelog.Filter, error) {
	var (
		fl  changelog.Filter
		err error
	)
	if fl.Tags, err = changelog.ParseTags(o.tags); err != nil {
		return fl, err
	}
	if fl.Areas, err = changelog.ParseAreas(o.areas); err != nil {
		return fl, err
	}
	fl.Since, err = changelog.ParseSince(o.since)
	return fl, err
}

// changelogJSON is -o json's document.
type changelogJSON struct {
	URL       string            `json:"url"`
	Title     string            `json:"title"`
	FetchedAt time.Time         `json:"fetched_at"`
	Offline   bool              `json:"offline"`
	Entries   []changelog.Entry `json:"entries"`
}

func (o *changelogOptions) run(cmd *cobra.Command, url string, filter changelog.Filter, cache changelog.Cache) error {
	res, err := changelog.Get(cmd.Context(), nil, cache, url, o.now())
	if err != nil {
		return err
	}
	if res.Offline != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "evdesk: offline (%v); showing the copy fetched %s\n",
			res.Offline, res.Feed.FetchedAt.Local().Format("2006-01-02 15:04"))
	}
	entries := filter.Apply(res.Feed.Entries)
	w := cmd.OutOrStdout()
	if o.out.value == "json" {
		if entries == nil {
			entries = []changelog.Entry{}
		}
		return writeJSON(w, changelogJSON{URL: res.Feed.URL, Title: res.Feed.Title, FetchedAt: res.Feed.FetchedAt,
			Offline: res.Offline != nil, Entries: entries})
	}
	if len(entries) == 0 {
		fmt.Fprintln(w, "No change log entries match.")
		return nil
	}
	rows := make([][]string, len(entries))
	for i, e := range entries {
		mark := ""
		if e.Uses {
			mark = "*"
		}
		rows[i] = []string{mark, e.DateText(), strings.Join(e.Tags, ","), strings.Join(e.Areas, ","), e.Title}
	}
	if err := o.out.writeRows(w, []string{"", "DATE", "TAGS", "AREAS", "TITLE"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n* touches an area evdesk uses (%s). -o json has each entry's text and link.\n",
		strings.Join(changelog.UsedAreas, ", "))
	return nil
}
