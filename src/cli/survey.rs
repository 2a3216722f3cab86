//! `botarena survey`: how bots do on each of many maps, one row (or JSON record) a map.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use botarena::scenario::batch::parse_seeds;
use botarena::survey::{MapSurvey, SurveyParams, survey, table_head, table_line};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// Maps, or folders whose `.map` files (and their subfolders') are all surveyed.
    #[arg(required = true)]
    maps: Vec<PathBuf>,
    /// Seeds of the compiled-navigation item tours: `A-B` or `A..=B` (both include B), or
    /// one number; the first also seeds the exploration and the brain match.
    #[arg(long, default_value = "1-5")]
    seeds: String,
    /// Seconds each tour leg is given.
    #[arg(long, default_value_t = 60.0)]
    leg_seconds: f32,
    /// Simulated seconds of 4 explorers learning the map (0: none).
    #[arg(long, default_value_t = 600.0)]
    explore_seconds: f64,
    /// Simulated seconds of an 8-bot brain match (0: none).
    #[arg(long, default_value_t = 300.0)]
    match_seconds: f64,
    /// Planner expansions per directed weapon pair (0: no planner pairs): the travel-time
    /// planner over every pair of the map's weapons beside the area graph's route time
    /// (at the default, about a second a pair on a deathmatch map).
    #[arg(long, default_value_t = botarena::planner::PlanConfig::default().expansions)]
    planner_expansions: usize,
    /// Maps surveyed at once, one thread each (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// One JSON record per map (JSON lines, in the order given) instead of the table.
    #[arg(long)]
    json: bool,
}

/// The `.map` files `p` names: itself, or those under it (sorted, subfolders included).
fn maps_in(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "map") {
                maps_in(&e, out)?;
            }
        }
        Ok(())
    } else if p.is_file() {
        out.push(p.to_path_buf());
        Ok(())
    } else {
        Err(format!("{}: no such file or folder", p.display()))
    }
}

pub fn run(args: Args) -> Outcome {
    let mut maps = Vec::new();
    for p in &args.maps {
        maps_in(p, &mut maps)?;
    }
    if maps.is_empty() {
        return Err("no .map files found in the folders given".into());
    }
    let params = SurveyParams {
        seeds: parse_seeds(&args.seeds)?,
        leg_seconds: args.leg_seconds,
        explore_seconds: args.explore_seconds,
        match_seconds: args.match_seconds,
        planner_expansions: args.planner_expansions,
        ..SurveyParams::default()
    };
    if !(args.leg_seconds.is_finite() && args.leg_seconds > 0.0) {
        return Err(format!("--leg-seconds {}: expected more than 0", args.leg_seconds).into());
    }
    for (flag, v) in [
        ("--explore-seconds", args.explore_seconds),
        ("--match-seconds", args.match_seconds),
    ] {
        if !(v.is_finite() && (0.0..=86_400.0).contains(&v)) {
            return Err(format!("{flag} {v}: expected 0 to 86400").into());
        }
    }
    let threads = args
        .threads
        .map(usize::from)
        .unwrap_or_else(botarena::sim::parallel::default_threads)
        .min(maps.len());
    let progress = Mutex::new(Progress::counting(maps.len() as u64, false, "maps"));
    if !args.json {
        print!("{}", table_head());
    }
    // Maps are handed out in order; each row is printed once every row before it is, so
    // the output is in the order given whatever the thread count.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Mutex<(Vec<Option<MapSurvey>>, usize)> = Mutex::new((vec![None; maps.len()], 0));
    let print = |s: &MapSurvey| -> String {
        if args.json {
            serde_json::to_string(s)
                .map(|j| j + "\n")
                .unwrap_or_default()
        } else {
            table_line(s)
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(map) = maps.get(i) else { break };
                    let s = survey(map, &params);
                    let mut slot = slots.lock().unwrap_or_else(|p| p.into_inner());
                    slot.0[i] = Some(s);
                    let mut text = String::new();
                    while let Some(Some(s)) = slot.0.get(slot.1) {
                        text += &print(s);
                        slot.1 += 1;
                    }
                    let done = slot.0.iter().filter(|s| s.is_some()).count();
                    drop(slot);
                    let mut p = progress.lock().unwrap_or_else(|p| p.into_inner());
                    p.suspend(|| print!("{text}"));
                    p.tick(done as u64);
                }
            });
        }
    });
    progress.lock().unwrap_or_else(|p| p.into_inner()).done();
    let failed = slots
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .0
        .iter()
        .flatten()
        .filter(|s| s.error.is_some())
        .count();
    if failed > 0 {
        return Err(format!(
            "{failed} of {} maps could not be surveyed (their rows say why)",
            maps.len()
        )
        .into());
    }
    Ok(())
}
