//! `botarena explore`: bots that know nothing explore a map; the waypoint file and coverage.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use botarena::map::load_level;
use botarena::nav::waypoint_file::{geometry_hash, save};
use botarena::scenario::explore::{
    ExploreConfig, ExploreReport, coverage, explore_with, summarize,
};

use super::Outcome;

/// The share of the reachable floor a run's largest uncovered place has at least to be
/// named under the run's line (smaller ones are corners and ledges).
const MISSED_SHOWN: f64 = 0.01;

#[derive(clap::Args)]
pub struct Args {
    /// The .map file.
    map: PathBuf,
    /// Number of exploring bots.
    #[arg(long, default_value_t = 4)]
    bots: usize,
    /// Simulated seconds.
    #[arg(long, default_value_t = 600.0)]
    seconds: f64,
    /// Seed (of the first run, with --runs).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Explorations to run, seeds --seed, --seed + 1, ...: each run's coverage and a summary
    /// (mean and least share of the reachable floor covered, runs at 90 % or more, item
    /// classes left unmarked and in how many runs). Each run writes its own waypoint file,
    /// --out with `.seed<N>` before its extension.
    #[arg(long, default_value_t = 1)]
    runs: u64,
    /// Worker threads for --runs (one run each at a time); by default as many as the machine
    /// has cores, at most --runs. Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Ticks per second.
    #[arg(long, default_value_t = 20)]
    tick_rate: u32,
    /// Where to write the waypoint file (JSON).
    #[arg(long)]
    out: PathBuf,
    /// Print the coverage as JSON.
    #[arg(long)]
    json: bool,
    /// Skip the closing pass that links stray waypoints (outside the largest strongly
    /// connected part) with routable ones nearby where straight-line reachability holds,
    /// and joins stray parts by ways the travel-time planner finds (guided by the compiled
    /// navigation where it finds none alone) or a bot following the compiled navigation
    /// takes (rides on lifts and plats laid as explorers lay them).
    #[arg(long)]
    no_connect: bool,
    /// The map's compiled navigation to measure the learned graph against (share of its
    /// floor within reach of a waypoint); compiled here when not given.
    #[arg(long)]
    nav: Option<PathBuf>,
    /// Skip measuring against compiled navigation.
    #[arg(long, conflicts_with = "nav")]
    no_nav: bool,
}

