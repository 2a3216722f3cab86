use super::{BenchOptions, BenchReport, BenchResult, TraceRate, parse_threads, spread};

fn case(bots: usize, threads: usize, tps: f64, serial_us: f64) -> BenchResult {
    BenchResult {
        map: "dm4".into(),
        bots,
        threads,
        ticks: 400,
        ticks_per_second: tps,
        rounds: vec![tps * 0.9, tps],
        top_stages: vec![("sense".into(), 30.0)],
        target: super::target("dm4", bots, threads, false),
        pool_busy_us: 0.0,
        pool_waited_us: 0.0,
        serial_us,
        serial_stages: vec![("physics".into(), serial_us)],
        real: false,
        us_per_bot_tick: 1e6 / (tps * bots as f64),
        traces_per_bot_tick: 100.0,
        deaths: 0,
        alive_percent: 100.0,
    }
}

#[test]
fn a_report_reads_its_cases_as_tables_json_and_markdown() {
    let r = BenchReport {
        machine: "test box".into(),
        options: BenchOptions::all(true),
        maps: vec!["dm4".into()],
        cases: vec![
            case(32, 1, 1000.0, 1000.0),
            case(32, 2, 1250.0, 200.0),
            BenchResult {
                real: true,
                target: super::target("dm4", 8, 1, true),
                ..case(8, 1, 5000.0, 200.0)
            },
        ],
        traces: vec![TraceRate {
            map: "dm4".into(),
            rays_per_second: 1e6,
            sweeps_per_second: 5e5,
            sight_per_second: 2e6,
            parry_rays_per_second: Some(4e5),
            step_sweeps_per_second: 1e7,
            ..Default::default()
        }],
        nav_compile: vec![super::NavCompileTime {
            map: "dm4".into(),
            threads: 2,
            seconds: 0.3,
            rounds: vec![0.3, 0.4, 0.35],
            areas: 378,
            reachabilities: 1615,
            target: Some(1.0),
            area_at_ns: 70.0,
        }],
        follow: vec![super::FollowCost {
            map: "dm4".into(),
            bots: 8,
            learned_us: 12.0,
            compiled_us: 18.0,
            learned_rounds: vec![12.0, 13.0],
            compiled_rounds: vec![18.0, 19.5],
            ratio: 1.5,
            target: super::FOLLOW_TARGET,
        }],
    };
    assert_eq!(r.speedup("dm4", 32, 2), Some(1.25));
    assert_eq!(r.speedup("dm4", 128, 2), None);
    let text = r.to_text();
    assert!(text.starts_with("machine: test box\n"), "{text}");
    assert!(
        text.contains("| dm4 | 32 | 1 | 1000 | 900 – 1000 | 1000 | yes | sense 30% |"),
        "{text}"
    );
    assert!(
        text.contains("| dm4 | 1.25× |  |  |  |  | ≥ 1.70× |"),
        "{text}"
    );
    // The real match leads, in µs per bot-tick against its target (10 µs: 10,000 ticks/s).
    assert!(text.find("Real matches") < text.find("First seconds"));
    assert!(
        text.contains(
            "| dm4 | 8 | 1 | 25.0 | 5000 | 4500 – 5000 | 10 | **no** | 100 | 0 · 100% | sense 30% |"
        ),
        "{text}"
    );
    // One thread's tick is 1000 µs; 200 µs serial leaves 1000 / (200 + 800 / 2) at best.
    assert!(text.contains("| 1.67× |"), "{text}");
    assert!(
        text.contains("| dm4 | 1.00 (1000000) | 2.50 (400000) | 0.50 (2000000) | – | 2.00 (500000) | – | 0.10 (10000000) | – |"),
        "{text}"
    );
    assert!(
        text.contains("| dm4 | 0.300 | 0.400 – 0.350 | 2 | 378 | 1615 | 1.0 | yes | 70 |"),
        "{text}"
    );
    assert!(
        text.contains("| learned (drops waypoints) | 12.0 | 13.0 – 12.0 |")
            && text.contains("| compiled (area graph) | 18.0 | 19.5 – 18.0 |")
            && text.contains("Compiled ÷ learned: 1.50× (target ≤ 2.0×: met)."),
        "{text}"
    );
    let json = r.to_json();
    assert_eq!(json["follow"][0]["ratio"], 1.5);
    assert_eq!(json["speedup_2_threads_32_bots"]["dm4"], 1.25);
    assert_eq!(json["cases"].as_array().unwrap().len(), 3);
    let md = r.to_markdown();
    assert!(md.starts_with("# Benchmarks") && md.contains("divided by 5 here"));
    assert!(md.ends_with(&text));
}

#[test]
fn a_spread_is_the_slowest_and_the_median_round() {
    assert_eq!(spread(&[]), "–");
    assert_eq!(spread(&[900.0]), "–");
    assert_eq!(spread(&[1000.0, 800.0, 950.0, 1020.0, 990.0]), "800 – 990");
    assert_eq!(spread(&[10.0, 5.0]), "5 – 10");
}

#[test]
fn thread_lists_are_sorted_without_repeats_and_start_at_one() {
    assert_eq!(parse_threads("1,2").unwrap(), vec![1, 2]);
    assert_eq!(parse_threads("16, 4,8,4").unwrap(), vec![1, 4, 8, 16]);
    assert_eq!(parse_threads("2").unwrap(), vec![1, 2]);
    for bad in ["0", "1,x", "", "-1", "1025"] {
        assert!(parse_threads(bad).is_err(), "{bad:?}");
    }
}

/// Both navigations run the same real match on the shipped arena and cost something; the
/// compiled one compiles the map first.
#[test]
fn route_following_and_learning_are_timed_on_the_same_match() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let arena = super::BenchMap {
        name: "arena".into(),
        path: root.join("maps/arena.map"),
    };
    let f = super::follow_cost(&arena, 1, 60).unwrap();
    assert_eq!((f.map.as_str(), f.bots), ("arena", 8));
    assert!(f.learned_us > 0.0 && f.compiled_us > 0.0, "{f:?}");
    assert_eq!(f.ratio, f.compiled_us / f.learned_us);
    assert_eq!((f.learned_rounds.len(), f.compiled_rounds.len()), (1, 1));
}
