//! Every `botarena` command the README and docs/ show (in code blocks and inline code) is
//! one the binary has, and every flag shown with it is one that command takes: each is
//! checked against the command's `--help`, so the guides cannot drift from the program.

mod common;

use std::collections::BTreeMap;

use common::{bin, root};

/// The documents users read.
fn documents() -> Vec<std::path::PathBuf> {
    let mut docs = vec![root().join("README.md")];
    let mut more: Vec<_> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

/// The command lines a document shows: lines of its fenced code blocks and its inline code
/// spans that run `botarena` (or `cargo run --release --`), split at `&&`, `|` and `;`, each
/// with where it stands.
fn shown_commands(text: &str, file: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        let at = format!("{file}:{}", n + 1);
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let mut pieces: Vec<&str> = Vec::new();
        if fenced {
            // A comment starts at " #" (a `#` inside a flag value is not one).
            pieces.push(line.split(" #").next().unwrap_or(""));
        } else {
            pieces.extend(line.split('`').skip(1).step_by(2));
        }
        for piece in pieces {
            for part in piece.split(['|', ';']).flat_map(|p| p.split("&&")) {
                let part = part.trim().trim_start_matches("$ ");
                let rest = part
                    .strip_prefix("cargo run --release -- ")
                    .or_else(|| part.strip_prefix("botarena "));
                if let Some(rest) = rest {
                    out.push((rest.to_string(), at.clone()));
                }
            }
        }
    }
    out
}

/// The subcommand words and flags of a shown command line (`map info FILE --json` gives
/// `["map", "info"]` and `["--json"]`).
fn words_and_flags(line: &str, nested: &[&str]) -> (Vec<String>, Vec<String>) {
    let tokens: Vec<String> = line
        .split_whitespace()
        .map(|t| {
            t.trim_matches(|c: char| "[]()|,".contains(c))
                .split('=')
                .next()
                .unwrap_or("")
                .to_string()
        })
        .filter(|t| !t.is_empty())
        .collect();
    let mut words = Vec::new();
    if let Some(first) = tokens.first()
        && !first.starts_with('-')
    {
        words.push(first.clone());
        if nested.contains(&first.as_str())
            && let Some(second) = tokens.get(1)
            && !second.starts_with('-')
        {
            words.push(second.clone());
        }
    }
    let flags = tokens
        .iter()
        .filter(|t| {
            t.starts_with('-')
                && t.trim_start_matches('-')
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
        })
        .cloned()
        .collect();
    (words, flags)
}

#[test]
fn every_documented_command_and_flag_is_in_the_binary() {
    // Commands with subcommands of their own.
    let nested = ["map", "nav", "waypoints"];
    let mut helps: BTreeMap<Vec<String>, (bool, String)> = BTreeMap::new();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("document readable");
        let name = doc.file_name().unwrap().to_string_lossy().into_owned();
        for (line, at) in shown_commands(&text, &name) {
            let (words, flags) = words_and_flags(&line, &nested);
            let (ok, help) = helps
                .entry(words.clone())
                .or_insert_with(|| {
                    let o = bin().args(&words).arg("--help").output().unwrap();
                    (
                        o.status.success(),
                        String::from_utf8_lossy(&o.stdout).into_owned(),
                    )
                })
                .clone();
            if !ok {
                wrong.push(format!(
                    "{at}: `botarena {}` is no command",
                    words.join(" ")
                ));
                continue;
            }
            for f in flags {
                // Long flags as "--name", short ones as "-o," or "-o " in the help.
                let known = if f.starts_with("--") {
                    help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                        .any(|w| w == f)
                } else {
                    help.contains(&format!("{f},")) || help.contains(&format!("{f} "))
                };
                if !known {
                    wrong.push(format!("{at}: `botarena {}` has no {f}", words.join(" ")));
                }
            }
            checked += 1;
        }
    }
    eprintln!("{checked} command lines checked, {} commands", helps.len());
    assert!(
        checked > 20,
        "the documents show commands ({checked} found)"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_readmes_first_code_block_holds_the_two_commands() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README readable");
    let block = text
        .split("```")
        .nth(1)
        .expect("the README has a code block");
    assert!(
        block.contains("cargo run --release -- run scenarios/default.toml"),
        "{block}"
    );
    assert!(block.contains(".ci/test"), "{block}");
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run readable");
    assert!(
        ci.contains(".ci/test"),
        ".ci/run runs the README's test command"
    );
}
