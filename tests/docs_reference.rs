//! docs/scenario.md and docs/output.md against the program: every scenario key documented
//! and none that is not there, the complete example valid, the scoreboard's columns and
//! lint's finding kinds those the program prints.

mod common;

use std::collections::BTreeSet;

use botarena::scenario::Scenario;
use common::{bin, root};

fn read(doc: &str) -> String {
    std::fs::read_to_string(root().join(doc)).unwrap()
}

/// The first column's `` `name` `` of each row of the table after `<!-- keys: TABLE -->`.
fn documented_keys(text: &str, table: &str) -> BTreeSet<String> {
    let marker = format!("<!-- keys: {table} -->");
    let start = text.find(&marker).unwrap_or_else(|| panic!("no {marker}"));
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(k, _)| k.to_string()))
        .collect()
}

#[test]
fn every_scenario_key_is_documented_and_only_those() {
    let text = read("docs/scenario.md");
    for (table, keys) in botarena::scenario::keys() {
        let name = if table.is_empty() { "top" } else { table };
        let documented = documented_keys(&text, name);
        let real: BTreeSet<String> = keys.iter().map(|k| k.to_string()).collect();
        assert_eq!(
            documented, real,
            "docs/scenario.md's {name} table against the scenario types"
        );
    }
}

#[test]
fn the_complete_example_is_a_valid_scenario() {
    let text = read("docs/scenario.md");
    let start = text.find("```toml\n").unwrap() + "```toml\n".len();
    let example = &text[start..start + text[start..].find("```").unwrap()];
    // Read as a file in scenarios/, where `../maps/arena.map` is.
    let path = root().join("scenarios/example.toml");
    let s = Scenario::parse(example, &path).unwrap_or_else(|e| panic!("{e}"));
    // Every key of every table appears in it.
    for (table, keys) in botarena::scenario::keys() {
        for k in keys {
            assert!(
                example.contains(&format!("{k} ="))
                    || example.contains(&format!("[{k}]"))
                    || example.contains(&format!("[[{k}]]")),
                "the example shows {table}.{k}"
            );
        }
    }
    let mut m = s.build().unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..20 {
        m.step();
    }
}

#[test]
fn the_scoreboard_columns_are_the_documented_ones() {
    let o = bin()
        .args(["run", "scenarios/duel.toml", "--ticks", "20"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let head = out
        .lines()
        .find(|l| l.starts_with("player "))
        .expect("a scoreboard header");
    let doc = read("docs/output.md");
    for col in head.split_whitespace().skip(1) {
        if ["origin", "at", "the", "end"].contains(&col) {
            continue;
        }
        assert!(
            doc.contains(&format!("| `{col}` |")),
            "docs/output.md explains column {col}"
        );
    }
    assert!(doc.contains("| `origin at the end` |"));
}

#[test]
fn the_lint_finding_kinds_are_the_documented_ones() {
    let src = std::fs::read_to_string(root().join("src/lint/mod.rs")).unwrap();
    let doc = read("docs/output.md");
    // Every kind the source writes: `kind: "x"` and the kinds chosen by condition.
    let mut kinds = BTreeSet::new();
    for part in src.split("kind: \"").skip(1) {
        kinds.insert(part.split('"').next().unwrap().to_string());
    }
    for k in ["only_by_lift", "only_by_long_fall"] {
        assert!(src.contains(&format!("\"{k}\"")), "lint still writes {k}");
        kinds.insert(k.to_string());
    }
    for k in &kinds {
        assert!(
            doc.contains(&format!("| `{k}` |")),
            "docs/output.md explains finding {k}"
        );
    }
}
