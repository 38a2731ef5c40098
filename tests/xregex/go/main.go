// Command xregex checks fixtures/vectors/regex.json (SPEC §12.1.2, §17.5) with
// Go: its own reading of the subset and measure (measure.go), and Go's regexp
// (RE2 syntax) on every admitted pattern: same group count, and the committed
// captures, match groups and per-item budgets.  Usage: xregex VECTORS.json
// It prints one line per disagreement and closes with "N passed, N failed".
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

type patternVector struct {
	Pattern   string `json:"pattern"`
	Plan      string `json:"plan"`
	Groups    *int64 `json:"groups"`
	RepeatSum *int64 `json:"repeat_sum"`
	Positions *int64 `json:"positions"`
	Width     *int64 `json:"width"`
	Cost      *int64 `json:"cost"`
}

type vectors struct {
	Window       int             `json:"window_characters"`
	PerByte      int64           `json:"work_per_byte"`
	Slack        int64           `json:"work_slack"`
	Patterns     []patternVector `json:"patterns"`
	Requirements []struct {
		Patterns []string `json:"patterns"`
		Plan     []string `json:"plan"`
	} `json:"requirements"`
	Captures []struct {
		Pattern  string  `json:"pattern"`
		Text     *string `json:"text"`
		TextSpec *string `json:"text_spec"`
		Capture  *string `json:"capture"`
	} `json:"captures"`
	Budgets []struct {
		Patterns []string  `json:"patterns"`
		TextSpec string    `json:"text_spec"`
		Bytes    int64     `json:"bytes"`
		Outcomes []*string `json:"outcomes"`
	} `json:"budgets"`
	Matches []struct {
		Pattern string    `json:"pattern"`
		Text    string    `json:"text"`
		Groups  []*string `json:"groups"`
	} `json:"matches"`
}

type checker struct{ passed, failed int }

func (c *checker) check(ok bool, what string, args ...any) {
	if ok {
		c.passed++
		return
	}
	c.failed++
	fmt.Printf("DISAGREE "+what+"\n", args...)
}

func show(v *string) string {
	if v == nil {
		return "null"
	}
	return strconv.Quote(*v)
}

