//! `botarena batch` as a user runs it: a line per seed, shards, resuming, interruption.

mod common;

use std::process::Command;

use common::{TempDir, bin};

#[test]
fn batch_writes_a_line_per_seed_and_checks_its_arguments() {
    let dir = TempDir::new("cli-batch");
    let out_file = dir.join("r.jsonl");
    let out = bin()
        .args([
            "batch",
            "scenarios/duel.toml",
            "--seeds",
            "3-5",
            "--ticks",
            "100",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&out_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_file).unwrap();
    let mut seeds: Vec<u64> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["ticks"], 100);
            assert!(v["final_hash"].is_string());
            v["seed"].as_u64().unwrap()
        })
        .collect();
    seeds.sort();
    assert_eq!(seeds, vec![3, 4, 5]);
    for bad in ["5..3", "x..4", "1..=", ""] {
        let out = bin()
            .args(["batch", "scenarios/duel.toml", "--seeds", bad, "--out"])
            .arg(dir.join("bad.jsonl"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--seeds"),
            "{bad}"
        );
    }
}

/// `--shard I/N` runs every N-th seed (the shards together are the whole sweep, with the
/// same results), and `--resume` keeps an interrupted run's whole lines and runs only the
/// seeds they lack.
#[test]
fn batch_shards_and_resumes() {
    let dir = TempDir::new("cli-shard");
    let run = |extra: &[&str], out: &std::path::Path| {
        let o = bin()
            .args([
                "batch",
                "scenarios/duel.toml",
                "--seeds",
                "0-5",
                "--ticks",
                "60",
            ])
            .args(extra)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    let hashes = |path: &std::path::Path| -> std::collections::BTreeMap<u64, String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["seed"].as_u64().unwrap(),
                    v["final_hash"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let all = dir.join("all.jsonl");
    run(&[], &all);
    let whole = hashes(&all);
    assert_eq!(whole.len(), 6);
    let mut joined = std::collections::BTreeMap::new();
    for i in 0..3 {
        let part = dir.join(format!("s{i}.jsonl"));
        run(&["--shard", &format!("{i}/3")], &part);
        let h = hashes(&part);
        assert_eq!(h.keys().copied().collect::<Vec<_>>(), vec![i, i + 3]);
        joined.extend(h);
    }
    assert_eq!(joined, whole);
    // Two whole lines and half of a third, as an interrupted run leaves them.
    let text = std::fs::read_to_string(&all).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = format!(
        "{}\n{}\n{}",
        lines[0],
        lines[1],
        &lines[2][..lines[2].len() / 2]
    );
    let part = dir.join("part.jsonl");
    std::fs::write(&part, &cut).unwrap();
    let said = run(&["--resume"], &part);
    assert!(
        said.contains("2 finished lines kept, 4 of 6 seeds left"),
        "{said}"
    );
    let resumed = std::fs::read_to_string(&part).unwrap();
    assert!(resumed.starts_with(&format!("{}\n{}\n", lines[0], lines[1])));
    assert_eq!(resumed.lines().count(), 6);
    assert_eq!(hashes(&part), whole);
    // Nothing left: nothing run, nothing lost.
    let said = run(&["--resume"], &part);
    assert!(said.contains("nothing to run"), "{said}");
    assert_eq!(std::fs::read_to_string(&part).unwrap(), resumed);
    // Bad shards, and resuming a file that is not a batch's output.
    let foreign = dir.join("foreign.jsonl");
    std::fs::write(&foreign, "{\"hello\": 1}\n").unwrap();
    for (extra, out, want) in [
        (vec!["--shard", "3/3"], &all, "--shard"),
        (vec!["--shard", "x"], &all, "--shard"),
        (vec!["--shard", "1/0"], &all, "--shard"),
        (vec!["--resume"], &foreign, "foreign.jsonl:1"),
    ] {
        let o = bin()
            .args([
                "batch",
                "scenarios/duel.toml",
                "--seeds",
                "0-5",
                "--ticks",
                "60",
            ])
            .args(&extra)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(want),
            "{extra:?}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "{\"hello\": 1}\n"
    );
}

#[test]
fn an_interrupted_batch_keeps_every_finished_line() {
    let dir = TempDir::new("cli-int");
    let out_file = dir.join("r.jsonl");
    let mut child = bin()
        .args([
            "batch",
            "scenarios/duel.toml",
            "--seeds",
            "0-499",
            "--ticks",
            "600",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&out_file)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for a few finished matches, then stop it the hard way. (Ctrl-C's SIGINT is
    // ignored by processes a non-interactive shell starts in the background, as CI may;
    // SIGKILL cannot be, and is the harshest test that only whole lines are kept.)
    let start = std::time::Instant::now();
    loop {
        let n = std::fs::read_to_string(&out_file)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n >= 2 || start.elapsed().as_secs() > 120 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(!exit.success(), "interrupted");
    let text = std::fs::read_to_string(&out_file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() >= 2 && lines.len() < 500,
        "{} lines",
        lines.len()
    );
    assert!(text.ends_with('\n'), "no half-written line");
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).expect("every kept line is whole JSON");
        assert!(v["seed"].is_u64());
    }
}
