//! Rust's `regex` on the regex vectors of SPEC §12.1.2 (tests/xregex/test_xregex_rust.py
//! writes them as lines of hex): every pattern in the subset compiles with the same
//! number of groups, and the committed captures and match groups are Rust's.
//! Prints one line per disagreement and closes with "N passed, N failed".
//!
//! SPEC's `\d \s \w` (and complements) are ASCII; Rust's are Unicode, so they are
//! written as ASCII classes.  An escaped punctuation character means itself; regex
//! before 1.8 (regex-syntax 0.6, Debian's) refuses an escape of a character that is
//! not a metacharacter, so such a character is written bare (`regex::escape`).
use regex::Regex;
use std::io::Read;

fn perl(e: char, in_class: bool) -> Option<&'static str> {
    Some(match (e, in_class) {
        ('d', true) => "0-9",
        ('d', false) => "[0-9]",
        ('s', true) => "\\t\\n\\f\\r ",
        ('s', false) => "[\\t\\n\\f\\r ]",
        ('w', true) => "0-9A-Za-z_",
        ('w', false) => "[0-9A-Za-z_]",
        ('D', _) => "[^0-9]",
        ('S', _) => "[^\\t\\n\\f\\r ]",
        ('W', _) => "[^0-9A-Za-z_]",
        _ => return None,
    })
}

/// SPEC §12.1.2's pattern in Rust's syntax, with the meaning SPEC gives it.
fn translate(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next().unwrap_or('\\');
                if let Some(class) = perl(e, in_class) {
                    out.push_str(class);
                } else if "ntrfv".contains(e) {
                    out.push('\\');
                    out.push(e);
                } else {
                    out.push_str(&regex::escape(&e.to_string()));
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out
}

fn unhex(word: &str) -> String {
    let bytes: Vec<u8> = (0..word.len() / 2)
        .map(|k| u8::from_str_radix(&word[2 * k..2 * k + 2], 16).expect("hex"))
        .collect();
    String::from_utf8(bytes).expect("UTF-8")
}

/// "-" (no match) or "=hex" / "~" (unset) per group, comma-separated.
fn show(groups: &Option<Vec<Option<String>>>) -> String {
    match groups {
        None => "-".to_string(),
        Some(gs) => gs
            .iter()
            .map(|g| match g {
                None => "~".to_string(),
                Some(s) => format!("{:?}", s),
            })
            .collect::<Vec<_>>()
            .join(","),
    }
}

fn expected(word: &str) -> Option<Vec<Option<String>>> {
    if word == "-" {
        return None;
    }
    Some(
        word.split(',')
            .map(|g| if g == "~" { None } else { Some(unhex(&g[1..])) })
            .collect(),
    )
}

fn groups(re: &Regex, text: &str, only_first: bool) -> Option<Vec<Option<String>>> {
    let caps = re.captures(text)?;
    let last = if only_first { 1 } else { re.captures_len() - 1 };
    let out: Vec<Option<String>> = (1..=last)
        .map(|k| caps.get(k).map(|m| m.as_str().to_string()))
        .collect();
    if only_first && out[0].is_none() {
        return None;
    }
    Some(out)
}

fn window(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let (mut passed, mut failed) = (0u64, 0u64);
    let mut check = |ok: bool, line: String| {
        if ok {
            passed += 1;
        } else {
            failed += 1;
            println!("DISAGREE {}", line);
        }
    };
    for line in input.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        let pattern = unhex(words[1]);
        let re = match Regex::new(&translate(&pattern)) {
            Ok(re) => re,
            Err(err) => {
                let msg = err.to_string().replace('\n', " ");
                check(false, format!("rust-regex refuses admitted {:?}: {}", pattern, msg));
                continue;
            }
        };
        match words[0] {
            "P" => {
                let want: usize = words[2].parse().expect("groups");
                let got = re.captures_len() - 1;
                check(got == want, format!("rust-regex groups of {:?}: {}, SPEC {}", pattern, got, want));
            }
            "C" | "M" => {
                let text = unhex(words[2]);
                let want = expected(words[3]);
                let got = if words[0] == "C" {
                    groups(&re, window(&text, 1 << 20), true)
                } else {
                    groups(&re, &text, false)
                };
                check(got == want, format!("{} of {:?} on {:?}: {}, vector {}", words[0],
                                           pattern, window(&text, 40), show(&got), show(&want)));
            }
            other => panic!("unknown line kind {}", other),
        }
    }
    println!("{} passed, {} failed", passed, failed);
    std::process::exit(if failed > 0 { 1 } else { 0 });
}
