//! `botarena lint`: a map's flow checked for level designers (unreachable items, far spawn
//! points, one-way traps, items only a lift or a long fall leads to), as text, JSON or SVG.

use std::path::PathBuf;

use botarena::aas::{CompileParams, compile};
use botarena::lint::{LintParams, TrafficCounter, lint};
use botarena::map::load_level;
use botarena::render::{Mark, Overlay, render_map};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The .map file.
    map: PathBuf,
    /// Its compiled navigation (`botarena nav compile`); compiled here when not given.
    #[arg(long)]
    nav: Option<PathBuf>,
    /// A spawn point whose nearest weapon is more than this many seconds away is flagged.
    #[arg(long, default_value_t = 10.0)]
    far_seconds: f32,
    /// Planner expansions from each start when an item no route reaches is rechecked
    /// (fewer answer sooner and find fewer ways; at most 1,000,000).
    #[arg(long, default_value_t = LintParams::default().plan_expansions as u64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    plan_expansions: u64,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
    /// Also draw the findings over the map (SVG): unreachable items red, items only a lift
    /// or long fall leads to orange, traps purple, spawns blue with their nearest weapon's
    /// time; with --traffic, areas shaded yellow to red by how much players stood there.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Where the map leaks, write the way out from the entity inside to the outside as a
    /// pointfile (one `x y z` a line) that TrenchBroom draws (File > Load Point File); the
    /// SVG draws it too. Nothing is written for a sealed map.
    #[arg(long, value_name = "FILE.pts")]
    pointfile: Option<PathBuf>,
    /// Also map where players are: run this scenario (it must play MAP) once per seed and
    /// count, tick by tick, the area each living player stands in.
    #[arg(long, value_name = "SCENARIO")]
    traffic: Option<PathBuf>,
    /// Seeds of the traffic matches: `A-B` or `A..=B` (both include B), or one seed.
    #[arg(long, default_value = "1..=4", requires = "traffic")]
    seeds: String,
    /// Ticks per traffic match (default: the scenario's `ticks`).
    #[arg(long, requires = "traffic", value_parser = clap::value_parser!(u64).range(1..=botarena::scenario::MAX_TICKS))]
    ticks: Option<u64>,
}

pub fn run(args: Args) -> Outcome {
    if !(args.far_seconds.is_finite() && args.far_seconds > 0.0) {
        return Err(format!(
            "--far-seconds {}: must be a positive number",
            args.far_seconds
        )
        .into());
    }
    let (level, cmap) = load_level(&args.map)?;
    let mesh = match &args.nav {
        Some(f) => botarena::aas::file::load_for(f, &level)?,
        None => compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {})?,
    };
    let mut report = lint(
        &level,
        &cmap,
        &mesh,
        LintParams {
            far_seconds: args.far_seconds,
            plan_expansions: args.plan_expansions as usize,
        },
    );
    if let Some(file) = &args.traffic {
        let seeds = botarena::scenario::batch::parse_seeds(&args.seeds)
            .map_err(|e| format!("--seeds: {e}"))?;
        let mut sc = botarena::scenario::Scenario::load(file)?;
        let ticks = args.ticks.unwrap_or(sc.ticks);
        if ticks == 0 {
            return Err("--ticks: must be at least 1".into());
        }
        let mut counter = TrafficCounter::new(&mesh);
        let mut bar = Progress::counting(seeds.len() as u64 * ticks, args.json, "traffic ticks");
        for (k, &seed) in seeds.iter().enumerate() {
            sc.seed = seed;
            let mut m = sc.build()?;
            let here = botarena::nav::waypoint_file::geometry_hash(&level);
            if m.sim.level.map.name != level.map.name
                || botarena::nav::waypoint_file::geometry_hash(&m.sim.level) != here
            {
                return Err(format!(
                    "--traffic {}: the scenario plays {}, not {}",
                    file.display(),
                    sc.map.display(),
                    args.map.display()
                )
                .into());
            }
            counter.count(&mesh, &mut m, ticks, |t| bar.tick(k as u64 * ticks + t));
        }
        bar.done();
        report.traffic = Some(counter.finish(&mesh));
    }
    if let Some(out) = &args.pointfile {
        match &report.leak {
            Some(l) => {
                super::write_out(out, l.pointfile())?;
                if !args.json {
                    eprintln!("wrote {}", out.display());
                }
            }
            None if !args.json => {
                eprintln!("{}: sealed, no pointfile written", args.map.display())
            }
            None => {}
        }
    }
    if let Some(out) = &args.svg {
        let mut marks: Vec<Mark> = report
            .findings
            .iter()
            .filter(|f| f.kind != "one_way_trap" && f.kind != "far_spawn")
            .map(|f| Mark {
                at: f.at,
                label: if f.kind == "leak" {
                    "leak: the way out".to_string()
                } else {
                    f.message.split(" at ").next().unwrap_or("").to_string()
                },
                colour: if f.kind.starts_with("only_by") {
                    "#f08c00"
                } else {
                    "#e03131"
                },
            })
            .collect();
        marks.extend(report.spawns.iter().map(|s| {
            Mark {
                at: s.origin,
                label: match &s.nearest_weapon {
                    Some((_, t)) => format!("{t:.1} s"),
                    None => "no weapon".into(),
                },
                colour: if report
                    .findings
                    .iter()
                    .any(|f| f.kind == "far_spawn" && f.at == s.origin)
                {
                    "#e03131"
                } else {
                    "#1971c2"
                },
            }
        }));
        let boxes: Vec<_> = report
            .traps
            .iter()
            .map(|t| (t.mins, t.maxs, "#9c36b5"))
            .collect();
        let heat: Vec<(glam::Vec3, glam::Vec3, f32)> = report
            .traffic
            .iter()
            .flat_map(|t| t.areas.iter().map(|a| (a.mins, a.maxs, a.heat)))
            .collect();
        let caption = match &report.traffic {
            Some(t) => format!(
                "lint: {} finding(s); traffic of {} match(es), yellow to red",
                report.findings.len(),
                t.matches
            ),
            None => format!("lint: {} finding(s)", report.findings.len()),
        };
        let leak_way: Vec<glam::Vec3> = report
            .leak
            .iter()
            .flat_map(|l| l.path.iter().map(|p| glam::Vec3::from(*p)))
            .collect();
        let lines = [(&leak_way[..], "#e03131")];
        let svg = render_map(
            &level,
            &Overlay {
                lines: if leak_way.is_empty() { &[] } else { &lines },
                marks: &marks,
                boxes: &boxes,
                heat: &heat,
                caption: Some(&caption),
                ..Default::default()
            },
            1200.0,
        );
        super::write_out(out, svg)?;
        if !args.json {
            eprintln!("wrote {}", out.display());
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}
