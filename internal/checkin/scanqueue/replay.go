package scanqueue

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Reading a journal back. A journal grows by a line per scan and per
// answer; reruns of an imported list add an "already" line per address
// each time. Opening it replays every line, folds what no longer matters,
// sets aside what cannot be read, and rewrites the file compactly.

// foreignError is a header that is not this journal's (another event, a
// format this evdesk does not read): the file is not damaged, it is not
// ours, and nothing in it is used.
type foreignError struct{ err error }

func (e foreignError) Error() string { return e.err.Error() }
func (e foreignError) Unwrap() error { return e.err }

// sideFile is where replay sets aside the lines it cannot use, written as
// they are read (a journal damaged throughout costs no memory); it keeps
// the first line numbers and reason for the note.
type sideFile struct {
	path  string
	f     *os.File
	w     *bufio.Writer
	nums  []string // the first few line numbers
	count int
	why   string // the first line's reason
	err   error  // the first write error
}

// maxNamed is how many damaged line numbers a note names.
const maxNamed = 10

// replay applies every complete line of the file. It returns the offset
// after the last good line, the number of lines read (damaged ones
// included), and whether a torn last line follows. A line in the middle
// that cannot be used is kept in j.damaged, to be set aside; every other
// line still counts.
func (j *Journal) replay(f *os.File) (good int64, lines int, torn bool, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, 0, false, err
	}
	r := bufio.NewReaderSize(f, 256<<10)
	var long []byte // a line longer than the reader's buffer
	for n := 1; ; n++ {
		line, rerr := r.ReadSlice('\n')
		for errors.Is(rerr, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			line, rerr = r.ReadSlice('\n')
			line = append(long, line...)
		}
		if rerr == io.EOF {
			// A last line without its newline was being written when
			// the process died; its append never returned.
			return good, lines, len(line) > 0, nil
		}
		if rerr != nil {
			return 0, 0, false, fmt.Errorf("check-in journal %s: %w", j.path, rerr)
		}
		size := int64(len(line))
		if j.skipAlready(line) {
			good += size
			lines++
			continue
		}
		var rec record
		if err := json.Unmarshal(bytes.TrimSpace(line), &rec); err != nil {
			if _, peek := r.Peek(1); peek == io.EOF {
				return good, lines, true, nil // the last line: torn
			}
			j.damage(n, line, err.Error())
		} else if err := j.apply(rec, n); err != nil {
			var fe foreignError
			if errors.As(err, &fe) {
				return 0, 0, false, fmt.Errorf("check-in journal %s: line %d: %w", j.path, n, err)
			}
			// A well-formed record that does not fit is never a torn write.
			j.damage(n, line, err.Error())
		}
		good += size
		lines++
	}
}

// damage sets aside a line replay could not use.
func (j *Journal) damage(n int, line []byte, why string) {
	d := j.damaged
	if d == nil {
		d = &sideFile{path: j.path + ".damaged", why: why}
		j.damaged = d
		d.f, d.err = os.OpenFile(d.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if d.err == nil {
			d.w = bufio.NewWriterSize(d.f, 64<<10)
		}
	}
	d.count++
	if len(d.nums) < maxNamed {
		d.nums = append(d.nums, strconv.Itoa(n))
	}
	if d.err == nil {
		_, d.err = d.w.Write(append(bytes.TrimRight(line, "\r\n"), '\n'))
	}
}

// The start of a scan line as the journal writes it, and the mark of an
// "already" scan in it.
var (
	scanStart   = []byte(`{"t":"scan","id":"`)
	emailStart  = []byte(`","email":"`)
	alreadyMark = []byte(`"outcome":"already"`)
)

// skipAlready takes the quick way through the commonest line of a long
// journal: an "already" scan of someone this desk has pending or checked
// in. It changes nothing but the counts and the sequence, so it is folded
// at once, without decoding it. Any line not exactly of that form (or
// with an escape in its email) is left to the decoder.
func (j *Journal) skipAlready(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, scanStart)
	if !ok || !bytes.Contains(rest, alreadyMark) {
		return false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return false
	}
	id := rest[:end]
	rest, ok = bytes.CutPrefix(rest[end:], emailStart)
	if !ok {
		return false
	}
	end = bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return false
	}
	if j.active[string(rest[:end])] == nil {
		return false // its latest scan may matter: decode it
	}
	seq, err := strconv.ParseUint(string(id), 10, 64)
	if err != nil || j.seenID(string(id)) {
		return false
	}
	j.seq = max(j.seq, seq)
	j.counts.Already++
	j.folded++
	return true
}

// seenID reports whether a scan of this id was read already: a repeated id
// is damage the decoder's path reports.
func (j *Journal) seenID(id string) bool { return j.byID[id] != nil || id == "" }

// fold drops the "already" scans that no longer matter once the file is
// read: those of someone this desk has pending or checked in (the active
// scan answers for them), and all but the latest of anyone else's. They
// still count in Counts.
func (j *Journal) fold() {
	kept := j.scans[:0]
	for _, sc := range j.scans {
		if sc.Outcome == Already && (j.active[sc.Email] != nil || j.latest[sc.Email] != sc) {
			delete(j.byID, sc.ID)
			j.folded++
			continue
		}
		kept = append(kept, sc)
	}
	clear(j.scans[len(kept):])
	j.scans = kept
}

// setAside makes the set-aside lines durable (synced), then rewrites the
// journal without them; the notes say so. Every good line, and so every
// pending scan, stays. Until the side file is safe the journal is left as
// it is.
func (j *Journal) setAside() error {
	d := j.damaged
	err := d.err
	if err == nil {
		err = d.w.Flush()
	}
	if err == nil {
		err = d.f.Sync()
	}
	if d.f != nil {
		if cerr := d.f.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		err = syncDir(j.dir)
	}
	if err != nil {
		return fmt.Errorf("check-in journal %s: set aside its damaged lines in %s: %w", j.path, d.path, err)
	}
	if err := j.compact(); err != nil {
		return err
	}
	what := "line " + d.nums[0] + " was"
	if d.count > 1 {
		what = fmt.Sprintf("%d lines (%s) were", d.count, joinShort(d.nums, d.count))
	}
	j.notes = append(j.notes, fmt.Sprintf("check-in journal %s: %s damaged and could not be read (%s); set aside in %s. Every other scan is kept, pending ones still to send.",
		j.path, what, d.why, d.path))
	j.damaged = nil
	return nil
}

// joinShort joins the items named out of total, saying how many more
// there are.
func joinShort(items []string, total int) string {
	if total <= len(items) {
		return joinComma(items)
	}
	return fmt.Sprintf("%s and %d more", joinComma(items), total-len(items))
}

func joinComma(items []string) string {
	var b bytes.Buffer
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(it)
	}
	return b.String()
}

// Notes says what opening the journal did that a person should know (damaged
// lines set aside), or nothing.
func (j *Journal) Notes() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.notes...)
}
