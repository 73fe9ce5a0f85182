package api

import "strings"

// NearestName returns the name in known closest to name when it is a
// plausible typo of it (a few edits away, or the one name containing it),
// else "". It compares without regard to case, so messages can suggest
// "did you mean".
func NearestName(name string, known []string) string {
	t := strings.ToLower(name)
	limit := max(2, len(t)/4)
	best, bestD := "", limit+1
	for _, k := range known {
		kl := strings.ToLower(k)
		if abs(len(kl)-len(t)) > limit {
			continue // at least that many edits apart: skip the costly count
		}
		if d := editDistance(t, kl); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return best
	}
	var hits []string
	for _, k := range known {
		if len(t) >= 4 && strings.Contains(strings.ToLower(k), t) {
			hits = append(hits, k)
		}
	}
	if len(hits) == 1 {
		return hits[0]
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
