//! `botarena lint`: what a level designer wants to know about a map's flow, from its
//! compiled navigation ([`crate::aas`]) and area routing ([`crate::aas::route`]).
//!
//! - A leak: a way out of the map from an entity inside ([`crate::map::seal`]).
//! - Items some spawn point cannot reach (and from which spawns); one that no spawn point
//!   reaches on the area graph is checked again with the planner over the player physics
//!   and reported only where that finds no way either, with why (`why`).
//! - Spawn points far, in seconds, from every weapon; each spawn's time to its nearest
//!   weapon and armour.
//! - One-way traps: places a player can get to from a spawn but from which no spawn can be
//!   reached again without dying (liquids that kill are left out: they are not survived).
//! - Items that only a lift or a long fall (one that hurts: more than [`HURTING_FALL`]
//!   units) leads to.
//! - Where players are ([`TrafficCounter`]): the area each living player stands in, tick by
//!   tick, over a batch of matches, as a density per floor patch.
//!
//! Routes use every reachability kind but locked doors (a deathmatch player has no keys);
//! movers are taken as the routing takes them (it waits for them).
//!
//! Entry point: [`lint`].

mod why;

use glam::Vec3;
use serde::Serialize;

use crate::aas::route::{Travel, build_cache, seconds_from};
use crate::aas::{AreaFlags, NavMesh, NavWorld, ReachKind};
use crate::map::level::ItemKind;
use crate::map::{CollisionMap, Level};
use crate::physics::pmove::PhysicsParams;

/// A fall longer than this hurts in Quake (landing faster than 650 units/s: `650² / 1600`).
pub const HURTING_FALL: f32 = 264.0;

/// Settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LintParams {
    /// A spawn point whose nearest weapon is farther than this, seconds, is flagged.
    pub far_seconds: f32,
    /// Planner expansions from each start when an item no route reaches is rechecked by
    /// the travel-time planner: a few seconds of running anywhere near at the default.
    /// Fewer answer sooner and find fewer ways.
    pub plan_expansions: usize,
}

impl Default for LintParams {
    fn default() -> Self {
        LintParams {
            far_seconds: 10.0,
            plan_expansions: 30_000,
        }
    }
}

/// One spawn point.
#[derive(Clone, Debug, Serialize)]
pub struct SpawnReport {
    /// Its number (the map's order of spawn points).
    pub index: usize,
    /// Where a player starts.
    pub origin: Vec3,
    /// Its area (`None`: not on any floor navigation knows).
    pub area: Option<u32>,
    /// The nearest weapon by route time: (label, seconds).
    pub nearest_weapon: Option<(String, f32)>,
    /// The nearest armour by route time.
    pub nearest_armour: Option<(String, f32)>,
}

/// One item.
#[derive(Clone, Debug, Serialize)]
pub struct ItemReport {
    /// Its label (classname, numbered where a map has several).
    pub label: String,
    /// Where a player stands to take it.
    pub stand: Vec3,
    /// Its area.
    pub area: Option<u32>,
    /// The spawn points (numbers) that cannot reach it.
    pub unreachable_from: Vec<usize>,
    /// The quickest any spawn gets there, seconds.
    pub best_seconds: Option<f32>,
    /// `"a lift"` or `"a long fall"` where every way there takes one.
    pub only_by: Option<&'static str>,
    /// Where the area graph reaches it from no spawn point but the planner, run over the
    /// player physics from the nearest floors players do reach, finds a way: from where and
    /// in how many seconds (the graph lacks that way; the item is not reported).
    pub planner_reaches: Option<(Vec3, f32)>,
}

/// Areas a player gets into from a spawn and cannot leave for any spawn without dying.
#[derive(Clone, Debug, Serialize)]
pub struct Trap {
    /// Its areas.
    pub areas: Vec<u32>,
    /// Their bounds (origins).
    pub mins: Vec3,
    /// See `mins`.
    pub maxs: Vec3,
    /// A reachability into it (kind and start), as a hint of how one gets in.
    pub entered_by: Option<(String, Vec3)>,
}

/// One thing worth a designer's look.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `leak`, `unreachable_item`, `far_spawn`, `one_way_trap`, `only_by_lift`,
    /// `only_by_long_fall`, `off_the_floors`.
    pub kind: &'static str,
    /// For people.
    pub message: String,
    /// Where.
    pub at: Vec3,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct LintReport {
    /// Map name.
    pub map: String,
    /// Settings used.
    pub params: LintParams,
    /// Spawn points.
    pub spawns: Vec<SpawnReport>,
    /// Items.
    pub items: Vec<ItemReport>,
    /// One-way traps.
    pub traps: Vec<Trap>,
    /// Everything flagged, in the order above.
    pub findings: Vec<Finding>,
    /// The way out of the map, where it leaks ([`crate::map::seal`]).
    pub leak: Option<crate::map::seal::Leak>,
    /// Where players were in a batch of matches (`lint --traffic`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traffic: Option<Traffic>,
}

