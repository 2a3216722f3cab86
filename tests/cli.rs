//! The `botarena` binary as a user runs it.

mod common;

use common::{TempDir, bin};

#[test]
fn map_info_text_and_json() {
    let out = bin()
        .args(["map", "info", "maps/arena.map"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("1 func_plat") && text.contains("2 trigger_teleport"),
        "{text}"
    );
    let out = bin()
        .args(["map", "info", "maps/arena.map", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["spawn_points"], 4);
    assert_eq!(v["liquid_brushes"]["lava"], 1);
    assert_eq!(v["movers"]["func_door"], 1);
}

#[test]
fn run_prints_a_summary_and_json() {
    let out = bin()
        .args(["run", "scenarios/default.toml", "--ticks", "100"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The scoreboard; the run's costs only with --profile (below).
    assert!(
        text.contains("final hash") && text.contains("ranger") && !text.contains("ticks/s"),
        "{text}"
    );
    let run_json = || {
        let out = bin()
            .args(["run", "scenarios/default.toml", "--ticks", "100", "--json"])
            .args(["--threads", "1"])
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let (a, b) = (run_json(), run_json());
    assert_eq!(a["ticks"], 100);
    assert_eq!(a["players"].as_array().unwrap().len(), 4);
    assert_eq!(
        a["final_hash"], b["final_hash"],
        "same binary, scenario and seed: same hash"
    );
    assert!(a["stage_seconds"]["physics"].is_number());
    // One thread: all of a stage's time is serial.
    assert_eq!(a["threads"], 1);
    assert_eq!(a["stage_serial_seconds"], a["stage_seconds"]);
    let out = bin()
        .args(["run", "scenarios/default.toml", "--ticks", "100"])
        .args(["--threads", "2", "--profile"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("serial") && text.contains("outside the 2-thread pool"),
        "{text}"
    );
}

#[test]
fn errors_go_to_stderr_with_a_nonzero_exit() {
    let out = bin()
        .args(["map", "info", "maps/nothere.map"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("maps/nothere.map"), "{err}");
    let out = bin().args(["run", "Cargo.toml"]).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("Cargo.toml:")
    );
    let out = bin().args(["run"]).output().unwrap();
    assert!(!out.status.success());
    let out = bin().args(["--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("run") && help.contains("map"), "{help}");
}

#[test]
fn bench_refuses_bad_thread_lists_before_measuring() {
    for bad in ["0", "1,x", "", "2,,4", "5000"] {
        let out = bin().args(["bench", "--threads", bad]).output().unwrap();
        assert!(!out.status.success(), "--threads {bad:?} was taken");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("--threads") && err.contains("e.g. 1,2,4"),
            "{err}"
        );
    }
}

#[test]
fn explore_grid_info_merge_and_render() {
    let dir = TempDir::new("cli");
    let wp = dir.join("arena.json");
    let out = bin()
        .args([
            "explore",
            "maps/arena.map",
            "--bots",
            "2",
            "--seconds",
            "20",
            "--seed",
            "3",
            "--out",
        ])
        .arg(&wp)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["graph"]["waypoints"].as_u64().unwrap() > 3);
    assert_eq!(v["waypoints_in_solid"], 0);
    // Measured against the compiled navigation: some of its floor, not more than all.
    let (covered, floor) = (
        v["against_nav"]["covered"].as_f64().unwrap(),
        v["against_nav"]["floor"].as_f64().unwrap(),
    );
    assert!(covered > 0.0 && covered <= floor, "{covered} of {floor}");
    // The largest places left uncovered of the reachable floor, largest first, within
    // what is left.
    let c = &v["against_nav"];
    let missed: Vec<f64> = c["missed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["floor"].as_f64().unwrap())
        .collect();
    let left = c["reachable_floor"].as_f64().unwrap() - c["reachable_covered"].as_f64().unwrap();
    assert!(
        missed.len() <= 5 && missed.windows(2).all(|w| w[0] >= w[1]),
        "{missed:?}"
    );
    assert!(missed.iter().all(|f| *f > 0.0) && missed.iter().sum::<f64>() <= left + 1e-6);
    assert_eq!(missed.is_empty(), left <= 0.0, "{missed:?}, {left} left");
    let grid = dir.join("grid.json");
    let out = bin()
        .args([
            "waypoints",
            "grid",
            "maps/arena.map",
            "--spacing",
            "96",
            "--out",
        ])
        .arg(&grid)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = dir.join("merged.json");
    let out = bin()
        .args(["waypoints", "merge"])
        .arg(&wp)
        .arg(&grid)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stitched = dir.join("stitched.json");
    let out = bin()
        .args(["waypoints", "merge"])
        .arg(&wp)
        .arg(&grid)
        .args(["--map", "maps/arena.map", "--stitch", "96", "--out"])
        .arg(&stitched)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8(out.stdout).unwrap().contains("stitched"));
    let out = bin()
        .args(["waypoints", "merge"])
        .arg(&wp)
        .arg(&grid)
        .args(["--map", "maps/proving.map", "--stitch", "96", "--out"])
        .arg(&stitched)
        .output()
        .unwrap();
    assert!(!out.status.success(), "another map is refused");
    let out = bin()
        .args(["waypoints", "info"])
        .arg(&merged)
        .arg("--json")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["waypoints"].as_u64().unwrap() > 10);
    let svg = dir.join("arena.svg");
    let out = bin()
        .args(["render", "maps/arena.map", "--waypoints"])
        .arg(&merged)
        .arg("-o")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<circle"));
    // Routing over the merged graph.
    let out = bin()
        .args(["route", "--waypoints"])
        .arg(&merged)
        .args(["--to-waypoint", "0", "--from-waypoint", "3", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["distances"][0], 0.0);
    let out = bin()
        .args(["route", "--waypoints"])
        .arg(&merged)
        .args(["--to-waypoint", "999999"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = bin()
        .args(["route", "--waypoints"])
        .arg(&merged)
        .args(["--to-waypoint", "0", "--flags", "fly"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("fly"));
    // Between points, with the map: up the stairs to the north balcony.
    let out = bin()
        .args(["route", "maps/arena.map", "--waypoints"])
        .arg(&grid)
        .args(["--from", "150,60,24", "--to", "-300,440,152"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("in all"), "{text}");
    let out = bin()
        .args(["route", "--waypoints"])
        .arg(&grid)
        .args(["--to", "1,2,3"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "points need the map");
    let out = bin()
        .args(["route", "maps/arena.map", "--waypoints"])
        .arg(&grid)
        .args(["--to", "1,2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("x,y,z"));
    // A graph for another map is refused, naming both maps.
    let out = bin()
        .args(["render", "maps/proving.map", "--waypoints"])
        .arg(&merged)
        .arg("-o")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("arena") && err.contains("proving"), "{err}");
    // Bad arguments are errors, not panics.
    let out = bin()
        .args(["explore", "maps/arena.map", "--bots", "0", "--out"])
        .arg(&wp)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = bin()
        .args([
            "waypoints",
            "grid",
            "maps/arena.map",
            "--spacing",
            "1",
            "--out",
        ])
        .arg(&grid)
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn run_records_and_replay_verifies_dumps_and_refuses_bad_files() {
    let dir = TempDir::new("cli-replay");
    let file = dir.join("duel.replay");
    let f = file.to_str().unwrap();
    let out = bin()
        .args([
            "run",
            "scenarios/duel.toml",
            "--ticks",
            "200",
            "--record",
            f,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("frags") && text.contains("replay"), "{text}");
    let out = bin().args(["replay", f, "--verify"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("ok: 200 ticks")
    );
    let out = bin().args(["replay", f, "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["header"]["ticks"], 200);
    assert!(!v["events"].as_array().unwrap().is_empty());
    let out = bin().args(["replay", f]).output().unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("final hash")
    );
    // Corrupt one byte: a clear error and exit status 2 (bad input).
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    let bad = dir.join("bad.replay");
    std::fs::write(&bad, &bytes).unwrap();
    let out = bin()
        .args(["replay", bad.to_str().unwrap(), "--verify"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.replay") && err.contains("corrupted"),
        "{err}"
    );
}

#[test]
fn times_and_reach_print_tables_draw_trees_and_refuse_bad_input() {
    let dir = TempDir::new("cli-times");
    let out = bin()
        .args([
            "times",
            "maps/arena.map",
            "--items",
            "weapon_supershotgun,item_armor2",
            "--samples",
            "3000",
            "--csv",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "from,to,rrt_seconds,graph_seconds,best_seconds,best_from,expansions,first_at,\
         route_seconds,bot_seconds"
    );
    assert_eq!(lines.len(), 3, "two directed pairs: {text}");
    // Each pair has the area graph's time beside the planner's, and the quicker of the two
    // with its source.
    for l in &lines[1..] {
        let f: Vec<&str> = l.split(',').collect();
        let num = |s: &str| s.parse::<f32>().ok();
        let (rrt, graph, best) = (num(f[2]), num(f[3]), num(f[4]));
        let graph = graph.expect("the graph routes between the two: {l}");
        match rrt {
            Some(p) if p < graph => assert_eq!((best, f[5]), (Some(p), "planner"), "{l}"),
            _ => assert_eq!((best, f[5]), (Some(graph), "graph"), "{l}"),
        }
    }
    let svg = dir.join("tree.svg");
    let out = bin()
        .args([
            "times",
            "maps/arena.map",
            "--from",
            "0",
            "--to",
            "weapon_supershotgun",
            "--samples",
            "2000",
            "--json",
            "--svg",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["expansions"], 2000);
    assert!(v["graph"].as_f64().is_some_and(|g| g > 0.0), "{v}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let reach = dir.join("reach.svg");
    let out = bin()
        .args([
            "reach",
            "maps/arena.map",
            "--from",
            "weapon_supershotgun",
            "--seconds",
            "2",
            "--samples",
            "2000",
            "--svg",
        ])
        .arg(&reach)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&reach).unwrap().contains("hsl("));
    for bad in [
        vec!["times", "maps/proving.map", "--items", "weapon_bfg"],
        vec!["times", "maps/proving.map", "--items", "item_shells"],
        vec!["times", "maps/proving.map", "--metric", "manhattan"],
        vec!["times", "maps/proving.map", "--samples", "0"],
        vec!["times", "maps/none.map"],
        vec![
            "reach",
            "maps/arena.map",
            "--from",
            "item_shells",
            "--seconds",
            "-1",
            "--svg",
            "/tmp/x.svg",
        ],
    ] {
        let out = bin().args(&bad).output().unwrap();
        assert!(!out.status.success(), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}");
    }
}

#[test]
fn explore_runs_several_seeds_and_sums_them_up() {
    let dir = TempDir::new("cli-explore-runs");
    let out_file = dir.join("arena.json");
    let explore = |extra: &[&str]| {
        let mut c = bin();
        c.args([
            "explore",
            "maps/arena.map",
            "--seconds",
            "20",
            "--seed",
            "3",
        ])
        .args(["--runs", "2", "--out"])
        .arg(&out_file)
        .args(extra);
        c.output().unwrap()
    };
    let out = explore(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("seed 3 ") && text.contains("seed 4 "),
        "{text}"
    );
    assert!(
        text.contains("reachable   mean") && text.contains("of 2 runs"),
        "{text}"
    );
    // Each run's own waypoint file, named by its seed.
    for seed in [3, 4] {
        assert!(dir.join(format!("arena.seed{seed}.json")).is_file());
    }
    assert!(!out_file.exists());
    // JSON: the runs and the summary; the same whatever the thread count.
    let json = |threads: &str| {
        let out = explore(&["--json", "--threads", threads]);
        assert!(out.status.success());
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let one = json("1");
    assert_eq!(one, json("2"));
    let runs = one["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(
        (runs[0]["seed"].as_u64(), runs[1]["seed"].as_u64()),
        (Some(3), Some(4))
    );
    let summary = &one["summary"];
    assert_eq!(summary["runs"], 2);
    assert_eq!(summary["measured"], 2);
    let shares: Vec<f64> = runs
        .iter()
        .map(|r| {
            let c = &r["against_nav"];
            c["reachable_covered"].as_f64().unwrap() / c["reachable_floor"].as_f64().unwrap()
        })
        .collect();
    let mean = summary["mean_reachable"].as_f64().unwrap();
    assert!(
        (mean - (shares[0] + shares[1]) / 2.0).abs() < 1e-9,
        "{mean} {shares:?}"
    );
    assert!((summary["min_reachable"].as_f64().unwrap() - shares[0].min(shares[1])).abs() < 1e-9);
    // A run whose largest place left is 1 % of the reachable floor or more names it.
    let big = runs.iter().any(|r| {
        let c = &r["against_nav"];
        c["missed"][0]["floor"]
            .as_f64()
            .is_some_and(|f| f >= 0.01 * c["reachable_floor"].as_f64().unwrap())
    });
    assert_eq!(text.contains("largest left: "), big, "{text}");
    // Bad input is refused before anything runs.
    for bad in [&["--runs", "0"][..], &["--threads", "0"][..]] {
        let mut c = bin();
        c.args(["explore", "maps/arena.map", "--out"])
            .arg(&out_file)
            .args(bad);
        let out = c.output().unwrap();
        assert!(!out.status.success(), "{bad:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(bad[0]), "{err}");
    }
    let out = bin()
        .args(["explore", "maps/arena.map", "--out"])
        .arg(dir.join("no-such-folder/arena.json"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no such folder"), "{err}");
}

#[test]
fn lint_finds_a_leak_and_writes_its_pointfile() {
    let dir = TempDir::new("lint_leak");
    let pts = dir.join("leak.pts");
    let out = bin()
        .args(["lint", "maps/leak.map", "--json", "--pointfile"])
        .arg(&pts)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"][0]["kind"], "leak", "{v}");
    assert_eq!(v["leak"]["classname"], "info_player_deathmatch");
    let text = std::fs::read_to_string(&pts).unwrap();
    let points: Vec<Vec<f32>> = text
        .lines()
        .map(|l| l.split(' ').map(|t| t.parse().unwrap()).collect())
        .collect();
    assert!(
        points.len() > 2 && points.iter().all(|p| p.len() == 3),
        "{text}"
    );
    assert_eq!(
        points[0],
        vec![256.0, 256.0, 24.0],
        "from the entity inside"
    );
    assert!(
        points.last().unwrap()[0] > 528.0,
        "to beyond the east wall: {text}"
    );
    // A sealed map: no pointfile, and the text says why.
    let sealed = dir.join("sealed.pts");
    let out = bin()
        .args(["lint", "maps/arena.map", "--pointfile"])
        .arg(&sealed)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("sealed, no pointfile written"));
    assert!(!sealed.exists());
    // `map info` says it too.
    let out = bin()
        .args(["map", "info", "maps/leak.map"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("LEAK") && text.contains("leak.map:70:"),
        "{text}"
    );
}
