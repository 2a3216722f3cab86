//! How bots do on a map, in one record: what loading said, the compiled area graph, lint's
//! findings, compiled-navigation item tours (predicted against taken), explorers' coverage
//! and an 8-bot brain match's sanity. `botarena survey` runs it over many maps, one thread
//! each: the team's instrument for judging navigation on maps it did not tune on, and a level
//! designer's answer to "how do bots do on my map".

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::Serialize;

use crate::aas::{CompileParams, compile};
use crate::bot::brain::Skill;
use crate::bot::control::ControllerConfig;
use crate::lint::{LintParams, lint};
use crate::map::load_level;
use crate::scenario::explore::{ExploreConfig, coverage, explore_with, nav_coverage};
use crate::scenario::tour::{tour_compiled, tour_items};
use crate::sim::SimEvent;
use crate::tick::{Match, MatchConfig, PlayerConfig};

pub mod doing;
pub mod planner;

use doing::{LegDoing, Spent, most_first};

/// What a survey runs.
#[derive(Clone, Debug, Serialize)]
pub struct SurveyParams {
    /// Seeds of the item tours (each tours every item once); the first also seeds the
    /// exploration and the brain match.
    pub seeds: Vec<u64>,
    /// Seconds each tour leg is given.
    pub leg_seconds: f32,
    /// Explorers, and their simulated seconds (0: no exploration).
    pub explorers: usize,
    /// Simulated seconds of exploring.
    pub explore_seconds: f64,
    /// Brain bots, and the match's simulated seconds (0: no match).
    pub match_bots: usize,
    /// Simulated seconds of the brain match.
    pub match_seconds: f64,
    /// Planner expansions per weapon pair (0: no planner pairs).
    pub planner_expansions: usize,
}

impl Default for SurveyParams {
    fn default() -> Self {
        SurveyParams {
            seeds: (1..=5).collect(),
            leg_seconds: 60.0,
            explorers: 4,
            explore_seconds: 600.0,
            match_bots: 8,
            match_seconds: 300.0,
            planner_expansions: crate::planner::PlanConfig::default().expansions,
        }
    }
}

/// One map's survey.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MapSurvey {
    /// The map file.
    pub map: String,
    /// What stopped the survey (a map that does not load or compile), if anything did.
    pub error: Option<String>,
    /// Warnings from loading (skipped brushes, bad values).
    pub warnings: usize,
    /// Spawn points and items.
    pub spawns: usize,
    /// Items.
    pub items: usize,
    /// The compiled area graph: areas, reachabilities, wall-clock seconds to compile.
    pub areas: usize,
    /// Reachabilities.
    pub reachabilities: usize,
    /// Seconds the compile took (one thread).
    pub compile_seconds: f64,
    /// Lint's findings by kind.
    pub lint: BTreeMap<&'static str, usize>,
    /// The compiled-navigation item tours.
    pub tour: TourSummary,
    /// Explorers' coverage (none when not run).
    pub explore: Option<ExploreSummary>,
    /// The brain match (none when not run).
    pub brain: Option<BrainSummary>,
    /// The travel-time planner over the weapon pairs (none when not run).
    pub planner: Option<planner::PlannerSummary>,
}

/// Item tours summed over seeds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TourSummary {
    /// Legs toured (items × seeds).
    pub legs: usize,
    /// Legs with a predicted route.
    pub predicted: usize,
    /// Legs where the bot touched the item in time.
    pub reached: usize,
    /// Reached within 10 % of the predicted time.
    pub within_10pct: usize,
    /// Deaths on the way.
    pub deaths: u32,
    /// The worst legs: not reached first, then the largest time over prediction.
    pub worst: Vec<WorstLeg>,
    /// Where the time of the legs that went badly (not reached, or over 10 %) went: seconds
    /// by what the bot was doing ([`doing::doing`]), most first — the failure classes.
    pub bad_leg_seconds: Vec<Spent>,
}

/// One leg that went badly.
#[derive(Clone, Debug, Serialize)]
pub struct WorstLeg {
    /// The tour's seed.
    pub seed: u64,
    /// The item (label).
    pub item: String,
    /// Where the bot set off from.
    pub from: [f32; 3],
    /// Seconds predicted (none: no route).
    pub predicted: Option<f32>,
    /// Seconds taken (none: not reached).
    pub took: Option<f32>,
    /// Deaths on the leg.
    pub deaths: u32,
    /// What the bot spent the leg doing, seconds, most first (at most three).
    pub doing: Vec<Spent>,
    /// What it died of, with how many.
    pub died_of: BTreeMap<&'static str, u32>,
    /// Where it was when a leg not reached ran out of time.
    pub ended_at: Option<[f32; 3]>,
}

