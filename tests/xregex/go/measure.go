// SPEC §12.1.2's regex subset, measure and plan, written in Go from the SPEC text
// (not from the Python): a recursive-descent parser of the grammar, the positions,
// repetition sum and width read off the parse, and the six refusal rules in order.
package main

import (
	"errors"
	"sort"
	"strings"
	"unicode/utf8"
)

const (
	maxChars     = 256
	maxRepeatSum = 64
	maxPositions = 512
	maxPerReq    = 1024
	dfaWidth     = 10
	nfaFactor    = 8
	saturate     = int64(1) << 50 // counts past this are all "too many" for every rule
	maxRune      = 0x10FFFF
)

// The committed refusal texts of SPEC §12.1.2's table, rule by rule.
const (
	msgTooLong   = "regex longer than 256 characters"
	msgSyntax    = "regex outside the SPEC 12.1.2 syntax"
	msgRepeats   = "counted repetitions add up to more than 64"
	msgNoGroup   = "regex has no capture group"
	msgPositions = "regex has more than 512 positions"
	msgBudget    = "regex fields of the requirement exceed 1024 positions"
)

var errSyntax = errors.New("syntax")

// span is a closed interval of code points.
type span struct{ lo, hi rune }

// position: one literal, escape, "." or class, with its copy count and character set.
type position struct {
	copies int64
	set    []span
}

// Measure is what SPEC reads from a pattern text alone.
type Measure struct {
	Groups, RepeatSum, Positions, Width, Cost int64
}

type parser struct {
	s         []rune
	i         int
	groups    int64
	repeatSum int64
	positions []position
	nullable  bool // whether the sub-pattern just parsed can match the empty text
}

func satAdd(a, b int64) int64 {
	if a+b > saturate {
		return saturate
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a != 0 && b > saturate/a {
		return saturate
	}
	return a * b
}

func (p *parser) peek(k int) (rune, bool) {
	if p.i+k < len(p.s) {
		return p.s[p.i+k], true
	}
	return 0, false
}

func (p *parser) eat(c rune) bool {
	if r, ok := p.peek(0); ok && r == c {
		p.i++
		return true
	}
	return false
}

// regex = branch *("|" branch); branch = *piece
// A group can match the empty text when one of its branches can: every piece an
// anchor, quantified with lower bound 0, or such a group.
func (p *parser) regex() error {
	anyBranch := false
	for {
		branch := true
		for {
			r, ok := p.peek(0)
			if !ok || r == '|' || r == ')' {
				break
			}
			if err := p.piece(); err != nil {
				return err
			}
			branch = branch && p.nullable
		}
		anyBranch = anyBranch || branch
		if !p.eat('|') {
			p.nullable = anyBranch
			return nil
		}
	}
}

// piece = "^" / "$" / atom [quantifier]
func (p *parser) piece() error {
	if p.eat('^') || p.eat('$') {
		p.nullable = true
		return nil
	}
	first := len(p.positions)
	p.nullable = false
	if err := p.atom(); err != nil {
		return err
	}
	if r, ok := p.peek(0); ok && p.nullable && strings.ContainsRune("*+?{", r) {
		return errSyntax // a group that can match the empty text takes no quantifier
	}
	copies, ok, err := p.quantifier()
	if err != nil || !ok {
		return err
	}
	for k := first; k < len(p.positions); k++ {
		p.positions[k].copies = satMul(p.positions[k].copies, copies)
	}
	return nil
}

// count = "0" / %x31-39 *DIGIT, kept as its digit text and its (saturated) value.
func (p *parser) count() (string, int64, error) {
	start := p.i
	for {
		r, ok := p.peek(0)
		if !ok || r < '0' || r > '9' {
			break
		}
		p.i++
	}
	digits := string(p.s[start:p.i])
	if digits == "" || (len(digits) > 1 && digits[0] == '0') {
		return "", 0, errSyntax
	}
	var v int64
	for _, d := range digits {
		v = satAdd(satMul(v, 10), int64(d-'0'))
	}
	return digits, v, nil
}

// digitsLE compares two counts as numbers, exactly, from their digit texts.
func digitsLE(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a <= b
}

// quantifier returns the copies it makes of its atom's positions.
func (p *parser) quantifier() (int64, bool, error) {
	var copies int64
	switch {
	case p.eat('+'):
		copies = 1
	case p.eat('*') || p.eat('?'):
		copies = 1
		p.nullable = true
	case p.eat('{'):
		nText, n, err := p.count()
		if err != nil {
			return 0, false, err
		}
		p.nullable = nText == "0"
		switch {
		case p.eat('}'):
			copies = n
			p.repeatSum = satAdd(p.repeatSum, n)
		case p.eat(','):
			if p.eat('}') {
				copies = n
				if copies < 1 {
					copies = 1
				}
				p.repeatSum = satAdd(p.repeatSum, n)
				break
			}
			mText, m, err := p.count()
			if err != nil || !p.eat('}') || !digitsLE(nText, mText) {
				return 0, false, errSyntax
			}
			copies = m
			p.repeatSum = satAdd(p.repeatSum, m)
		default:
			return 0, false, errSyntax
		}
	default:
		return 0, false, nil
	}
	p.eat('?') // lazy
	return copies, true, nil
}

func isPunct(r rune) bool {
	return r < 0x80 && r != '<' && r != '>' &&
		((r >= '!' && r <= '/') || (r >= ':' && r <= '@') || (r >= '[' && r <= '`') ||
			(r >= '{' && r <= '~'))
}

var controls = map[rune]rune{'n': '\n', 't': '\t', 'r': '\r', 'f': '\f', 'v': '\v'}

var perls = map[rune][]span{
	'd': {{'0', '9'}},
	's': {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}},
	'w': {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}},
}

