//! `botarena explore`: bots that know nothing explore a map; the waypoint file and coverage.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use botarena::map::load_level;
use botarena::nav::waypoint_file::{geometry_hash, save};
use botarena::scenario::explore::{ExploreConfig, coverage, explore};

use super::Outcome;

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
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
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
    /// connected part) with routable ones nearby where straight-line reachability holds.
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
    let (level, cmap) = load_level(&args.map)?;
    // A .nav file given is checked before the long run.
    let given_nav = args
        .nav
        .as_ref()
        .map(|f| botarena::aas::file::load_for(f, &level))
        .transpose()?;
    let level = Arc::new(level);
    let show = std::io::stderr().is_terminal();
    let m = explore(Arc::clone(&level), cmap, &cfg, |m| {
        if show {
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
    })?;
    if show {
        eprintln!();
    }
    save(
        &m.learned.waypoints,
        &level.map.name,
        &geometry_hash(&level),
        &args.out,
    )?;
    let mut report = coverage(
        &level,
        &m.sim.cmap,
        &m.learned.waypoints,
        bots,
        m.time(),
        cfg.seed,
    );
    report.links_connected = m.sim.stats.links_connected as usize;
    if !args.no_nav {
        let mesh = match given_nav {
            Some(mesh) => mesh,
            None => botarena::aas::compile(
                &level,
                &m.sim.cmap,
                &botarena::aas::CompileParams::default(),
                &mut |_, _, _| {},
            )?,
        };
        let spawns: Vec<_> = level.spawns.iter().map(|s| s.origin).collect();
        report.against_nav = Some(botarena::scenario::explore::nav_coverage(
            &mesh,
            &level,
            &m.sim.cmap,
            &m.learned.waypoints,
            &spawns,
        ));
        report.items_beyond_nav = Some(botarena::scenario::explore::items_beyond_reach(
            &mesh,
            &level,
            &m.sim.cmap,
            &spawns,
        ));
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
        println!("written     {}", args.out.display());
    }
    Ok(())
}
