//! The command line's conventions, each tested: data on stdout and everything else
//! ("wrote …", progress, warnings) on stderr; exit status 0 on success, 1 when the work
//! itself failed (an output that cannot be written, a replay that diverges), 2 for bad
//! usage or bad input; a reader that closes the pipe early ends the command quietly; seed
//! ranges inclusive (`A-B`, `A..=B`), `A..B` refused with what to write; a file of the wrong
//! kind named in one line; a replay read from another folder.

mod common;

use std::io::Read;
use std::process::Stdio;

use common::{TempDir, bin};

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    // An 8-bot match's events as JSON: far more than a pipe holds, so the command is
    // still printing when the reader goes.
    let dir = TempDir::new("conv-pipe");
    let replay = dir.join("a8.replay");
    let o = bin()
        .args(["run", "scenarios/arena8.toml", "--record"])
        .arg(&replay)
        .output()
        .unwrap();
    assert!(o.status.success());
    let mut child = bin()
        .arg("replay")
        .arg(&replay)
        .arg("--json")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is closed here (dropped).
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}

#[test]
fn files_written_are_said_on_stderr_and_data_stays_on_stdout() {
    let dir = TempDir::new("conv-streams");
    let svg = dir.join("a.svg");
    let o = bin()
        .args(["render", "maps/arena.map", "-o"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("wrote"));
    let nav = dir.join("a.nav");
    let o = bin()
        .args(["nav", "compile", "maps/arena.map", "--out"])
        .arg(&nav)
        .output()
        .unwrap();
    assert!(o.status.success());
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(out.contains("areas:") && !out.contains("wrote"), "{out}");
    assert!(err.contains("wrote"), "{err}");
}

#[test]
fn exit_status_is_2_for_bad_input_and_1_for_a_failed_command() {
    let dir = TempDir::new("conv-status");
    let status = |args: &[&str]| {
        let o = bin().args(args).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // Bad usage and bad input.
    for args in [
        &["run", "scenarios/duel.toml", "--ticks", "abc"][..],
        &["run", "scenarios/no_such.toml"],
        &["map", "info", "maps/no_such.map"],
        &["render", "maps/arena.map", "--width", "5", "-o", "x.svg"],
    ] {
        let (code, err) = status(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
    }
    // An output that cannot be written: the command failed.
    let (code, err) = status(&["render", "maps/arena.map", "-o", "/no/such/dir/a.svg"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("/no/such/dir/a.svg"), "{err}");
    // A replay that diverges (its map changed since): the command failed.
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    let map = std::fs::read_to_string("maps/arena.map").unwrap();
    std::fs::write(dir.join("maps/arena.map"), &map).unwrap();
    let scenario = std::fs::read_to_string("scenarios/duel.toml")
        .unwrap()
        .replace("ticks = 3600", "ticks = 100");
    std::fs::write(dir.join("scenarios/d.toml"), scenario).unwrap();
    let replay = dir.join("d.replay");
    let o = bin()
        .args(["run"])
        .arg(dir.join("scenarios/d.toml"))
        .arg("--record")
        .arg(&replay)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let moved = map.replacen("\"origin\" \"-400 0 24\"", "\"origin\" \"-300 0 24\"", 1);
    assert_ne!(moved, map, "the spawn point to move is in the map");
    std::fs::write(dir.join("maps/arena.map"), moved).unwrap();
    let (code, err) = status(&["replay", replay.to_str().unwrap(), "--verify"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("diverged"), "{err}");
}

#[test]
fn seed_ranges_are_inclusive_and_a_half_open_one_is_refused() {
    let dir = TempDir::new("conv-seeds");
    let lines = |seeds: &str| {
        let out = dir.join("b.jsonl");
        let o = bin()
            .args([
                "batch",
                "scenarios/duel.toml",
                "--ticks",
                "20",
                "--seeds",
                seeds,
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(&out).unwrap().lines().count()
    };
    assert_eq!(lines("1-3"), 3);
    assert_eq!(lines("1..=3"), 3);
    assert_eq!(lines("4"), 1);
    let o = bin()
        .args(["batch", "scenarios/duel.toml", "--seeds", "1..3", "--out"])
        .arg(dir.join("x.jsonl"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("1..=3 or 1-3"), "{err}");
}

#[test]
fn a_replay_kept_in_the_project_is_verified_and_viewed_from_elsewhere() {
    // Recorded from the project folder (its scenario path relative to it), read from a
    // folder where that path leads nowhere: the scenario is found from the replay's folder
    // and the folders above it.
    let dir = TempDir::new("conv-elsewhere");
    let replay = common::root().join("tests/golden/duel.replay");
    let o = bin()
        .current_dir(&*dir)
        .arg("replay")
        .arg(&replay)
        .arg("--verify")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = dir.join("duel.html");
    let o = bin()
        .current_dir(&*dir)
        .arg("view")
        .arg(&replay)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(page.exists());
    // A copy alone, far from the scenario: a clear error, bad input.
    let lonely = dir.join("lonely.replay");
    std::fs::copy(&replay, &lonely).unwrap();
    let o = bin()
        .current_dir(&*dir)
        .arg("replay")
        .arg(&lonely)
        .arg("--verify")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the replay's folder"), "{err}");
}

#[test]
fn a_file_of_the_wrong_kind_is_named_in_one_line() {
    let dir = TempDir::new("conv-kinds");
    let nav = dir.join("arena.nav");
    let o = bin()
        .args(["nav", "compile", "maps/arena.map", "--out"])
        .arg(&nav)
        .output()
        .unwrap();
    assert!(o.status.success());
    let nav = nav.to_str().unwrap();
    let replay = "tests/golden/duel.replay";
    for (args, is, not) in [
        (
            vec!["map", "info", nav],
            "compiled navigation",
            "Quake .map",
        ),
        (vec!["run", replay], "replay", "scenario"),
        (
            vec!["nav", "info", "maps/arena.map"],
            "Quake .map",
            "compiled",
        ),
        (vec!["replay", "scenarios/duel.toml"], "scenario", "replay"),
        (
            vec!["waypoints", "info", nav],
            "compiled navigation",
            "waypoint",
        ),
        (vec!["run", "maps/arena.map"], "Quake .map", "scenario"),
    ] {
        let o = bin().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        let line = err.trim();
        let (before, after) = line.split_once(", not ").expect("names both kinds");
        assert!(
            before.contains(is) && after.contains(not),
            "{args:?}: {line}"
        );
    }
}

#[test]
fn times_writes_each_pair_as_it_finishes() {
    // A budget that keeps the whole table at work for a while: the first rows come out
    // long before the last, and stopping the command keeps them.
    let mut child = bin()
        .args([
            "times",
            "maps/arena.map",
            "--samples",
            "150000",
            "--threads",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    while lines.len() < 3 {
        let mut l = String::new();
        if std::io::BufRead::read_line(&mut out, &mut l).unwrap() == 0 {
            break;
        }
        lines.push(l);
    }
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(running, "the rows came only at the end: {lines:?}");
    assert!(lines[0].starts_with("from"), "{lines:?}");
    assert!(lines[1..].iter().all(|l| l.ends_with('\n')), "{lines:?}");
}