/// What explorers learned.
#[derive(Clone, Debug, Serialize)]
pub struct ExploreSummary {
    /// Weapons and powerups with a waypoint, of those the map has.
    pub items_marked: usize,
    /// Weapons and powerups in the map.
    pub items: usize,
    /// Waypoints.
    pub waypoints: usize,
    /// Of them, those in places the compiled graph never leads back to (a spawn ledge, a
    /// one-way drop): no learned graph can join them to the rest
    /// ([`crate::scenario::explore::routable`]).
    pub one_way: usize,
    /// Share of the other waypoints in the largest strongly connected part (routable to
    /// and from each other).
    pub routable_share: f64,
    /// Share of all the waypoints in that part.
    pub routable_share_all: f64,
    /// Share of the compiled floor reachable from the spawns that has a waypoint near.
    pub floor_covered: f64,
}

/// An 8-bot brain match's sanity.
#[derive(Clone, Debug, Serialize)]
pub struct BrainSummary {
    /// Ticks run.
    pub ticks: u64,
    /// Deaths by cause.
    pub deaths: BTreeMap<&'static str, u32>,
    /// Suicides (deaths scored against oneself).
    pub suicides: u32,
    /// The longest any bot stayed alive within 64 units of one spot, seconds.
    pub longest_still: f32,
}

/// How many worst legs a survey keeps.
const WORST: usize = 3;

/// Surveys the map at `path` (see the module docs); a map that cannot be loaded or compiled
/// gives a record with its error.
pub fn survey(path: &Path, p: &SurveyParams) -> MapSurvey {
    let mut out = MapSurvey {
        map: path.display().to_string(),
        ..Default::default()
    };
    if let Err(e) = fill(path, p, &mut out) {
        out.error = Some(e);
    }
    out
}