func same(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func num(v *int64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatInt(*v, 10)
}

// textFromSpec reads "UNIT x COUNT + TAIL" (gen_regex.py's text_spec).
func textFromSpec(spec string) string {
	unit, rest, _ := strings.Cut(spec, " x ")
	count, tail, _ := strings.Cut(rest, " + ")
	n, _ := strconv.Atoi(count)
	return strings.Repeat(unit, n) + tail
}

// window is the first `chars` characters of text (SPEC §12.1.2: characters, not bytes).
func window(text string, chars int) string {
	k := 0
	for i := range text {
		if k == chars {
			return text[:i]
		}
		k++
	}
	return text
}

// compile is Go's regexp on an admitted pattern; it must accept it with the same groups.
func (c *checker) compile(pattern string, groups int64) *regexp.Regexp {
	re, err := regexp.Compile(pattern)
	if err != nil {
		c.check(false, "go-regexp refuses admitted %q: %v", pattern, err)
		return nil
	}
	c.check(int64(re.NumSubexp()) == groups, "go-regexp groups of %q: %d, SPEC %d",
		pattern, re.NumSubexp(), groups)
	return re
}

// group1 is the committed capture: group 1 of the leftmost-first match, or nil.
func group1(re *regexp.Regexp, text string) *string {
	m := re.FindStringSubmatchIndex(text)
	if m == nil || m[2] < 0 {
		return nil
	}
	s := text[m[2]:m[3]]
	return &s
}

func (c *checker) patterns(v *vectors) {
	for _, pv := range v.Patterns {
		text, m := fieldPlan(pv.Pattern)
		c.check(planText(text) == pv.Plan, "plan of %q: %q, vector %q", pv.Pattern, planText(text), pv.Plan)
		measured := text != msgTooLong && text != msgSyntax
		if !measured {
			c.check(pv.Positions == nil, "measure of %q: outside the subset, vector %s positions",
				pv.Pattern, num(pv.Positions))
			continue
		}
		got := fmt.Sprint(m.Groups, m.RepeatSum, m.Positions, m.Width, m.Cost)
		want := strings.Join([]string{num(pv.Groups), num(pv.RepeatSum), num(pv.Positions),
			num(pv.Width), num(pv.Cost)}, " ")
		c.check(got == want, "measure of %q (groups sum positions width cost): %s, vector %s",
			pv.Pattern, got, want)
		if text != msgRepeats { // engines cap counts (Go: 1000); rule 3 refuses first
			c.compile(pv.Pattern, m.Groups)
		}
	}
}

func planText(text string) string {
	if text == "" {
		return "ok"
	}
	return text
}

func (c *checker) requirements(v *vectors) {
	for _, r := range v.Requirements {
		got, _ := plan(r.Patterns)
		c.check(strings.Join(got, "|") == strings.Join(r.Plan, "|"),
			"requirement plan of %q: %q, vector %q", r.Patterns, got, r.Plan)
	}
}

// outcomes is what each field of one text item commits (SPEC §17.5): its capture,
// nil when it does not match, or the check id of its warning.
func (c *checker) outcomes(v *vectors, patterns []string, text string) []*string {
	texts, measures := plan(patterns)
	win := window(text, v.Window)
	budget := v.PerByte*int64(len(text)) + v.Slack
	out := make([]*string, len(patterns))
	for k, pattern := range patterns {
		id := ""
		switch {
		case texts[k] != "ok":
			id = "extract.bad_regex"
		case measures[k].Cost*int64(len(win)) > budget:
			id = "extract.regex_budget"
		default:
			budget -= measures[k].Cost * int64(len(win))
			if re := c.compile(pattern, measures[k].Groups); re != nil {
				out[k] = group1(re, win)
			}
			continue
		}
		out[k] = &id
	}
	return out
}

func (c *checker) captures(v *vectors) {
	for _, cv := range v.Captures {
		text := ""
		if cv.Text != nil {
			text = *cv.Text
		} else {
			text = textFromSpec(*cv.TextSpec)
		}
		got := c.outcomes(v, []string{cv.Pattern}, text)[0]
		c.check(same(got, cv.Capture), "capture of %q: %s, vector %s", cv.Pattern, show(got),
			show(cv.Capture))
	}
}

func (c *checker) budgets(v *vectors) {
	for _, b := range v.Budgets {
		text := textFromSpec(b.TextSpec)
		c.check(int64(len(text)) == b.Bytes, "budget text of %q: %d bytes, vector %d",
			b.Patterns, len(text), b.Bytes)
		got := c.outcomes(v, b.Patterns, text)
		for k := range got {
			c.check(same(got[k], b.Outcomes[k]), "budget field %d of %q: %s, vector %s", k,
				b.Patterns, show(got[k]), show(b.Outcomes[k]))
		}
	}
}

// matches: every group of the leftmost-first match, on texts that tell the engines apart.
func (c *checker) matches(v *vectors) {
	for _, mv := range v.Matches {
		text, m := fieldPlan(mv.Pattern)
		if text != "" {
			c.check(false, "match vector %q is not admitted: %s", mv.Pattern, text)
			continue
		}
		re := c.compile(mv.Pattern, m.Groups)
		if re == nil {
			continue
		}
		idx := re.FindStringSubmatchIndex(mv.Text)
		got := []*string(nil)
		for k := 1; idx != nil && k <= re.NumSubexp(); k++ {
			var g *string
			if idx[2*k] >= 0 {
				s := mv.Text[idx[2*k]:idx[2*k+1]]
				g = &s
			}
			got = append(got, g)
		}
		c.check(showAll(got) == showAll(mv.Groups), "match of %q on %q: %s, vector %s",
			mv.Pattern, mv.Text, showAll(got), showAll(mv.Groups))
	}
}

func showAll(groups []*string) string {
	if groups == nil {
		return "no match"
	}
	parts := make([]string, len(groups))
	for k, g := range groups {
		parts[k] = show(g)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: xregex VECTORS.json")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err == nil && !utf8.Valid(raw) {
		err = fmt.Errorf("not UTF-8")
	}
	var v vectors
	if err == nil {
		err = json.Unmarshal(raw, &v)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "xregex:", err)
		os.Exit(2)
	}
	c := &checker{}
	c.patterns(&v)
	c.requirements(&v)
	c.captures(&v)
	c.budgets(&v)
	c.matches(&v)
	fmt.Printf("%d passed, %d failed\n", c.passed, c.failed)
	if c.failed > 0 {
		os.Exit(1)
	}
}