pub fn run(args: Args) -> Outcome {
    let cfg = ExploreConfig {
        bots: args.bots,
        seconds: args.seconds,
        seed: args.seed,
        tick_rate: args.tick_rate,
        every: 10.0,
        connect: !args.no_connect,
    };
    let ExploreConfig {
        bots,
        seconds,
        tick_rate,
        ..
    } = cfg;
    if bots == 0 || bots > 256 {
        return Err(format!("--bots {bots}: must be 1..=256").into());
    }
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(format!("--seconds {seconds}: must be a positive number").into());
    }
    if !(1..=1000).contains(&tick_rate) {
        return Err(format!("--tick-rate {tick_rate}: must be 1..=1000").into());
    }
    if !(1..=10_000).contains(&args.runs) {
        return Err(format!("--runs {}: must be 1..=10000", args.runs).into());
    }
    if args.threads == Some(0) {
        return Err("--threads 0: must be at least 1".into());
    }
    // Found out before the long run, not after it.
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(format!(
            "--out {}: no such folder {}",
            args.out.display(),
            dir.display()
        )
        .into());
    }
    let (level, cmap) = load_level(&args.map)?;
    // A .nav file given is checked before the long run.
    let given_nav = args
        .nav
        .as_ref()
        .map(|f| botarena::aas::file::load_for(f, &level))
        .transpose()?;
    let level = Arc::new(level);
    let mesh = if args.no_nav {
        None
    } else {
        match given_nav {
            Some(mesh) => Some(mesh),
            None => Some(botarena::aas::compile(
                &level,
                &cmap,
                &botarena::aas::CompileParams::default(),
                &mut |_, _, _| {},
            )?),
        }
    }
    .map(Arc::new);
    let show = std::io::stderr().is_terminal();
    let seeds: Vec<u64> = (0..args.runs).map(|k| args.seed + k).collect();
    let out_for = |seed: u64| {
        if args.runs == 1 {
            return args.out.clone();
        }
        let stem = args.out.file_stem().unwrap_or_default().to_string_lossy();
        let name = match args.out.extension() {
            Some(ext) => format!("{stem}.seed{seed}.{}", ext.to_string_lossy()),
            None => format!("{stem}.seed{seed}"),
        };
        args.out.with_file_name(name)
    };
    // One run: explore, write its waypoint file, measure. Progress shows on a terminal for
    // a single run; several show how many are done. A run that fails (its file not
    // written) is the command's failure: the arguments were checked above.
    let one = |seed: u64| -> Result<ExploreReport, String> {
        let cfg = ExploreConfig { seed, ..cfg };
        let m = explore_with(Arc::clone(&level), cmap.clone(), &cfg, mesh.clone(), |m| {
            if show && args.runs == 1 {
                let st = m.learned.waypoints.stats();
                let pct = 100.0 * m.time() / seconds;
                eprint!(
                    "\r[{:<30}] {pct:5.1}% {:>5.0} s  {} waypoints, {} links, {} components   ",
                    "#".repeat((pct / 100.0 * 30.0) as usize),
                    m.time(),
                    st.waypoints,
                    st.links,
                    st.components
                );
                let _ = std::io::stderr().flush();
            }
        })
        .map_err(|e| e.to_string())?;
        let out = out_for(seed);
        save(
            &m.learned.waypoints,
            &level.map.name,
            &geometry_hash(&level),
            &out,
        )
        .map_err(|e| e.to_string())?;
        let mut report = coverage(
            &level,
            &m.sim.cmap,
            &m.learned.waypoints,
            bots,
            m.time(),
            seed,
        );
        report.links_connected = m.sim.stats.links_connected as usize;
        if let Some(mesh) = &mesh {
            let spawns: Vec<_> = level.spawns.iter().map(|s| s.origin).collect();
            report.against_nav = Some(botarena::scenario::explore::nav_coverage(
                mesh,
                &level,
                &m.sim.cmap,
                &m.learned.waypoints,
                &spawns,
            ));
            report.items_beyond_nav = Some(botarena::scenario::explore::items_beyond_reach(
                mesh,
                &level,
                &m.sim.cmap,
                &spawns,
            ));
            report.routable = Some(botarena::scenario::explore::routable(
                mesh,
                &m.learned.waypoints,
            ));
        }
        Ok(report)
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(seeds.len())
        .max(1);
    // Runs are handed out in seed order; each result lands in its seed's slot, so the
    // output does not depend on the thread count.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Result<ExploreReport, String>>>> =
        seeds.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(&seed) = seeds.get(k) else { break };
                    let r = one(seed);
                    *slots[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                    let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    if show && args.runs > 1 {
                        eprint!("\r{n} of {} runs done   ", seeds.len());
                        let _ = std::io::stderr().flush();
                    }
                }
            });
        }
    });
    if show {
        eprintln!();
    }
    let mut reports = Vec::with_capacity(seeds.len());
    for (slot, seed) in slots.into_iter().zip(&seeds) {
        match slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Ok(r)) => reports.push(r),
            Some(Err(e)) => return Err(Box::new(super::Failed(format!("seed {seed}: {e}")))),
            None => return Err(Box::new(super::Failed(format!("seed {seed}: not run")))),
        }
    }
    if args.runs == 1 {
        let report = &reports[0];
        if args.json {
            println!("{}", serde_json::to_string_pretty(report)?);
        } else {
            print!("{}", report.to_text());
            println!("written     {}", args.out.display());
        }
        return Ok(());
    }
    let summary = summarize(&reports);
    if args.json {
        let all = serde_json::json!({ "runs": reports, "summary": summary });
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else {
        for r in &reports {
            let share = r
                .against_nav
                .as_ref()
                .map(|c| {
                    format!(
                        "{:5.1} % of the reachable floor, ",
                        100.0 * c.reachable_share()
                    )
                })
                .unwrap_or_default();
            let routable = r
                .routable
                .map(|x| format!(" ({:.1} % routable)", 100.0 * x.share()))
                .unwrap_or_default();
            println!(
                "seed {:<5} {share}{} of {} weapons and powerups marked, {} waypoints{routable}  -> {}",
                r.seed,
                r.items_with_waypoint,
                r.important_items,
                r.graph.waypoints,
                out_for(r.seed).display()
            );
            // The largest place left, where it is a part worth a look (a run under the
            // goal is mostly one or two rooms never entered).
            if let Some(c) = &r.against_nav
                && let Some(m) = c.missed.first()
                && m.floor >= MISSED_SHOWN * c.reachable_floor
            {
                println!("           largest left: {}", c.describe(m));
            }
        }
        print!("{}", summary.to_text());
    }
    Ok(())
}
