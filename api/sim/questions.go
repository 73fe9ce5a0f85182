package sim

import (
	"encoding/json"
	"slices"
	"strings"
)

// question is one question of an event's registration form: a standard
// field of the ticket (its JSON name) or a custom question (its title).
type question struct {
	name     string
	custom   bool
	required bool
	choices  []string // the answers a custom question allows; nil: free text
}

// WorkshopQuestion and DietQuestion are the custom questions of the
// conference's form (Fixtures.QuestionsEventID); WorkshopChoices are the
// answers the first allows.
const (
	WorkshopQuestion = "Which workshop will you attend?"
	DietQuestion     = "Dietary requirements"
)

// WorkshopChoices are the allowed answers of WorkshopQuestion.
var WorkshopChoices = []string{"Hands-on lab", "Design review", "None"}

// defaultForm is the form of most events: first and last name, optional.
func defaultForm() []question {
	return []question{{name: "first_name"}, {name: "last_name"}}
}

// questionsForm is the conference's form: the job title and the
// organization are required, so is a workshop chosen from three; the diet
// is optional.
func questionsForm() []question {
	return []question{{name: "first_name", required: true}, {name: "last_name"},
		{name: "job_title", required: true}, {name: "organization", required: true},
		{name: WorkshopQuestion, custom: true, required: true, choices: WorkshopChoices},
		{name: DietQuestion, custom: true}}
}

// RequiredQuestions lists the required questions of an event's
// registration form (standard fields by JSON name, custom ones by title),
// nil for an unknown event. For tests and demos.
func (s *Sim) RequiredQuestions(eventID string) []string {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e := s.st.events[eventID]
	if e == nil {
		return nil
	}
	var out []string
	for _, q := range s.formOf(e) {
		if q.required {
			out = append(out, q.name)
		}
	}
	return out
}

// formOf is an event's registration form. Call with st.mu held.
func (s *Sim) formOf(e *eventRec) []question {
	if e.ev.EventID == s.fixtures.QuestionsEventID {
		return questionsForm()
	}
	return defaultForm()
}

// customAnswer is one answer to a custom question.
type customAnswer struct {
	Title  string `json:"title"`
	Answer string `json:"answer"`
}

// answers are what one ticket answers: standard fields by JSON name, custom
// questions by title (the first of a title kept; dup reports a repeat).
type answers struct {
	given map[string]string
	dup   bool
}

// answersOf reads a ticket's answers.
func answersOf(standard map[string]*string, custom []customAnswer) answers {
	a := answers{given: map[string]string{}}
	for name, v := range standard {
		if v != nil {
			a.given[name] = *v
		}
	}
	for _, c := range custom {
		if _, seen := a.given[c.Title]; seen {
			a.dup = true
			continue
		}
		a.given[c.Title] = c.Answer
	}
	return a
}

// missing lists the form's required questions a has no answer to.
func (a answers) missing(form []question) []string {
	var out []string
	for _, q := range form {
		if q.required && strings.TrimSpace(a.given[q.name]) == "" {
			out = append(out, q.name)
		}
	}
	return out
}

// unconfigured lists the questions a answers that the form does not have.
func (a answers) unconfigured(form []question) []string {
	var out []string
	for name, v := range a.given {
		if strings.TrimSpace(v) == "" {
			continue
		}
		if !slices.ContainsFunc(form, func(q question) bool { return q.name == name }) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// badChoice reports an answer that is not among a custom question's choices.
func (a answers) badChoice(form []question) bool {
	for _, q := range form {
		v, ok := a.given[q.name]
		if ok && q.choices != nil && strings.TrimSpace(v) != "" && !slices.Contains(q.choices, strings.TrimSpace(v)) {
			return true
		}
	}
	return false
}

// fieldList writes names as the provider's messages do: a JSON array.
func fieldList(names []string) string {
	b, _ := json.Marshal(names)
	return string(b)
}