/// One area's share of the traffic.
#[derive(Clone, Debug, Serialize)]
pub struct AreaTraffic {
    /// The area.
    pub area: u32,
    /// Player-ticks spent standing or swimming in it.
    pub ticks: u64,
    /// Its share of all player-ticks.
    pub share: f32,
    /// Ticks per 64×64-unit patch of its floor, relative to the busiest area's (0..=1): the
    /// heat it is drawn with.
    pub heat: f32,
    /// Its box.
    pub mins: Vec3,
    /// Its box.
    pub maxs: Vec3,
}

/// Where living players were, tick by tick, over a batch of matches on the map.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Traffic {
    /// Matches counted.
    pub matches: usize,
    /// Living player-ticks counted (those over no area are counted here only).
    pub player_ticks: u64,
    /// Player-ticks over no area (in the air high above a floor, or off the graph).
    pub off_graph: u64,
    /// Areas with traffic, busiest first (ticks per floor patch), ties by area id.
    pub areas: Vec<AreaTraffic>,
    /// Areas nobody stood in.
    pub unvisited_areas: usize,
    /// The share of the areas' floor nobody stood on.
    pub unvisited_floor: f32,
}

/// Counts area traffic: add each match with [`TrafficCounter::count`], then
/// [`TrafficCounter::finish`].
#[derive(Clone, Debug)]
pub struct TrafficCounter {
    ticks: Vec<u64>,
    matches: usize,
    player_ticks: u64,
    off_graph: u64,
}

impl TrafficCounter {
    /// Nothing counted yet, over `mesh`'s areas.
    pub fn new(mesh: &NavMesh) -> TrafficCounter {
        TrafficCounter {
            ticks: vec![0; mesh.areas().len()],
            matches: 0,
            player_ticks: 0,
            off_graph: 0,
        }
    }

    /// Runs `m` for `ticks` ticks (or until it ends), counting each living player's area
    /// after every tick; `each` hears the ticks done (a progress bar).
    pub fn count(
        &mut self,
        mesh: &NavMesh,
        m: &mut crate::tick::Match,
        ticks: u64,
        mut each: impl FnMut(u64),
    ) {
        self.matches += 1;
        crate::scenario::run_match(m, ticks, |m| {
            for i in 0..m.sim.players.len() {
                if !m.sim.player_vitals(i).is_some_and(|v| v.alive) {
                    continue;
                }
                let Some(s) = m.sim.player_state(i) else {
                    continue;
                };
                self.player_ticks += 1;
                match mesh.area_at(s.origin) {
                    Some(a) => self.ticks[a as usize] += 1,
                    None => self.off_graph += 1,
                }
            }
            each(m.sim.tick);
        });
    }

    /// The summary, areas busiest first by ticks per 64×64 patch of floor.
    pub fn finish(&self, mesh: &NavMesh) -> Traffic {
        let patches = |a: &crate::aas::Area| {
            let d = a.maxs - a.mins;
            ((d.x.max(8.0) * d.y.max(8.0)) / (64.0 * 64.0)).max(1.0)
        };
        let density: Vec<f32> = mesh
            .areas()
            .iter()
            .zip(&self.ticks)
            .map(|(a, &t)| t as f32 / patches(a))
            .collect();
        let top = density.iter().copied().fold(0.0f32, f32::max).max(1e-9);
        let total = self.player_ticks.max(1) as f32;
        let mut areas: Vec<AreaTraffic> = mesh
            .areas()
            .iter()
            .enumerate()
            .filter(|(i, _)| self.ticks[*i] > 0)
            .map(|(i, a)| AreaTraffic {
                area: i as u32,
                ticks: self.ticks[i],
                share: self.ticks[i] as f32 / total,
                heat: density[i] / top,
                mins: a.mins,
                maxs: a.maxs,
            })
            .collect();
        areas.sort_by(|a, b| b.heat.total_cmp(&a.heat).then(a.area.cmp(&b.area)));
        let floor = |a: &crate::aas::Area| {
            let d = a.maxs - a.mins;
            (d.x * d.y).max(0.0)
        };
        let all: f32 = mesh.areas().iter().map(floor).sum();
        let unvisited: f32 = mesh
            .areas()
            .iter()
            .enumerate()
            .filter(|(i, _)| self.ticks[*i] == 0)
            .map(|(_, a)| floor(a))
            .sum();
        Traffic {
            matches: self.matches,
            player_ticks: self.player_ticks,
            off_graph: self.off_graph,
            unvisited_areas: self.ticks.iter().filter(|t| **t == 0).count(),
            unvisited_floor: if all > 0.0 { unvisited / all } else { 0.0 },
            areas,
        }
    }
}

