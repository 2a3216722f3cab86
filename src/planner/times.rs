//! Item-to-item travel times for level designers: which items, where a player stands at
//! one, the goal region of another, and the directed table of planner times over worker
//! threads, beside the estimates a caller compares it with ([`Compare`]: waypoint route
//! distance / 320 u/s, and a bot sent there through the simulation).

use std::sync::atomic::{AtomicUsize, Ordering};

use glam::Vec3;
use serde::Serialize;

use super::{Goal, Plan, PlanConfig, plan};
use crate::map::level::ItemKind;
use crate::map::{CollisionMap, Level};
use crate::nav::sample::{drop_to_floor, floor_points, item_stand_point, stand_still};
use crate::physics::pmove::PhysicsParams;

/// An item as the table names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemRef {
    /// Index in the map's items.
    pub index: usize,
    /// Class name.
    pub class: String,
    /// `class#k` when the class appears more than once, else the class.
    pub label: String,
    /// Where a player stands to take it (an origin).
    pub stand: Vec3,
    /// The box a player's box must touch to take it.
    pub goal: Goal,
}

/// Every item with its dropped position, standing point and pickup region.
pub fn items(level: &Level, cmap: &CollisionMap) -> Vec<ItemRef> {
    // Where the simulation puts them: dropped to the floor with the movers where they start.
    let mut placed = cmap.clone();
    crate::physics::movers::place_at_spawn(level, &mut placed);
    let mut out: Vec<ItemRef> = Vec::new();
    for (i, def) in level.items.iter().enumerate() {
        let origin = drop_to_floor(&placed, def.origin, def.kind.bounds());
        let (mn, mx) = def.kind.bounds();
        let grow = Vec3::new(1.0, 1.0, 0.0);
        let stand = item_stand_point(def.kind, origin);
        let same = level
            .items
            .iter()
            .filter(|d| d.classname == def.classname)
            .count();
        let k = level.items[..i]
            .iter()
            .filter(|d| d.classname == def.classname)
            .count();
        out.push(ItemRef {
            index: i,
            class: def.classname.clone(),
            label: if same > 1 {
                format!("{}#{}", def.classname, k + 1)
            } else {
                def.classname.clone()
            },
            stand,
            goal: Goal {
                mins: origin + mn - grow,
                maxs: origin + mx + grow,
            },
        });
    }
    out
}

/// The items a designer asks about by default: weapons, powerups, armour and megahealth.
pub fn default_selection(level: &Level, all: &[ItemRef]) -> Vec<usize> {
    all.iter()
        .filter(|r| {
            matches!(
                level.items[r.index].kind,
                ItemKind::Weapon | ItemKind::Powerup | ItemKind::Armor | ItemKind::MegaHealth
            )
        })
        .map(|r| r.index)
        .collect()
}

