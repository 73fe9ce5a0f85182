package api

// hasOtherMembers reports whether the JSON object b, which json.Unmarshal
// has already accepted, has a member whose name is not in names. It reads
// the names without decoding the values, so an answer with only known
// members is decoded once. A name written with escapes counts as another
// member: the full decode then sorts it out.
func hasOtherMembers(b []byte, names map[string]bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return true
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return true
		}
		switch b[i] {
		case '}':
			return false
		case ',':
			i++
			continue
		case '"':
		default:
			return true
		}
		j := i + 1
		for j < len(b) && b[j] != '"' && b[j] != '\\' {
			j++
		}
		if j >= len(b) || b[j] == '\\' || !names[string(b[i+1:j])] {
			return true
		}
		i = skipSpace(b, j+1)
		if i >= len(b) || b[i] != ':' {
			return true
		}
		if i = skipValue(b, i+1); i < 0 {
			return true
		}
	}
}

// skipValue returns where the value starting at or after b[i] ends: after
// a string, object or array, or at the comma or brace after a number or a
// literal; -1 past the end.
func skipValue(b []byte, i int) int {
	i = skipSpace(b, i)
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			i++ // past the closing quote
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return -1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
