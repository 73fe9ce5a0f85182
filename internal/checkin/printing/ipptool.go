package printing

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// IPPTool prints straight to an IPP printer's own address (an IPP
// Everywhere printer, ipp://host/ipp/print) with CUPS's ipptool, which
// sends IPP requests written as test files: Print-Job, Get-Job-Attributes,
// Get-Printer-Attributes and Cancel-Job.
type IPPTool struct {
	// URI is the printer's address.
	URI string
	// Run runs ipptool (default Exec).
	Run Runner
}

// ErrNoIPPTool: ipptool is missing.
var ErrNoIPPTool = errors.New("printing straight to an IPP printer needs ipptool (Debian: apt install cups-ipp-utils; macOS has it); " +
	"or add a CUPS queue for the printer (lpadmin -p Badges -E -v URI -m everywhere) and set badge_printer = \"Badges\"")

// HaveIPPTool reports whether ipptool is on the PATH.
func HaveIPPTool() error {
	if _, err := exec.LookPath("ipptool"); err != nil {
		return ErrNoIPPTool
	}
	return nil
}

// The requests, as ipptool's test files. $uri, $user and the -d values
// are ipptool's variables.
const (
	printJobTest = `{
	NAME "Print a badge"
	OPERATION Print-Job
	GROUP operation-attributes-tag
	ATTR charset attributes-charset utf-8
	ATTR naturalLanguage attributes-natural-language en
	ATTR uri printer-uri $uri
	ATTR name requesting-user-name $user
	ATTR name job-name $job
	ATTR mimeMediaType document-format application/pdf
	FILE $filename
	STATUS successful-ok
	EXPECT job-id OF-TYPE integer
	DISPLAY job-id
}
`
	jobStateTest = `{
	NAME "The badge's job"
	OPERATION Get-Job-Attributes
	GROUP operation-attributes-tag
	ATTR charset attributes-charset utf-8
	ATTR naturalLanguage attributes-natural-language en
	ATTR uri printer-uri $uri
	ATTR integer job-id $jobid
	ATTR name requesting-user-name $user
	ATTR keyword requested-attributes job-state,job-state-reasons,job-printer-state-message
	STATUS successful-ok
	DISPLAY job-state
	DISPLAY job-state-reasons
	DISPLAY job-printer-state-message
}
`
	printerStateTest = `{
	NAME "The printer"
	OPERATION Get-Printer-Attributes
	GROUP operation-attributes-tag
	ATTR charset attributes-charset utf-8
	ATTR naturalLanguage attributes-natural-language en
	ATTR uri printer-uri $uri
	ATTR name requesting-user-name $user
	ATTR keyword requested-attributes printer-state,printer-state-message,printer-state-reasons
	STATUS successful-ok
	DISPLAY printer-state
	DISPLAY printer-state-message
	DISPLAY printer-state-reasons
}
`
	cancelJobTest = `{
	NAME "Withdraw the badge"
	OPERATION Cancel-Job
	GROUP operation-attributes-tag
	ATTR charset attributes-charset utf-8
	ATTR naturalLanguage attributes-natural-language en
	ATTR uri printer-uri $uri
	ATTR integer job-id $jobid
	ATTR name requesting-user-name $user
	STATUS successful-ok
}
`
)

// ipptool runs one request and returns the values it displays (ipptool's
// CSV: a header row, then a row of values).
func (p *IPPTool) ipptool(ctx context.Context, test string, file string, vars ...string) (map[string]string, error) {
	dir, err := os.MkdirTemp("", "evdesk-ipp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	testPath := filepath.Join(dir, "request.test")
	if err := os.WriteFile(testPath, []byte(test), 0o600); err != nil {
		return nil, err
	}
	args := []string{"-c"}
	for i := 0; i+1 < len(vars); i += 2 {
		args = append(args, "-d", vars[i]+"="+vars[i+1])
	}
	if file != "" {
		args = append(args, "-f", file)
	}
	// ipptool takes no "--": the address starts with ipp (ParseTarget),
	// so it is never read as an option.
	if !strings.HasPrefix(p.URI, "ipp") {
		return nil, fmt.Errorf("printer %q: not an ipp:// or ipps:// address", said([]byte(p.URI)))
	}
	args = append(args, p.URI, testPath)
	run := p.Run
	if run == nil {
		run = Exec
	}
	out, errb, err := run(ctx, nil, "ipptool", args...)
	if err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			return nil, ErrNoIPPTool
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("ipptool did not finish: %w", ctx.Err())
		}
		msg := said(append(errb, out...))
		msg = strings.TrimPrefix(msg, "ipptool: ")
		if strings.Contains(msg, "Unable to connect") {
			return nil, fmt.Errorf("printer %s does not answer (is it on?)", p.URI)
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	rows, err := csv.NewReader(strings.NewReader(string(out))).ReadAll()
	if err != nil || len(rows) < 2 {
		return map[string]string{}, nil
	}
	vals := map[string]string{}
	for i, k := range rows[0] {
		if i < len(rows[1]) {
			vals[k] = rows[1][i]
		}
	}
	return vals, nil
}

// Submit sends the PDF with Print-Job and returns the printer's job id.
func (p *IPPTool) Submit(ctx context.Context, pdf []byte, title string) (string, error) {
	f, err := os.CreateTemp("", "evdesk-badge-*.pdf")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(pdf); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	vals, err := p.ipptool(ctx, printJobTest, f.Name(), "job", safeTitle(title))
	if err != nil {
		return "", err
	}
	id := vals["job-id"]
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return "", errors.New("the printer took the job but gave no job id")
	}
	return id, nil
}

// Status asks the printer about a job, then about itself.
func (p *IPPTool) Status(ctx context.Context, jobID string) (Status, error) {
	job, err := p.ipptool(ctx, jobStateTest, "", "jobid", jobID)
	if err != nil {
		return Status{}, err
	}
	switch job["job-state"] {
	case "completed":
		return Status{Done: true}, nil
	case "aborted", "canceled":
		why := job["job-printer-state-message"]
		if why == "" {
			why = job["job-state-reasons"]
		}
		return Status{Failed: true, Reason: "the printer " + job["job-state"] + " the job: " + said([]byte(why))}, nil
	}
	printer, err := p.ipptool(ctx, printerStateTest, "")
	if err != nil {
		return Status{}, err
	}
	if printer["printer-state"] == "stopped" {
		why := printer["printer-state-message"]
		if why == "" {
			why = printer["printer-state-reasons"]
		}
		return Status{Stopped: true, Reason: said([]byte(why))}, nil
	}
	return Status{}, nil
}

// Cancel withdraws a job.
func (p *IPPTool) Cancel(ctx context.Context, jobID string) error {
	_, err := p.ipptool(ctx, cancelJobTest, "", "jobid", jobID)
	return err
}
