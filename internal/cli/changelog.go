package cli

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/changelog"
)

// changelogOptions are `evdesk changelog`'s.
type changelogOptions struct {
	deps
	Export *exporter
	Filter changelog.Filter
	// Feed finds the change log: its URL, where its copy is kept, and
	// what to close after (the demo's simulator).
	Feed func(context.Context) (changelogFeed, error)
}

// changelogFeed is where a command reads the change log.
type changelogFeed struct {
	URL    string
	Client *http.Client
	Cache  changelog.Cache
	Close  func()
}

// newChangelogCmd is `evdesk changelog`.
func newChangelogCmd(f *Factory, runF runFunc[changelogOptions]) *cobra.Command {
	o := &changelogOptions{deps: f.deps()}
	o.Feed = func(ctx context.Context) (changelogFeed, error) { return f.changelogFeed(ctx, o.deps) }
	var tags, areas, since string
	cmd := &cobra.Command{
		Use:   "changelog",
		Short: "The platform's change log: breaking changes, deprecations, releases",
		Long: "Print the provider's developer change log (the profile's changelog_url, or\n" +
			"EVDESK_CHANGELOG_URL): each entry's date, tags, areas and title, newest first.\n" +
			"Entries marked * touch an area evdesk uses (" + strings.Join(changelog.UsedAreas, ", ") + ").\n" +
			"A copy is kept in the cache dir: offline, the last copy is shown, and said so.\n\n" +
			"Tags: " + strings.Join(changelog.Tags, ", ") + ".",
		Example: "  evdesk changelog --tag breaking-change,deprecation --area phone\n" +
			"  evdesk changelog --since 2026-09-01 --jq '.entries[].title'\n" +
			"  evdesk --demo changelog",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.Filter.Tags, err = changelog.ParseTags(tags); err != nil {
				return flagErrorf("%v", err)
			}
			if o.Filter.Areas, err = changelog.ParseAreas(areas); err != nil {
				return flagErrorf("%v", err)
			}
			if o.Filter.Since, err = changelog.ParseSince(since); err != nil {
				return flagErrorf("%v", err)
			}
			return run(cmd, o, runF, changelogRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&tags, "tag", "", "only entries with one of these `TAGS` (comma-separated)")
	fl.StringVar(&areas, "area", "", "only entries in one of these `AREAS` (comma-separated, e.g. events,phone)")
	fl.StringVar(&since, "since", "", "only entries dated on or after this `DAY` (2026-09-01)")
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	return cmd
}

// changelogFeed is the profile's change log, or with --demo the embedded
// simulator's (its copy kept in the run's folder: its port changes).
func (f *Factory) changelogFeed(ctx context.Context, d deps) (changelogFeed, error) {
	if f.flags.demo {
		s, err := d.Session(ctx)
		if err != nil {
			return changelogFeed{}, err
		}
		return changelogFeed{URL: s.changelogURL, Client: s.feedClient,
			Cache: changelog.Cache{Dir: filepath.Join(s.journalDir, "changelog")}, Close: s.Close}, nil
	}
	p, err := f.Profile(f.flags.profile)
	if err != nil {
		return changelogFeed{}, err
	}
	if p.ChangelogURL == "" {
		return changelogFeed{}, fmt.Errorf("profile %q has no %s: set it in %s or set %s (`evdesk sim` prints the simulator's)",
			p.Name, config.FieldChangelogURL, config.Path(), config.EnvChangelogURL)
	}
	if err := p.CheckChangelogURL(); err != nil {
		return changelogFeed{}, err
	}
	tlsConf, err := p.TLSConfig()
	if err != nil {
		return changelogFeed{}, err
	}
	return changelogFeed{URL: p.ChangelogURL, Client: changelogClient(tlsConf), Cache: changelog.DefaultCache(),
		Close: func() {}}, nil
}

// changelogJSON is -o json's document.
type changelogJSON struct {
	URL       string            `json:"url"`
	Title     string            `json:"title"`
	FetchedAt time.Time         `json:"fetched_at"`
	Offline   bool              `json:"offline"`
	Entries   []changelog.Entry `json:"entries"`
}

func changelogRun(ctx context.Context, o *changelogOptions) error {
	feed, err := o.Feed(ctx)
	if err != nil {
		return err
	}
	defer feed.Close()
	res, err := changelog.Get(ctx, feed.Client, feed.Cache, feed.URL, o.Now())
	if err != nil {
		return err
	}
	if res.Offline != nil {
		fmt.Fprintf(o.IO.ErrOut, "evdesk: offline (%v); showing the copy fetched %s\n",
			res.Offline, res.Feed.FetchedAt.Local().Format("2006-01-02 15:04"))
	}
	entries := o.Filter.Apply(res.Feed.Entries)
	if entries == nil {
		entries = []changelog.Entry{}
	}
	doc := changelogJSON{URL: res.Feed.URL, Title: res.Feed.Title, FetchedAt: res.Feed.FetchedAt,
		Offline: res.Offline != nil, Entries: entries}
	if err := o.Export.Write(o.IO.Out, doc, func(csv bool) rows { return changelogRows(entries, csv) }); err != nil {
		return err
	}
	if o.Export.Is(formatTable) {
		if len(entries) == 0 {
			fmt.Fprintln(o.IO.Out, "No change log entries match.")
			return nil
		}
		fmt.Fprintf(o.IO.Out, "\n* touches an area evdesk uses (%s). -o json has each entry's text and link.\n",
			strings.Join(changelog.UsedAreas, ", "))
	}
	return nil
}

// changelogRows are the entries as a table (* for evdesk's areas) or CSV.
func changelogRows(entries []changelog.Entry, csv bool) rows {
	r := rows{header: []string{"USED", "DATE", "TAGS", "AREAS", "TITLE"}}
	if csv {
		r.header = append(r.header, "LINK")
	}
	for _, e := range entries {
		used := ""
		if e.Uses {
			used = "*"
		}
		row := []string{used, e.DateText(), strings.Join(e.Tags, ","), strings.Join(e.Areas, ","), e.Title}
		if csv {
			row[0] = strconv.FormatBool(e.Uses)
			row = append(row, e.Link)
		}
		r.cells = append(r.cells, row)
	}
	return r
}