/// Picks items by `--items` words: an index, a class (all items of it) or a `class#k` label.
pub fn select(all: &[ItemRef], words: &[String]) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for w in words {
        let w = w.trim();
        let found: Vec<usize> = if let Ok(i) = w.parse::<usize>() {
            all.iter()
                .filter(|r| r.index == i)
                .map(|r| r.index)
                .collect()
        } else {
            all.iter()
                .filter(|r| r.label == w || r.class == w)
                .map(|r| r.index)
                .collect()
        };
        if found.is_empty() {
            let known: Vec<&str> = all.iter().map(|r| r.label.as_str()).collect();
            return Err(format!(
                "no item {w:?} in the map (it has: {})",
                known.join(", ")
            ));
        }
        for f in found {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    Ok(out)
}

/// One directed pair's figures.
#[derive(Clone, Debug, Serialize)]
pub struct PairTime {
    /// From (label).
    pub from: String,
    /// To (label).
    pub to: String,
    /// The planner's best time, seconds (`None`: not found within the budget).
    pub rrt: Option<f32>,
    /// The compiled area graph's route time, seconds, where the plan had one
    /// ([`PlanConfig::area_metric`]) and it routes ([`graph_time`]).
    pub graph: Option<f32>,
    /// The quicker of the two ([`PairTime::best`]), seconds.
    pub best: Option<f32>,
    /// Where `best` comes from: `"planner"` or `"graph"`.
    pub best_from: Option<&'static str>,
    /// Expansions made.
    pub expansions: usize,
    /// Expansions before the first solution.
    pub first_at: Option<usize>,
    /// Waypoint route distance / 320 u/s, where a graph was given and routes.
    pub route: Option<f32>,
    /// A bot sent there through the simulation (route controller), seconds, where a graph
    /// was given and it arrived within 60 s.
    pub bot: Option<f32>,
}

impl PairTime {
    /// The quicker of the planner's and the graph's times, with where it comes from
    /// (`"planner"` or `"graph"`; the graph on a tie: its time is the one bots follow).
    pub fn quicker(&self) -> Option<(f32, &'static str)> {
        match (self.rrt, self.graph) {
            (Some(p), Some(g)) if p < g => Some((p, "planner")),
            (_, Some(g)) => Some((g, "graph")),
            (Some(p), None) => Some((p, "planner")),
            (None, None) => None,
        }
    }
}

/// The area graph's route time from where a player stands at `from` to where one stands
/// at `to`, into no slime or lava (the planner drops a state in them) and round what waits
/// on a trigger ([`super::world::shut_at_start`]): what a compiled bot's route predicts in
/// the world the planner plans in. `None` where either point is over no area or no route
/// joins them.
pub fn graph_time(
    metric: &super::AreaMetric,
    cmap: &CollisionMap,
    from: &ItemRef,
    to: &ItemRef,
) -> Option<f32> {
    use crate::aas::route::{Travel, route};
    let mesh = &*metric.mesh;
    let physics = PhysicsParams::default();
    let stand = |p: Vec3| {
        let o = stand_still(cmap, &physics, p).origin;
        if mesh.area_at(o).is_some() { o } else { p }
    };
    let (a, b) = (stand(from.stand), stand(to.stand));
    let cache = metric.cache(mesh.area_at(b)?, Travel::ALL.dry());
    route(mesh, &cache, a, b).map(|r| r.seconds)
}

/// The seed of a pair: the run's seed mixed with both items, so each pair's tree is the
/// same whichever thread grows it.
pub fn pair_seed(seed: u64, from: usize, to: usize) -> u64 {
    seed ^ ((from as u64) << 32 | to as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Plans one pair.
pub fn plan_pair(
    cmap: &CollisionMap,
    physics: &PhysicsParams,
    free: &[Vec3],
    from: &ItemRef,
    to: &ItemRef,
    cfg: &PlanConfig,
) -> Plan {
    let start = stand_still(cmap, physics, from.stand);
    let mut c = cfg.clone();
    c.seed = pair_seed(cfg.seed, from.index, to.index);
    plan(cmap, physics, free, start, Some(&to.goal), &c)
}

/// The other estimates of a pair beside the planner's, (route, bot) in seconds, asked with
/// the geometry the planner runs in ([`super::planning_map`]): given by the caller
/// (`scenario::tour::compare` makes them from a waypoint graph, sending a bot through the
/// simulation, which sits above the planner).
pub type Compare<'a> =
    dyn Fn(&CollisionMap, &ItemRef, &ItemRef) -> (Option<f32>, Option<f32>) + Sync + 'a;

/// The directed time table for `selection` with the player physics `physics`, pairs spread
/// over `threads` threads. `done` is called (from the calling thread) with each pair as it
/// finishes and its place in the table (pairs finish out of order), so that a caller can
/// write them as they come.
#[allow(
    clippy::too_many_arguments,
    reason = "each is a separate input of the table"
)]
pub fn table(
    level: &Level,
    cmap: &CollisionMap,
    all: &[ItemRef],
    selection: &[usize],
    cfg: &PlanConfig,
    physics: &PhysicsParams,
    compare: Option<&Compare>,
    threads: usize,
    mut done: impl FnMut(usize, &PairTime),
) -> Vec<PairTime> {
    let (open, free, cfg) = planning(level, cmap, cfg);
    let cmap = &open;
    let cfg = &cfg;
    let pairs: Vec<(usize, usize)> = selection
        .iter()
        .flat_map(|&a| {
            selection
                .iter()
                .filter(move |&&b| b != a)
                .map(move |&b| (a, b))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = crossbeam::channel::unbounded::<(usize, PairTime)>();
    let mut out: Vec<Option<PairTime>> = vec![None; pairs.len()];
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(pairs.len().max(1)) {
            let (tx, next, pairs, free) = (tx.clone(), &next, &pairs, &free);
            s.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(a, b)) = pairs.get(k) else { break };
                    let (fa, fb) = (&all[a], &all[b]);
                    let p = plan_pair(cmap, physics, free, fa, fb, cfg);
                    let (route, bot) = compare.map(|c| c(cmap, fa, fb)).unwrap_or((None, None));
                    let graph = cfg
                        .area_metric
                        .as_ref()
                        .and_then(|am| graph_time(am, cmap, fa, fb));
                    let row = PairTime {
                        from: fa.label.clone(),
                        to: fb.label.clone(),
                        rrt: p.time(),
                        graph,
                        best: None,
                        best_from: None,
                        expansions: p.expansions,
                        first_at: p.first_at,
                        route,
                        bot,
                    };
                    let quicker = row.quicker();
                    let row = PairTime {
                        best: quicker.map(|q| q.0),
                        best_from: quicker.map(|q| q.1),
                        ..row
                    };
                    if tx.send((k, row)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (k, row) in rx {
            done(k, &row);
            out[k] = Some(row);
        }
    });
    out.into_iter().flatten().collect()
}

/// What a plan of `level` runs in: the geometry ([`super::planning_map`]: doors open,
/// movers where they start), floor points 64 units apart to sample around, and `cfg` with
/// the map's teleporters and lifts ([`super::lifts`]).
pub fn planning(
    level: &Level,
    cmap: &CollisionMap,
    cfg: &PlanConfig,
) -> (CollisionMap, Vec<Vec3>, PlanConfig) {
    let open = super::planning_map(level, cmap);
    let free = floor_points(level, &open, 64.0);
    let mut cfg = cfg.clone();
    cfg.teleporters = super::teleporters(level);
    cfg.pushes = crate::physics::push::pushes(level);
    cfg.lifts = std::sync::Arc::new(super::lifts(level));
    (open, free, cfg)
}

/// One pair planned in the world the planner runs in ([`planning`]) with the player
/// physics `physics`.
pub fn plan_one(
    level: &Level,
    cmap: &CollisionMap,
    from: &ItemRef,
    to: &ItemRef,
    cfg: &PlanConfig,
    physics: &PhysicsParams,
) -> Plan {
    let (open, free, cfg) = planning(level, cmap, cfg);
    plan_pair(&open, physics, &free, from, to, &cfg)
}

/// The tree a player standing at item `from` grows with no goal: `samples` expansions of
/// the planner in the world it runs in ([`planning`]), seeded with `seed` (where a player
/// gets to, and when: `botarena reach`).
pub fn reach_tree(
    level: &Level,
    cmap: &CollisionMap,
    from: &ItemRef,
    samples: usize,
    seed: u64,
    physics: &PhysicsParams,
) -> Plan {
    let cfg = PlanConfig {
        expansions: samples,
        seed,
        ..Default::default()
    };
    let (open, free, cfg) = planning(level, cmap, &cfg);
    let start = stand_still(&open, physics, from.stand);
    plan(&open, physics, &free, start, None, &cfg)
}

/// A time in seconds with two decimals, `missing` without one.
fn seconds(t: Option<f32>, missing: &str) -> String {
    t.map(|t| format!("{t:.2} s"))
        .unwrap_or_else(|| missing.to_string())
}

/// The table as text: a line per pair (planner, route and bot times), then how many pairs
/// were found with `budget` (what each pair was given, in words) and, when no waypoint file
/// was given (`compared` false), how to get the other two estimates.
pub fn table_text(rows: &[PairTime], budget: &str, compared: bool) -> String {
    let mut s = table_head();
    for r in rows {
        s += &table_line(r);
    }
    s + &table_foot(rows, budget, compared)
}

/// The text table's first line.
pub fn table_head() -> String {
    format!(
        "{:<28} {:<28} {:>9} {:>9} {:>9} {:<8} {:>8} {:>8}\n",
        "from", "to", "planner", "graph", "best", "from", "route", "bot"
    )
}

/// One pair's line of the text table: the planner's and the graph's times, the quicker
/// with its source, then the waypoint estimates.
pub fn table_line(r: &PairTime) -> String {
    let (best, source) = match r.quicker() {
        Some((t, s)) => (format!("{t:.2} s"), s),
        None => ("–".to_string(), ""),
    };
    format!(
        "{:<28} {:<28} {:>9} {:>9} {:>9} {:<8} {:>8} {:>8}\n",
        r.from,
        r.to,
        seconds(r.rrt, "not found"),
        seconds(r.graph, "no route"),
        best,
        source,
        seconds(r.route, "–"),
        seconds(r.bot, "–")
    )
}

/// The text table's last line: how many pairs were found with `budget` (what each pair
/// was given, in words), and how to get the other estimates when none were asked for.
pub fn table_foot(rows: &[PairTime], budget: &str, compared: bool) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let connected: Vec<&PairTime> = rows.iter().filter(|r| r.graph.is_some()).collect();
    if !connected.is_empty() {
        let found = connected.iter().filter(|r| r.rrt.is_some()).count();
        let close = connected
            .iter()
            .filter(|r| r.rrt.zip(r.graph).is_some_and(|(p, g)| p <= 1.05 * g))
            .count();
        let quicker = rows.iter().filter(|r| r.best_from == Some("planner"));
        let _ = writeln!(
            s,
            "the area graph routes {} of {} pairs: the planner found {found} of them, {close} \
             within 5 % of the graph's time, and was quicker on {}",
            connected.len(),
            rows.len(),
            quicker.count()
        );
    }
    let _ = writeln!(
        s,
        "{} of {} pairs found by the planner; {budget} expansions per pair{}",
        rows.iter().filter(|r| r.rrt.is_some()).count(),
        rows.len(),
        if compared {
            ""
        } else {
            " (give --waypoints for route and bot estimates)"
        }
    );
    s
}

/// The table as CSV, a header line first.
pub fn table_csv(rows: &[PairTime]) -> String {
    let mut s = String::from(CSV_HEAD);
    for r in rows {
        s += &csv_line(r);
    }
    s
}

/// The CSV table's header line.
pub const CSV_HEAD: &str = "from,to,rrt_seconds,graph_seconds,best_seconds,best_from,expansions,first_at,route_seconds,bot_seconds\n";

/// One pair's CSV line.
pub fn csv_line(r: &PairTime) -> String {
    let cell = |t: Option<f32>| t.map(|t| format!("{t:.2}")).unwrap_or_default();
    let best = r.quicker();
    format!(
        "{},{},{},{},{},{},{},{},{},{}\n",
        r.from,
        r.to,
        cell(r.rrt),
        cell(r.graph),
        cell(best.map(|b| b.0)),
        best.map(|b| b.1).unwrap_or_default(),
        r.expansions,
        r.first_at.map(|f| f.to_string()).unwrap_or_default(),
        cell(r.route),
        cell(r.bot)
    )
}

/// One pair's line: the planner's time, its expansions and first solution, the area
/// graph's time, and with a waypoint graph (`waypoints`: route and bot) those two estimates
/// (`not found` where there is none).
pub fn pair_text(
    from: &ItemRef,
    to: &ItemRef,
    plan: &Plan,
    graph: Option<f32>,
    waypoints: Option<(Option<f32>, Option<f32>)>,
) -> String {
    let mut s = format!(
        "{} -> {}: planner {} ({} expansions, first solution after {}), area graph {}",
        from.label,
        to.label,
        seconds(plan.time(), "not found"),
        plan.expansions,
        plan.first_at
            .map(|f| f.to_string())
            .unwrap_or_else(|| "–".into()),
        seconds(graph, "no route"),
    );
    if let Some((route, bot)) = waypoints {
        s += &format!(
            ", route/320 {}, bot {}",
            seconds(route, "not found"),
            seconds(bot, "not found")
        );
    }
    s
}
