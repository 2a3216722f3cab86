//! The library's layering, checked from its sources: every module path a file names —
//! `use` trees and inline `crate::…` / `super::…` paths alike, outside comments,
//! `#[cfg(test)]` modules and the `tests.rs` files beside a module — points to the file
//! that defines it, and
//!
//! - the top-level modules import only from layers before them in [`LAYERS`], but for the
//!   documented exceptions in [`UPWARD`];
//! - no two files import each other, directly or round a longer circle.
//!
//! A folder's `mod.rs` that re-exports its own children (`pub use child::Item`) is their
//! facade: those lines are not imports of its own, and a path through them is followed to
//! the child that defines the item.
//!
//! `cargo modules dependencies --lib --no-externs --no-sysroot --no-fns --no-traits
//! --no-types --no-owns` draws the same graph from `use` declarations alone (README, "How it
//! works"); this test is the one CI runs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import from its own layer and those before it.
const LAYERS: &[&str] = &[
    "map", "physics", "sim", "nav", "aas", "planner", "game", "bot", "tick", "render", "scenario",
    "agent", "lint", "survey", "replay", "view", "bench",
];

/// Imports up the layers that are there on purpose: (file, layer it imports).
const UPWARD: &[(&str, &str)] = &[
    // The physics stage is the short ECS wrapper of pmove, kept beside it; it reads and
    // writes the world's components.
    ("physics/stage.rs", "sim"),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every library source file, relative to src/ (the binary's main.rs and cli/ aside).
fn library_files() -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![src()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("src is readable") {
            let p = e.expect("dir entry").path();
            let rel = p
                .strip_prefix(src())
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            if p.is_dir() {
                if rel != "cli" {
                    dirs.push(p);
                }
            } else if rel.ends_with(".rs") && rel != "main.rs" && !rel.ends_with("/tests.rs") {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file: `bot/brain.rs` → `[bot, brain]`, `bot/mod.rs` → `[bot]`.
fn module_of(file: &str) -> Vec<String> {
    let stem = file.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") || stem == "lib" {
        parts.pop();
    }
    parts
}

/// The file of module `path`, if it is one.
fn module_file(path: &[String], files: &BTreeSet<String>) -> Option<String> {
    if path.is_empty() {
        return Some("lib.rs".into());
    }
    let p = path.join("/");
    [format!("{p}.rs"), format!("{p}/mod.rs")]
        .into_iter()
        .find(|c| files.contains(c))
}

/// What the modules re-export: (module file, name) → the full path it stands for.
type Reexports = BTreeMap<(String, String), Vec<String>>;

/// The file defining what `path` (from the crate root) names: the longest prefix that is a
/// module, followed through re-exports (`pub use child::Item` in a folder's mod.rs) to the
/// module that defines the item, as cargo-modules resolves them.
fn file_of(path: &[String], files: &BTreeSet<String>, re: &Reexports) -> String {
    let mut path = path.to_vec();
    // A re-export may name another re-export; a longer chain than this would be a circle.
    for _ in 0..8 {
        let n = (0..=path.len())
            .rev()
            .find(|&n| module_file(&path[..n], files).is_some())
            .unwrap_or(0);
        let file = module_file(&path[..n], files).unwrap_or_else(|| "lib.rs".into());
        match path
            .get(n)
            .and_then(|name| re.get(&(file.clone(), name.clone())))
        {
            Some(target) => {
                let mut next = target.clone();
                next.extend(path[n + 1..].iter().cloned());
                path = next;
            }
            None => return file,
        }
    }
    panic!("re-exports go round in a circle at {path:?}")
}

/// The source without comments and without its `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into full paths.
fn expand_use(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    fn go(prefix: &str, t: &str, out: &mut Vec<String>) {
        match t.find('{') {
            None => out.push(format!("{prefix}{t}")),
            Some(i) => {
                let head = &t[..i];
                let inner = &t[i + 1..t.len() - 1];
                let mut depth = 0;
                let mut start = 0;
                for (k, c) in inner.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            go(&format!("{prefix}{head}"), &inner[start..k], out);
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                if start < inner.len() {
                    go(&format!("{prefix}{head}"), &inner[start..], out);
                }
            }
        }
    }
    let mut out = Vec::new();
    go("", &tree, &mut out);
    out
}

/// The `use` trees of a source (possibly over several lines), expanded, with whether each
/// declaration is `pub`.
fn use_paths(body: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let public = rest[..i].trim_end().ends_with("pub");
        let after = &rest[i + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '_') {
            out.extend(
                expand_use(after[..end].trim())
                    .into_iter()
                    .map(|p| (public, p)),
            );
        }
        rest = &after[end.min(after.len())..];
    }
    out
}

/// The full path of a path written in module `here`: `crate::…`, `super::…`, `self::…`, or
/// a child module of `here`; `None` for other crates.
fn absolute(here: &[String], p: &str, files: &BTreeSet<String>) -> Option<Vec<String>> {
    let segs: Vec<&str> = p.split("::").filter(|s| !s.is_empty()).collect();
    let (mut full, rest): (Vec<String>, &[&str]) = match segs.first()? {
        &"crate" => (Vec::new(), &segs[1..]),
        &"super" => (here[..here.len().saturating_sub(1)].to_vec(), &segs[1..]),
        &"self" => (here.to_vec(), &segs[1..]),
        first => {
            let mut child = here.to_vec();
            child.push(first.to_string());
            module_file(&child, files)?;
            (here.to_vec(), &segs[..])
        }
    };
    full.extend(rest.iter().map(|s| s.to_string()));
    Some(full)
}

/// Every module's re-exports.
fn reexports(files: &BTreeSet<String>) -> Reexports {
    let mut out = Reexports::new();
    for f in files {
        let text = std::fs::read_to_string(src().join(f)).expect("source readable");
        let here = module_of(f);
        for (public, p) in use_paths(&code(&text)) {
            if !public {
                continue;
            }
            let Some(full) = absolute(&here, &p, files) else {
                continue;
            };
            let name = full.last().cloned().unwrap_or_default();
            let name = name.rsplit(" as ").next().unwrap_or(&name).to_string();
            out.insert((f.clone(), name), full);
        }
    }
    out
}

/// The files that `file` imports from.
fn imports(file: &str, files: &BTreeSet<String>, re: &Reexports) -> BTreeSet<String> {
    let text = std::fs::read_to_string(src().join(file)).expect("source readable");
    let body = code(&text);
    let here = module_of(file);
    // A folder's re-exports of its own children are its facade, not its imports.
    let facade = |public: bool, p: &str| {
        public
            && file.ends_with("mod.rs")
            && absolute(&here, p, files).is_some_and(|full| {
                full.len() > here.len() + 1
                    && full.starts_with(&here)
                    && module_file(&full[..here.len() + 1], files).is_some()
            })
    };
    let mut paths: Vec<String> = use_paths(&body)
        .into_iter()
        .filter(|(public, p)| !facade(*public, p))
        .map(|(_, p)| p)
        .collect();
    // Inline paths.
    let bytes = body.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = body[from..].find(start) {
            let at = from + i;
            let ok_before = at == 0 || {
                let c = bytes[at - 1] as char;
                !c.is_alphanumeric() && c != '_' && c != ':'
            };
            let mut end = at;
            while end < bytes.len()
                && ((bytes[end] as char).is_alphanumeric()
                    || bytes[end] == b'_'
                    || bytes[end] == b':')
            {
                end += 1;
            }
            if ok_before {
                paths.push(body[at..end].trim_end_matches(':').to_string());
            }
            from = end.max(at + 1);
        }
    }
    let mut out = BTreeSet::new();
    for p in paths {
        let p = p.split(" as ").next().unwrap_or(&p);
        let Some(full) = absolute(&here, p, files) else {
            continue;
        };
        let f = file_of(&full, files, re);
        if f != file {
            out.insert(f);
        }
    }
    out
}

fn layer_of(file: &str) -> &str {
    file.split('/')
        .next()
        .unwrap_or(file)
        .trim_end_matches(".rs")
}

/// The file import graph of the library.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let files: BTreeSet<String> = library_files().into_iter().collect();
    let re = reexports(&files);
    files
        .iter()
        .map(|f| (f.clone(), imports(f, &files, &re)))
        .collect()
}

#[test]
fn the_reader_sees_inline_paths_and_use_trees() {
    assert_eq!(
        expand_use("crate::bot::{Percepts, control::{Controller, ControllerConfig}}"),
        [
            "crate::bot::Percepts",
            "crate::bot::control::Controller",
            "crate::bot::control::ControllerConfig"
        ]
    );
    let g = graph();
    // An inline path (`crate::nav::sample::…` in a function body) counts.
    assert!(
        g["bot/explore/teleport.rs"].contains("nav/sample.rs"),
        "{:?}",
        g["bot/explore/teleport.rs"]
    );
    // `super::` resolves against the file's folder; the folder's mod.rs is the parent.
    assert!(g["game/life.rs"].contains("game/weapons.rs"));
    assert!(g["bot/control.rs"].contains("bot/mod.rs"));
}

#[test]
fn layers_import_only_downward() {
    let g = graph();
    let rank = |l: &str| LAYERS.iter().position(|x| *x == l);
    let mut bad = Vec::new();
    for (file, deps) in &g {
        let from = layer_of(file);
        if from == "lib" {
            continue;
        }
        let Some(fr) = rank(from) else {
            bad.push(format!("{file}: layer {from:?} is not in LAYERS"));
            continue;
        };
        for d in deps {
            let to = layer_of(d);
            if to == "lib" {
                bad.push(format!("{file} imports through the crate root"));
                continue;
            }
            let tr = rank(to).unwrap_or(usize::MAX);
            if tr > fr && !UPWARD.contains(&(file.as_str(), to)) {
                bad.push(format!("{file} ({from}) imports {d} ({to}), a layer above"));
            }
        }
    }
    assert!(bad.is_empty(), "imports up the layers:\n{}", bad.join("\n"));
    // The issue's own words: the world state knows no bot, game, planner or scenario.
    for (file, deps) in g.iter().filter(|(f, _)| layer_of(f) == "sim") {
        for d in deps {
            assert!(
                !["bot", "game", "planner", "scenario", "tick"].contains(&layer_of(d)),
                "{file} imports {d}"
            );
        }
    }
}

#[test]
fn no_file_import_circle() {
    let g = graph();
    // Tarjan's strongly connected components; any with two or more files is a circle.
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        circles: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(t: &mut T<'a>, n: &'a str) {
        let i = t.index.len();
        t.index.insert(n, i);
        t.low.insert(n, i);
        t.stack.push(n);
        t.on.insert(n);
        for w in t.g.get(n).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let ln = t.low.get_mut(n).expect("visited");
                *ln = (*ln).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let ln = t.low.get_mut(n).expect("visited");
                *ln = (*ln).min(iw);
            }
        }
        if t.low[n] == t.index[n] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().expect("on the stack");
                t.on.remove(w);
                comp.push(w);
                if w == n {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.circles.push(comp);
            }
        }
    }
    let mut t = T {
        g: &g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        circles: Vec::new(),
    };
    for n in g.keys() {
        if !t.index.contains_key(n.as_str()) {
            visit(&mut t, n);
        }
    }
    assert!(t.circles.is_empty(), "import circles: {:?}", t.circles);
}