// complement of a sorted, merged set within 0..U+10FFFF.
func complement(set []span) []span {
	out := []span{}
	next := rune(0)
	for _, s := range set {
		if s.lo > next {
			out = append(out, span{next, s.lo - 1})
		}
		next = s.hi + 1
	}
	if next <= maxRune {
		out = append(out, span{next, maxRune})
	}
	return out
}

func normalize(set []span) []span {
	sort.Slice(set, func(a, b int) bool { return set[a].lo < set[b].lo })
	out := []span{}
	for _, s := range set {
		if n := len(out); n > 0 && s.lo <= out[n-1].hi+1 {
			if s.hi > out[n-1].hi {
				out[n-1].hi = s.hi
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// perl reads d D s S w W after a backslash, if there.
func (p *parser) perl() ([]span, bool) {
	r, ok := p.peek(0)
	if !ok {
		return nil, false
	}
	lower := r | 0x20
	set, found := perls[lower]
	if !found {
		return nil, false
	}
	p.i++
	if r != lower {
		return complement(set), true
	}
	return set, true
}

// escaped reads a punct or n t r f v after a backslash: the character it means.
func (p *parser) escaped() (rune, bool) {
	r, ok := p.peek(0)
	if !ok {
		return 0, false
	}
	if c, found := controls[r]; found {
		p.i++
		return c, true
	}
	if isPunct(r) {
		p.i++
		return r, true
	}
	return 0, false
}

func (p *parser) atom() error {
	r, ok := p.peek(0)
	if !ok {
		return errSyntax
	}
	switch r {
	case '.':
		p.i++
		return p.add(complement([]span{{'\n', '\n'}}))
	case '\\':
		p.i++
		if set, ok := p.perl(); ok {
			return p.add(set)
		}
		if c, ok := p.escaped(); ok {
			return p.add([]span{{c, c}})
		}
		return errSyntax
	case '[':
		p.i++
		return p.class()
	case '(':
		p.i++
		if p.i+1 < len(p.s) && p.s[p.i] == '?' && p.s[p.i+1] == ':' {
			p.i += 2
		} else {
			p.groups++
		}
		if err := p.regex(); err != nil {
			return err
		}
		if !p.eat(')') {
			return errSyntax
		}
		return nil
	case '+', '*', '?', ')', '|', ']', '{', '}', '^', '$':
		return errSyntax
	}
	p.i++
	return p.add([]span{{r, r}})
}

func (p *parser) add(set []span) error {
	p.positions = append(p.positions, position{copies: 1, set: normalize(set)})
	return nil
}

// classChar = any character except \ [ ] - & ~ / "\" punct / "\" (n t r f v)
func (p *parser) classChar() (rune, bool) {
	r, ok := p.peek(0)
	if !ok {
		return 0, false
	}
	switch r {
	case '[', ']', '-', '&', '~':
		return 0, false
	case '\\':
		save := p.i
		p.i++
		if c, ok := p.escaped(); ok {
			return c, true
		}
		p.i = save
		return 0, false
	}
	p.i++
	return r, true
}

// class = "[" ["^"] 1*item "]"; item = perl / class-char ["-" class-char]
func (p *parser) class() error {
	negate := p.eat('^')
	set := []span{}
	items := 0
	for !p.eat(']') {
		if r, ok := p.peek(0); ok && r == '\\' {
			save := p.i
			p.i++
			if s, ok := p.perl(); ok {
				set = append(set, s...)
				items++
				continue
			}
			p.i = save
		}
		lo, ok := p.classChar()
		if !ok {
			return errSyntax
		}
		hi := lo
		if p.eat('-') {
			if hi, ok = p.classChar(); !ok || hi < lo {
				return errSyntax
			}
		}
		set = append(set, span{lo, hi})
		items++
	}
	if items == 0 {
		return errSyntax
	}
	set = normalize(set)
	if negate {
		set = complement(set)
	}
	return p.add(set)
}

// width: the most positions (with copies) whose sets hold one same Unicode scalar
// value (surrogates are not characters), by a sweep over the sets' endpoints.
func width(positions []position) int64 {
	type event struct {
		at    rune
		delta int64
	}
	events := []event{}
	for _, pos := range positions {
		for _, s := range pos.set {
			for _, part := range withoutSurrogates(s) {
				events = append(events, event{part.lo, pos.copies}, event{part.hi + 1, -pos.copies})
			}
		}
	}
	sort.Slice(events, func(a, b int) bool {
		if events[a].at != events[b].at {
			return events[a].at < events[b].at
		}
		return events[a].delta < events[b].delta
	})
	var best, live int64
	for _, e := range events {
		live = satAdd(live, e.delta)
		if live > best {
			best = live
		}
	}
	return best
}

func withoutSurrogates(s span) []span {
	out := []span{}
	if low, high := s.lo, s.hi; low < 0xD800 {
		if high > 0xD7FF {
			high = 0xD7FF
		}
		out = append(out, span{low, high})
	}
	if low, high := s.lo, s.hi; high > 0xDFFF {
		if low < 0xE000 {
			low = 0xE000
		}
		out = append(out, span{low, high})
	}
	return out
}

// measure parses a pattern of the subset; errSyntax outside it.
func measure(pattern string) (Measure, error) {
	p := &parser{s: []rune(pattern)}
	if err := p.regex(); err != nil || p.i != len(p.s) {
		return Measure{}, errSyntax
	}
	m := Measure{Groups: p.groups, RepeatSum: p.repeatSum, Width: width(p.positions)}
	for _, pos := range p.positions {
		m.Positions = satAdd(m.Positions, pos.copies)
	}
	m.Cost = 1 + m.Width
	if m.Width > dfaWidth {
		m.Cost = satMul(nfaFactor, m.Cost)
	}
	return m, nil
}

// fieldPlan is rules 1-5 for one field: "" (admitted) or the committed text.
func fieldPlan(pattern string) (string, Measure) {
	if utf8.RuneCountInString(pattern) > maxChars {
		return msgTooLong, Measure{}
	}
	m, err := measure(pattern)
	switch {
	case err != nil:
		return msgSyntax, m
	case m.RepeatSum > maxRepeatSum:
		return msgRepeats, m
	case m.Groups == 0:
		return msgNoGroup, m
	case m.Positions > maxPositions:
		return msgPositions, m
	}
	return "", m
}

// plan is all six rules for the regex fields of one requirement, in field order.
func plan(patterns []string) ([]string, []Measure) {
	texts := make([]string, len(patterns))
	measures := make([]Measure, len(patterns))
	var used int64
	for k, pattern := range patterns {
		text, m := fieldPlan(pattern)
		if text == "" && used+m.Positions > maxPerReq {
			text = msgBudget
		}
		if text == "" {
			used += m.Positions
			text = "ok"
		}
		texts[k], measures[k] = text, m
	}
	return texts, measures
}
