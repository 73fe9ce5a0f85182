package config

import (
	"fmt"
	"net/url"
)

// CheckChangelogURL says what is wrong with the profile's changelog_url,
// naming where it came from, or nil (also when none is set). Like the
// servers', the feed is read over https, plain http only to this machine
// or with allow_insecure_http: a feed on the way could be rewritten.
func (p Profile) CheckChangelogURL() error {
	if p.ChangelogURL == "" {
		return nil
	}
	if msg := serverURLProblem(p.ChangelogURL, exampleChangelogURL); msg != "" {
		return fmt.Errorf("%s=%s", p.label(FieldChangelogURL), msg)
	}
	if insecureURL(p.ChangelogURL) && !p.AllowInsecureHTTP {
		u, _ := url.Parse(p.ChangelogURL)
		return fmt.Errorf("%s=%q uses plain http to %s: evdesk reads the change log over https only (plain http only to this machine); use https://%s%s, or set %s = true in the profile to accept the risk",
			p.label(FieldChangelogURL), Redact(p.ChangelogURL), u.Host, u.Host, u.EscapedPath(), FieldAllowInsecureHTTP)
	}
	return nil
}
