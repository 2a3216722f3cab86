//! `botarena survey`: a row and a JSON record per map, in the order given for any thread
//! count, folders walked for their maps, a map that cannot be read reported in its row
//! (exit 2), bad arguments refused.

mod common;

use common::{TempDir, bin, root};

const QUICK: [&str; 8] = [
    "--seeds",
    "1-2",
    "--explore-seconds",
    "30",
    "--match-seconds",
    "20",
    "--planner-expansions",
    "20000",
];

fn survey(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let o = bin().arg("survey").args(args).args(QUICK).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_record_per_map_the_same_for_any_thread_count() {
    // Four maps, so that four threads run four workers (a survey runs no more workers than
    // maps).
    let maps = [
        root().join("maps/arena.map"),
        root().join("maps/rim_pool.map"),
        root().join("maps/layers.map"),
        root().join("maps/prefab.map"),
    ];
    let mut records = Vec::new();
    for threads in ["1", "2", "4"] {
        let mut args: Vec<&std::ffi::OsStr> = maps.iter().map(|m| m.as_os_str()).collect();
        let more: [&std::ffi::OsStr; 3] =
            ["--json".as_ref(), "--threads".as_ref(), threads.as_ref()];
        args.extend(more);
        let (code, out, err) = survey(&args);
        assert_eq!(code, 0, "{err}");
        let mut rows: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), maps.len(), "{out}");
        for (row, map) in rows.iter().zip(&maps) {
            let name = map.file_name().unwrap().to_str().unwrap();
            assert!(row["map"].as_str().unwrap().ends_with(name), "{row}");
            assert!(row["error"].is_null(), "{row}");
        }
        let arena = &rows[0];
        assert!(arena["error"].is_null());
        assert!(arena["areas"].as_u64().unwrap() > 10);
        // The arena's rocket launcher is on a balcony only the plat reaches.
        assert_eq!(arena["lint"]["only_by_lift"], 1);
        let tour = &arena["tour"];
        assert!(
            tour["legs"].as_u64().unwrap() >= 8,
            "every tour item, twice: {tour}"
        );
        assert!(tour["reached"].as_u64() <= tour["predicted"].as_u64());
        // Each worst leg says what the bot spent it doing, most first, within the leg's
        // time; the time of all slow and missed legs, by activity, holds each worst leg's.
        let secs = |v: &serde_json::Value| v["seconds"].as_f64().unwrap();
        let lost = tour["bad_leg_seconds"].as_array().unwrap();
        let worst = tour["worst"].as_array().unwrap();
        assert!(
            !worst.is_empty(),
            "the arena's tours have a slow leg: {tour}"
        );
        for w in worst {
            let doing = w["doing"].as_array().unwrap();
            assert!(!doing.is_empty() && doing.len() <= 3, "{w}");
            assert!(doing.windows(2).all(|p| secs(&p[0]) >= secs(&p[1])), "{w}");
            let took = w["took"].as_f64().unwrap_or(f64::INFINITY);
            assert!(
                doing.iter().map(secs).sum::<f64>() <= took.min(60.0) + 0.06,
                "{w}"
            );
            assert_eq!(w["ended_at"].is_null(), !w["took"].is_null(), "{w}");
            for d in doing {
                let total = lost
                    .iter()
                    .find(|x| x["doing"] == d["doing"])
                    .expect("summed");
                assert!(secs(total) + 1e-3 >= secs(d), "{d} in {total}");
            }
        }
        assert!(arena["explore"]["items"].as_u64().unwrap() > 0);
        assert_eq!(arena["brain"]["ticks"], 400);
        // The planner over the arena's two weapons, both ways, beside the area graph.
        let planner = &arena["planner"];
        assert_eq!(planner["pairs"], 2, "{planner}");
        assert_eq!(planner["connected"], 2, "the graph joins them: {planner}");
        let n = |k: &str| planner[k].as_u64().unwrap();
        assert!(n("within_5pct") <= n("found") && n("found") <= n("connected"));
        for w in planner["worst"].as_array().unwrap() {
            let (p, g) = (w["rrt"].as_f64(), w["graph"].as_f64().unwrap());
            assert!(p.is_none_or(|p| p > 1.05 * g), "{w}");
            assert_eq!(
                w["best_from"],
                if p.is_some_and(|p| p < g) {
                    "planner"
                } else {
                    "graph"
                }
            );
        }
        for r in &mut rows {
            // The one wall-clock figure.
            r["compile_seconds"] = 0.into();
        }
        records.push(rows);
    }
    assert_eq!(
        records[0], records[1],
        "the same records on 1 and 2 threads"
    );
    assert_eq!(
        records[0], records[2],
        "the same records on 1 and 4 threads"
    );
}

#[test]
fn folders_are_walked_and_a_bad_map_is_reported_in_its_row() {
    let dir = TempDir::with_arena("survey-folder");
    std::fs::create_dir_all(dir.join("maps/more")).unwrap();
    std::fs::write(
        dir.join("maps/more/broken.map"),
        "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 )\n",
    )
    .unwrap();
    std::fs::write(dir.join("maps/notes.txt"), "not a map").unwrap();
    let (code, out, err) = survey(&[dir.join("maps").as_os_str()]);
    assert_eq!(code, 2, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("map "), "{out}");
    assert!(out.contains("\narena "), "{out}");
    assert!(out.contains("\nbroken ") && out.contains("error:"), "{out}");
    assert!(err.contains("1 of 2 maps could not be surveyed"), "{err}");
}

#[test]
fn bad_arguments_are_refused() {
    let arena = root().join("maps/arena.map");
    for (extra, word) in [
        (vec!["--seeds", "1..5"], "seeds"),
        (vec!["--leg-seconds", "0"], "leg-seconds"),
        (vec!["--match-seconds", "nan"], "match-seconds"),
    ] {
        let o = bin()
            .arg("survey")
            .arg(&arena)
            .args(&extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(word), "{err}");
    }
    let o = bin()
        .args(["survey", "/nonexistent/maps"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file or folder"));
}
