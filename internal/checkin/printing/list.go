package printing

import (
	"context"
	"net"
	"strings"
)

// PrinterInfo is one printer a CUPS server offers.
type PrinterInfo struct {
	// Name is the queue's name; Setting is what badge_printer takes to
	// print there.
	Name, Setting string
	// Device is where the server sends its jobs (a printer's address);
	// State is "idle", "printing" or "stopped", with the printer's Reason.
	Device, State, Reason string
}

// ListPrinters lists the printers of a CUPS server ("" for this
// computer's): its queues, and the printers it found on the network by
// DNS-SD (lpstat -e lists both).
func ListPrinters(ctx context.Context, run Runner, server string) ([]PrinterInfo, error) {
	c := &CUPS{Target: Target{Server: server}, Run: run}
	out, errb, err := c.run(ctx, nil, "lpstat", append(c.serverArgs(), "-e")...)
	if err != nil {
		if len(strings.TrimSpace(string(errb))) == 0 && !c.serverUp(ctx) {
			return nil, c.explain(ctx, "lpstat", errb, err)
		}
		if strings.Contains(string(errb), "No destinations") {
			return nil, nil
		}
		return nil, c.explain(ctx, "lpstat", errb, err)
	}
	var list []PrinterInfo
	index := map[string]int{}
	for _, name := range strings.Fields(string(out)) {
		if !safeQueue.MatchString(name) {
			continue // not a name evdesk could print to
		}
		p := PrinterInfo{Name: name, Setting: name}
		if server != "" {
			p.Setting = "ipp://" + server + "/printers/" + name
			if host, port, err := net.SplitHostPort(server); err == nil && port == "631" {
				p.Setting = "ipp://" + host + "/printers/" + name
			}
		}
		index[name] = len(list)
		list = append(list, p)
	}
	// Devices and states are extras: a server that lists names answers
	// these too, and a name alone still prints.
	if out, _, err := c.run(ctx, nil, "lpstat", append(c.serverArgs(), "-v")...); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			rest, ok := strings.CutPrefix(line, "device for ")
			if name, dev, ok2 := strings.Cut(rest, ": "); ok && ok2 {
				if i, known := index[name]; known {
					list[i].Device = said([]byte(dev))
				}
			}
		}
	}
	if out, _, err := c.run(ctx, nil, "lpstat", append(c.serverArgs(), "-p")...); err == nil {
		lines := strings.Split(string(out), "\n")
		for n, line := range lines {
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != "printer" {
				continue
			}
			i, known := index[f[1]]
			if !known {
				continue
			}
			st := printerState([]byte(strings.Join(lines[n:min(n+2, len(lines))], "\n")))
			switch {
			case st.Stopped:
				list[i].State, list[i].Reason = "stopped", st.Reason
			case strings.Contains(line, "now printing"):
				list[i].State = "printing"
			default:
				list[i].State = "idle"
			}
		}
	}
	return list, nil
}