/// Where a player put at `p` comes to rest (three settles: long enough to land), and its area.
fn placed(world: &NavWorld, mesh: &NavMesh, p: Vec3) -> (Vec3, Option<u32>) {
    let mut o = p;
    for _ in 0..3 {
        o = crate::nav::sample::stand_still(&world.cmap, &PhysicsParams::default(), o).origin;
    }
    (o, mesh.area_at(o).or_else(|| mesh.area_at(p)))
}

/// Lints `level` (collision world `cmap`) with its compiled navigation `mesh`.
pub fn lint(level: &Level, cmap: &CollisionMap, mesh: &NavMesh, params: LintParams) -> LintReport {
    let world = NavWorld::new(level, cmap);
    let travel = Travel::ALL;
    // Spawn points: deathmatch ones, or the single-player start where there are none.
    let mut spawn_points: Vec<Vec3> = level.spawns.iter().map(|s| s.origin).collect();
    if spawn_points.is_empty() {
        spawn_points.extend(
            level
                .map
                .entities
                .iter()
                .filter(|e| e.classname == "info_player_start")
                .filter_map(|e| {
                    let v: Vec<f32> = e
                        .get("origin")?
                        .split_whitespace()
                        .filter_map(|x| x.parse().ok())
                        .collect();
                    (v.len() == 3).then(|| Vec3::new(v[0], v[1], v[2] + 1.0))
                }),
        );
    }
    let spawns: Vec<(Vec3, Option<u32>)> = spawn_points
        .iter()
        .map(|&p| placed(&world, mesh, p))
        .collect();
    let refs = crate::planner::times::items(level, cmap);
    let items: Vec<(String, ItemKind, Vec3, Option<u32>)> = refs
        .iter()
        .map(|it| {
            let (o, a) = placed(&world, mesh, it.stand);
            (it.label.clone(), level.items[it.index].kind, o, a)
        })
        .collect();
    // Route times from every spawn to every item: a cache per item's area.
    let mut times = vec![vec![None; items.len()]; spawns.len()];
    for (j, (_, _, stand, area)) in items.iter().enumerate() {
        let Some(a) = *area else { continue };
        let cache = build_cache(mesh, a, travel);
        for (i, (o, sa)) in spawns.iter().enumerate() {
            if sa.is_some() {
                times[i][j] = crate::aas::route::route(mesh, &cache, *o, *stand)
                    .map(|r| r.seconds)
                    .or_else(|| seconds_from(mesh, &cache, *o).map(|x| x.0));
            }
        }
    }
    let mut findings = Vec::new();
    // A leak first: a map that is not sealed is not what its author will ship.
    let leak = crate::map::seal::find_leak(level);
    if let Some(l) = &leak {
        findings.push(Finding {
            kind: "leak",
            message: format!(
                "the map leaks: {} (line {}) at ({:.0} {:.0} {:.0}) has a way out, {:.0} units \
                 long, through ({:.0} {:.0} {:.0}) (--pointfile writes it for TrenchBroom)",
                l.classname,
                l.line,
                l.origin[0],
                l.origin[1],
                l.origin[2],
                l.length(),
                l.exit()[0],
                l.exit()[1],
                l.exit()[2],
            ),
            at: Vec3::from(l.origin),
        });
    }
    let nearest = |i: usize, want: &dyn Fn(ItemKind) -> bool| {
        items
            .iter()
            .enumerate()
            .filter(|(_, it)| want(it.1))
            .filter_map(|(j, it)| times[i][j].map(|t| (it.0.clone(), t)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    };
    let spawn_reports: Vec<SpawnReport> = spawns
        .iter()
        .enumerate()
        .map(|(i, &(o, a))| SpawnReport {
            index: i,
            origin: o,
            area: a,
            nearest_weapon: nearest(i, &|k| k == ItemKind::Weapon),
            nearest_armour: nearest(i, &|k| k == ItemKind::Armor),
        })
        .collect();
    for s in &spawn_reports {
        if s.area.is_none() {
            findings.push(Finding {
                kind: "off_the_floors",
                message: format!("spawn {} at {}: not on any floor", s.index, s.origin),
                at: s.origin,
            });
            continue;
        }
        let has_weapons = items.iter().any(|it| it.1 == ItemKind::Weapon);
        match &s.nearest_weapon {
            Some((w, t)) if *t > params.far_seconds => findings.push(Finding {
                kind: "far_spawn",
                message: format!(
                    "spawn {} at {}: the nearest weapon ({w}) is {t:.1} s away (over {:.0} s)",
                    s.index, s.origin, params.far_seconds
                ),
                at: s.origin,
            }),
            None if has_weapons => findings.push(Finding {
                kind: "far_spawn",
                message: format!(
                    "spawn {} at {}: no weapon can be reached",
                    s.index, s.origin
                ),
                at: s.origin,
            }),
            _ => {}
        }
    }
    // Only by a lift or a long fall: unreachable from every spawn once those are left out.
    let reach_without = |leave_out: &dyn Fn(&crate::aas::Reach) -> bool| {
        let mut seen = vec![false; mesh.areas().len()];
        for &(_, a) in &spawns {
            if let Some(a) = a {
                let s = mesh.reachable_from(a, |r| travel.permits(mesh, r) && !leave_out(r));
                for (x, y) in seen.iter_mut().zip(s) {
                    *x |= y;
                }
            }
        }
        seen
    };
    let no_lift = reach_without(&|r| r.kind == ReachKind::Elevator);
    let no_fall =
        reach_without(&|r| r.kind == ReachKind::WalkOffLedge && r.start.z - r.end.z > HURTING_FALL);
    let reached_any = reach_without(&|_| false);
    let mut recheck = why::Recheck::new(level, cmap, mesh, &reached_any, params.plan_expansions);
    let mut item_reports = Vec::new();
    for (j, (label, _, stand, area)) in items.iter().enumerate() {
        let unreachable_from: Vec<usize> = (0..spawns.len())
            .filter(|&i| spawns[i].1.is_some() && times[i][j].is_none())
            .collect();
        let best = (0..spawns.len())
            .filter_map(|i| times[i][j])
            .min_by(|a, b| a.total_cmp(b));
        let only_by = match *area {
            Some(a) if best.is_some() && !no_lift[a as usize] => Some("a lift"),
            Some(a) if best.is_some() && !no_fall[a as usize] => Some("a long fall"),
            _ => None,
        };
        let n = spawns.iter().filter(|s| s.1.is_some()).count();
        // Out of every spawn's reach on the graph: checked again over the physics.
        let verdict = (n > 0 && (area.is_none() || unreachable_from.len() == n))
            .then(|| recheck.why(&refs[j], *stand));
        let planner_reaches = match &verdict {
            Some(why::Verdict::Reached(from, t)) => Some((*from, *t)),
            _ => None,
        };
        let because = match &verdict {
            Some(why::Verdict::Unreached(w)) => format!(": {w}"),
            _ => String::new(),
        };
        if planner_reaches.is_some() {
        } else if area.is_none() {
            findings.push(Finding {
                kind: "off_the_floors",
                message: format!(
                    "{label} at {stand}: not on any floor a player can stand on{because}"
                ),
                at: *stand,
            });
        } else if !unreachable_from.is_empty() {
            findings.push(Finding {
                kind: "unreachable_item",
                message: if unreachable_from.len() == n {
                    format!("{label} at {stand}: no spawn point reaches it{because}")
                } else {
                    format!(
                        "{label} at {stand}: not reached from spawn(s) {:?}",
                        unreachable_from
                    )
                },
                at: *stand,
            });
        }
        if let Some(by) = only_by {
            findings.push(Finding {
                kind: if by == "a lift" {
                    "only_by_lift"
                } else {
                    "only_by_long_fall"
                },
                message: format!("{label} at {stand}: every way there takes {by}"),
                at: *stand,
            });
        }
        item_reports.push(ItemReport {
            label: label.clone(),
            stand: *stand,
            area: *area,
            unreachable_from,
            best_seconds: best,
            only_by,
            planner_reaches,
        });
    }
    let traps = traps(mesh, &spawns, travel);
    for t in &traps {
        findings.push(Finding {
            kind: "one_way_trap",
            message: format!(
                "{} area(s) at {}..{}: once in, no spawn can be reached again without dying{}",
                t.areas.len(),
                t.mins,
                t.maxs,
                t.entered_by
                    .as_ref()
                    .map(|(k, p)| format!(" (entered by {k} from {p})"))
                    .unwrap_or_default()
            ),
            at: (t.mins + t.maxs) * 0.5,
        });
    }
    LintReport {
        map: level.map.name.clone(),
        params,
        spawns: spawn_reports,
        items: item_reports,
        traps,
        findings,
        leak,
        traffic: None,
    }
}

/// Areas reached from a spawn that reach no spawn again, grouped by the reachabilities
/// between them; deadly liquids left out (nobody survives there to be trapped) and the
/// areas that are there only with a mover moved (the mover comes back).
fn traps(mesh: &NavMesh, spawns: &[(Vec3, Option<u32>)], travel: Travel) -> Vec<Trap> {
    let n = mesh.areas().len();
    let starts: Vec<u32> = spawns.iter().filter_map(|s| s.1).collect();
    let mut reached = vec![false; n];
    for &a in &starts {
        for (x, y) in reached
            .iter_mut()
            .zip(mesh.reachable_from(a, |r| travel.permits(mesh, r)))
        {
            *x |= y;
        }
    }
    // Backwards from the spawns: the areas that can get back to one.
    let mut back = vec![false; n];
    let mut queue: std::collections::VecDeque<u32> = starts.iter().copied().collect();
    for &a in &starts {
        back[a as usize] = true;
    }
    while let Some(a) = queue.pop_front() {
        for r in mesh.reachabilities_to(a) {
            if travel.permits(mesh, r) && !back[r.from as usize] {
                back[r.from as usize] = true;
                queue.push_back(r.from);
            }
        }
    }
    let deadly = AreaFlags::LAVA.0 | AreaFlags::SLIME.0;
    let trapped: Vec<bool> = (0..n)
        .map(|a| {
            let area = &mesh.areas()[a];
            reached[a] && !back[a] && area.flags.0 & deadly == 0 && area.moved.is_none()
        })
        .collect();
    let mut group = vec![u32::MAX; n];
    let mut out = Vec::new();
    for seed in 0..n {
        if !trapped[seed] || group[seed] != u32::MAX {
            continue;
        }
        let g = out.len() as u32;
        group[seed] = g;
        let mut members = vec![seed as u32];
        let mut k = 0;
        while k < members.len() {
            let a = members[k];
            k += 1;
            for b in mesh.neighbours(a) {
                if trapped[b as usize] && group[b as usize] == u32::MAX {
                    group[b as usize] = g;
                    members.push(b);
                }
            }
        }
        members.sort_unstable();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for &a in &members {
            lo = lo.min(mesh.areas()[a as usize].mins);
            hi = hi.max(mesh.areas()[a as usize].maxs);
        }
        let entered_by = members.iter().find_map(|&a| {
            mesh.reachabilities_to(a)
                .find(|r| reached[r.from as usize] && group[r.from as usize] != g)
                .map(|r| (r.kind.name().to_string(), r.start))
        });
        out.push(Trap {
            areas: members,
            mins: lo,
            maxs: hi,
            entered_by,
        });
    }
    out
}

impl LintReport {
    /// The report for people.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: {} spawn points, {} items; {} finding(s)",
            self.map,
            self.spawns.len(),
            self.items.len(),
            self.findings.len()
        );
        for f in &self.findings {
            let _ = writeln!(s, "  {:<18} {}", f.kind, f.message);
        }
        let _ = writeln!(
            s,
            "spawn points (route seconds to the nearest weapon / armour):"
        );
        for sp in &self.spawns {
            let show = |x: &Option<(String, f32)>| match x {
                Some((l, t)) => format!("{l} {t:.1} s"),
                None => "none".into(),
            };
            let _ = writeln!(
                s,
                "  {:>3} {:<28} weapon: {:<34} armour: {}",
                sp.index,
                format!("{}", sp.origin),
                show(&sp.nearest_weapon),
                show(&sp.nearest_armour)
            );
        }
        if let Some(t) = &self.traffic {
            let _ = writeln!(
                s,
                "traffic over {} match(es), {} player-ticks ({} over no area): {} of {} areas never stood in ({:.0} % of the floor); busiest (ticks per 64x64 patch):",
                t.matches,
                t.player_ticks,
                t.off_graph,
                t.unvisited_areas,
                t.unvisited_areas + t.areas.len(),
                100.0 * t.unvisited_floor
            );
            for a in t.areas.iter().take(8) {
                let c = (a.mins + a.maxs) * 0.5;
                let _ = writeln!(
                    s,
                    "  area {:>5} at ({:.0} {:.0} {:.0}): {:.1} % of the time, heat {:.2}",
                    a.area,
                    c.x,
                    c.y,
                    a.mins.z,
                    100.0 * a.share,
                    a.heat
                );
            }
        }
        s
    }
}