fn fill(path: &Path, p: &SurveyParams, out: &mut MapSurvey) -> Result<(), String> {
    let (level, cmap) = load_level(path).map_err(|e| e.to_string())?;
    out.warnings = level.map.warnings.len();
    out.spawns = level.spawns.len();
    out.items = level.items.len();
    let clock = std::time::Instant::now();
    let params = CompileParams {
        threads: 1,
        ..Default::default()
    };
    let mesh = compile(&level, &cmap, &params, &mut |_, _, _| {}).map_err(|e| e.to_string())?;
    out.compile_seconds = clock.elapsed().as_secs_f64();
    out.areas = mesh.areas().len();
    out.reachabilities = mesh.reaches().len();
    for f in lint(&level, &cmap, &mesh, LintParams::default()).findings {
        *out.lint.entry(f.kind).or_default() += 1;
    }
    let level = Arc::new(level);
    let mesh = Arc::new(mesh);
    let items = tour_items(&level, &cmap);
    let mut legs = Vec::new();
    let mut doings: Vec<LegDoing> = Vec::new();
    let mut dt = 0.05;
    for &seed in &p.seeds {
        let mut leg = LegDoing::default();
        let stops = tour_compiled(
            Arc::clone(&level),
            cmap.clone(),
            Arc::clone(&mesh),
            &items,
            seed,
            p.leg_seconds,
            |m, stop| {
                // Called after each tick, then once more with the leg's stop.
                dt = m.sim.dt;
                match stop {
                    None => leg.tick(m),
                    Some(_) => doings.push(std::mem::take(&mut leg)),
                }
            },
        )
        .map_err(|e| e.to_string())?;
        legs.extend(stops.into_iter().map(|s| (seed, s)));
    }
    let t = &mut out.tour;
    t.legs = legs.len();
    t.predicted = legs.iter().filter(|(_, s)| s.predicted.is_some()).count();
    t.reached = legs
        .iter()
        .filter(|(_, s)| s.reached_after.is_some())
        .count();
    t.within_10pct = legs
        .iter()
        .filter(|(_, s)| s.ratio().is_some_and(|r| r <= 1.1))
        .count();
    t.deaths = legs.iter().map(|(_, s)| s.deaths).sum();
    // Not reached first, then by time over prediction; ties in tour order.
    let badness = |s: &crate::scenario::tour::CompiledStop| match s.reached_after {
        None => f32::INFINITY,
        Some(_) => s.ratio().unwrap_or(0.0),
    };
    let mut order: Vec<usize> = (0..legs.len()).collect();
    order.sort_by(|&a, &b| {
        badness(&legs[b].1)
            .total_cmp(&badness(&legs[a].1))
            .then(a.cmp(&b))
    });
    let mut lost: BTreeMap<String, f32> = BTreeMap::new();
    for (k, (_, s)) in legs.iter().enumerate() {
        if badness(s) > 1.1 {
            for x in doings[k].seconds(dt) {
                *lost.entry(x.doing).or_default() += x.seconds;
            }
        }
    }
    t.bad_leg_seconds = most_first(lost);
    t.worst = order
        .into_iter()
        .take(WORST)
        .filter(|&i| badness(&legs[i].1) > 1.1)
        .map(|i| {
            let (seed, s) = &legs[i];
            let d = &doings[i];
            WorstLeg {
                seed: *seed,
                item: s.item.label.clone(),
                from: s.from.to_array(),
                predicted: s.predicted,
                took: s.reached_after,
                deaths: s.deaths,
                doing: d.seconds(dt).into_iter().take(3).collect(),
                died_of: d.deaths.clone(),
                ended_at: s.reached_after.is_none().then(|| d.last.to_array()),
            }
        })
        .collect();
    let seed = p.seeds.first().copied().unwrap_or(1);
    if p.explorers > 0 && p.explore_seconds > 0.0 {
        let cfg = ExploreConfig {
            bots: p.explorers,
            seconds: p.explore_seconds,
            seed,
            tick_rate: 20,
            every: p.explore_seconds,
            connect: true,
        };
        let guide = Some(Arc::clone(&mesh));
        let m = explore_with(Arc::clone(&level), cmap.clone(), &cfg, guide, |_| {})
            .map_err(|e| e.to_string())?;
        let graph = &m.learned.waypoints;
        let r = coverage(&level, &m.sim.cmap, graph, p.explorers, m.time(), seed);
        let spawns: Vec<_> = level.spawns.iter().map(|s| s.origin).collect();
        let nav = nav_coverage(&mesh, &level, &m.sim.cmap, graph, &spawns);
        let routable = crate::scenario::explore::routable(&mesh, graph);
        out.explore = Some(ExploreSummary {
            items_marked: r.items_with_waypoint,
            items: r.important_items,
            waypoints: routable.waypoints,
            one_way: routable.one_way,
            routable_share: routable.share(),
            routable_share_all: routable.raw_share(),
            floor_covered: nav.reachable_near_share(),
        });
    }
    if p.match_bots > 0 && p.match_seconds > 0.0 {
        out.brain = Some(brain_match(&level, &cmap, p, seed)?);
    }
    if p.planner_expansions > 0 {
        out.planner = Some(planner::weapon_pairs(
            &level,
            &cmap,
            &mesh,
            p.planner_expansions,
            seed,
        ));
    }
    Ok(())
}

/// An `p.match_bots`-bot brain match of `p.match_seconds` on the level.
fn brain_match(
    level: &Arc<crate::map::Level>,
    cmap: &crate::map::CollisionMap,
    p: &SurveyParams,
    seed: u64,
) -> Result<BrainSummary, String> {
    let players = (0..p.match_bots)
        .map(|i| PlayerConfig {
            name: format!("bot{i}"),
            controller: ControllerConfig::Brain(Skill::default()),
            spawn: None,
            start: None,
            senses: Default::default(),
            navigation: Default::default(),
        })
        .collect();
    let cfg = MatchConfig::new(seed, players);
    let mut m = Match::new(Arc::clone(level), cmap.clone(), &cfg).map_err(|e| e.to_string())?;
    m.sim.threads = 1;
    let ticks = (p.match_seconds / f64::from(m.sim.dt)).round() as u64;
    let mut deaths = BTreeMap::new();
    for _ in 0..ticks {
        m.step();
        for e in &m.sim.events {
            if let SimEvent::Death { cause, .. } = e {
                *deaths.entry(*cause).or_default() += 1;
            }
        }
    }
    let stats: Vec<_> = (0..m.sim.players.len())
        .filter_map(|i| m.sim.player_stats(i))
        .collect();
    Ok(BrainSummary {
        ticks,
        deaths,
        suicides: stats.iter().map(|s| s.suicides).sum(),
        longest_still: stats.iter().map(|s| s.longest_still).fold(0.0, f32::max),
    })
}

