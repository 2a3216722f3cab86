//! `botarena times`: item-to-item travel times from the planner, a table or one pair with
//! its tree drawn.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use botarena::map::{CollisionMap, load_level};
use botarena::nav::waypoint_file::load_for;
use botarena::planner::times::{
    CSV_HEAD, Compare, ItemRef, PairTime, csv_line, default_selection, graph_time, items,
    pair_text, plan_one, select, table, table_foot, table_head, table_line,
};
use botarena::planner::{Metric, PlanConfig};
use botarena::render::{TreeDrawing, render_tree};
use botarena::scenario::tour::compare;

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The .map file.
    map: PathBuf,
    /// Items (indices, classes or class#k), comma-separated; default: weapons, powerups,
    /// armour and megahealth.
    #[arg(long, value_delimiter = ',')]
    items: Vec<String>,
    /// One pair: from this item...
    #[arg(long, requires = "to")]
    from: Option<String>,
    /// ...to this one.
    #[arg(long, requires = "from")]
    to: Option<String>,
    /// Expansions per pair (deterministic; default 200000, about 1 s a pair on a deathmatch
    /// map).
    #[arg(long, conflicts_with = "budget_ms")]
    samples: Option<usize>,
    /// Wall-clock budget per pair in milliseconds instead (not deterministic).
    #[arg(long)]
    budget_ms: Option<u64>,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Metric: `euclidean` (default), `height` (height differences ×3) or `area` (route
    /// time on the compiled area graph between the node's area and the sample's).
    #[arg(long, default_value = "euclidean")]
    metric: String,
    /// The map's compiled navigation (compiled here when not given): the area graph's
    /// route time beside the planner's, and `--metric area`.
    #[arg(long)]
    nav: Option<PathBuf>,

    /// A waypoint file for the map: adds the route and bot estimates.
    #[arg(long)]
    waypoints: Option<PathBuf>,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// JSON on stdout.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV on stdout.
    #[arg(long)]
    csv: bool,
    /// With --from/--to: draw the tree and the path.
    #[arg(long, requires = "from")]
    svg: Option<PathBuf>,
    /// Gravity integration: `exact` (the parabola at any tick rate; default) or `quake`
    /// (QuakeWorld's at the planner's 20 steps a second: lower jumps, as a player at 20 Hz).
    #[arg(long, default_value = "exact")]
    integration: String,
}

/// The planner's configuration the arguments ask for.
fn plan_config(args: &Args) -> Result<PlanConfig, String> {
    let mut cfg = PlanConfig {
        seed: args.seed,
        metric: Metric::from_name(&args.metric)?,
        ..Default::default()
    };
    match (args.samples, args.budget_ms) {
        (Some(0), _) => return Err("--samples must be at least 1".into()),
        (Some(n), _) => cfg.expansions = n,
        (None, Some(ms)) => {
            cfg.expansions = usize::MAX;
            cfg.deadline = Some(Instant::now() + Duration::from_millis(ms));
        }
        (None, None) => {}
    }
    Ok(cfg)
}

pub fn run(args: Args) -> Outcome {
    let (level, cmap) = load_level(&args.map)?;
    let level = Arc::new(level);
    let all = items(&level, &cmap);
    let mut cfg = plan_config(&args)?;
    let physics = botarena::physics::PhysicsParams {
        integration: botarena::physics::pmove::Integration::from_name(&args.integration)
            .map_err(|m| format!("--integration {m}"))?,
        ..Default::default()
    };
    let mesh = super::nav_or_compile(args.nav.as_deref(), &level, &cmap)?;
    cfg.area_metric = Some(Arc::new(botarena::planner::AreaMetric::new(
        Arc::new(mesh),
        &level,
    )));
    let graph = args
        .waypoints
        .as_ref()
        .map(|f| load_for(f, &level))
        .transpose()?;
    if let (Some(a), Some(b)) = (&args.from, &args.to) {
        let from = select(&all, std::slice::from_ref(a))?;
        let to = select(&all, std::slice::from_ref(b))?;
        let (fa, fb) = (&all[from[0]], &all[to[0]]);
        let plan = plan_one(&level, &cmap, fa, fb, &cfg, &physics);
        let graph_seconds = cfg
            .area_metric
            .as_ref()
            .and_then(|am| graph_time(am, &cmap, fa, fb));
        let (route, bot) = match &graph {
            Some(g) => compare(&level, &cmap, g, fa, fb, &physics),
            None => (None, None),
        };
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "from": fa.label, "to": fb.label, "rrt": plan.time(), "expansions": plan.expansions,
                    "first_at": plan.first_at, "graph": graph_seconds, "route": route, "bot": bot,
                    "path": plan.path().iter().map(|p| p.to_array()).collect::<Vec<_>>(),
                }))?
            );
        } else {
            let waypoints = graph.is_some().then_some((route, bot));
            println!("{}", pair_text(fa, fb, &plan, graph_seconds, waypoints));
        }
        if let Some(file) = &args.svg {
            let found = plan
                .time()
                .map(|t| format!("{t:.2} s"))
                .unwrap_or_else(|| "not found".into());
            let caption = format!(
                "{} → {}: {} states, {found}",
                fa.label,
                fb.label,
                plan.nodes.len()
            );
            let drawing = TreeDrawing::of_plan(&plan, None, caption);
            super::write_out(file, render_tree(&level, &drawing))?;
            eprintln!("wrote {}", file.display());
        }
        return Ok(());
    }
    let selection = if args.items.is_empty() {
        default_selection(&level, &all)
    } else {
        select(&all, &args.items)?
    };
    if selection.len() < 2 {
        return Err(format!(
            "{} item(s) chosen: a table needs at least two",
            selection.len()
        )
        .into());
    }
    let threads = args
        .threads
        .map(usize::from)
        .unwrap_or_else(botarena::sim::parallel::default_threads);
    let pairs = selection.len() * (selection.len() - 1);
    let mut progress = Progress::counting(pairs as u64, args.json || args.csv, "pairs");
    let estimates = graph.as_ref().map(|g| {
        let (level, physics) = (&level, &physics);
        move |map: &CollisionMap, a: &ItemRef, b: &ItemRef| compare(level, map, g, a, b, physics)
    });
    // Text and CSV rows are written as they finish, in the table's order (pairs finish out
    // of order: a row waits for those before it), so that an interrupt keeps them.
    let line: Option<fn(&PairTime) -> String> = if args.json {
        None
    } else if args.csv {
        print!("{CSV_HEAD}");
        Some(csv_line)
    } else {
        print!("{}", table_head());
        Some(table_line)
    };
    let mut finished: Vec<Option<PairTime>> = vec![None; pairs];
    let (mut written, mut count) = (0, 0);
    let rows = table(
        &level,
        &cmap,
        &all,
        &selection,
        &cfg,
        &physics,
        estimates.as_ref().map(|c| c as &Compare),
        threads,
        |k, row| {
            count += 1;
            progress.tick(count);
            let Some(line) = line else { return };
            finished[k] = Some(row.clone());
            while let Some(Some(r)) = finished.get(written) {
                progress.suspend(|| print!("{}", line(r)));
                written += 1;
            }
        },
    );
    progress.done();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else if !args.csv {
        let budget = if cfg.deadline.is_some() {
            "up to a time budget".to_string()
        } else {
            cfg.expansions.to_string()
        };
        print!("{}", table_foot(&rows, &budget, graph.is_some()));
    }
    Ok(())
}