/// A lint finding kind in a few letters, for the table (docs/output.md lists them).
fn short_kind(kind: &str) -> &str {
    match kind {
        "unreachable_item" => "unreach",
        "far_spawn" => "far",
        "one_way_trap" => "trap",
        "only_by_lift" => "lift",
        "only_by_long_fall" => "fall",
        "off_the_floors" => "off",
        other => other,
    }
}

/// The table's header line.
pub fn table_head() -> String {
    format!(
        "{:<16} {:>4} {:>6} {:>7} {:>7}  {:<22} {:>17} {:>6}  {:>15}  {:<24}  {}\n",
        "map",
        "warn",
        "areas",
        "reaches",
        "compile",
        "lint",
        "tour pred/reach/10%",
        "deaths",
        "explore it/rt/fl",
        "match deaths (suic) still",
        "planner found/5%"
    )
}

/// One map's line of the table, and its worst legs below it.
pub fn table_line(s: &MapSurvey) -> String {
    let name = Path::new(&s.map)
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| s.map.clone());
    if let Some(e) = &s.error {
        return format!("{name:<16} error: {e}\n");
    }
    let lint = if s.lint.is_empty() {
        "clean".to_string()
    } else {
        s.lint
            .iter()
            .map(|(k, n)| format!("{n} {}", short_kind(k)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let t = &s.tour;
    let explore = s.explore.as_ref().map_or("–".to_string(), |e| {
        format!(
            "{}/{} {:.0}% {:.0}%",
            e.items_marked,
            e.items,
            100.0 * e.routable_share,
            100.0 * e.floor_covered
        )
    });
    let brain = s.brain.as_ref().map_or("–".to_string(), |b| {
        format!(
            "{} ({}) {:.0} s",
            b.deaths.values().sum::<u32>(),
            b.suicides,
            b.longest_still
        )
    });
    let planner = s.planner.as_ref().map_or("–".to_string(), |p| {
        format!("{}/{} {}", p.found, p.connected, p.within_5pct)
    });
    let mut out = format!(
        "{name:<16} {:>4} {:>6} {:>7} {:>6.1}s  {lint:<22} {:>17} {:>6}  {explore:>15}  {brain:<24}  {planner}\n",
        s.warnings,
        s.areas,
        s.reachabilities,
        s.compile_seconds,
        format!("{}/{}/{}", t.predicted, t.reached, t.within_10pct),
        t.deaths,
    );
    let secs = |x: Option<f32>| x.map_or("–".to_string(), |x| format!("{x:.1} s"));
    let spent = |v: &[Spent]| {
        v.iter()
            .map(|x| format!("{} {:.0} s", x.doing, x.seconds))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !t.bad_leg_seconds.is_empty() {
        let top = &t.bad_leg_seconds[..t.bad_leg_seconds.len().min(4)];
        out += &format!("    slow and missed legs' time: {}\n", spent(top));
    }
    if let Some(p) = &s.planner {
        for w in &p.worst {
            out += &format!(
                "    planner worst: {} -> {}: planner {}, graph {}\n",
                w.from,
                w.to,
                w.rrt
                    .map_or("not found".to_string(), |x| format!("{x:.2} s")),
                w.graph.map_or("–".to_string(), |x| format!("{x:.2} s"))
            );
        }
    }
    for w in &t.worst {
        let died: Vec<String> = w
            .died_of
            .iter()
            .map(|(cause, n)| format!("{n} {cause}"))
            .collect();
        out += &format!(
            "    worst: seed {} {} from ({:.0} {:.0} {:.0}): predicted {}, took {}{}{}; {}\n",
            w.seed,
            w.item,
            w.from[0],
            w.from[1],
            w.from[2],
            secs(w.predicted),
            secs(w.took),
            w.ended_at.map_or(String::new(), |e| format!(
                ", left at ({:.0} {:.0} {:.0})",
                e[0], e[1], e[2]
            )),
            if died.is_empty() {
                String::new()
            } else {
                format!(", died: {}", died.join(", "))
            },
            spent(&w.doing)
        );
    }
    out
}
