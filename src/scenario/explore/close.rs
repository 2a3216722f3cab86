//! The closing pass's planned part: where a part of the learned graph has no known way
//! into it from the routable part (or none out of it back), the travel-time planner looks
//! for one through the physics between their nearest waypoints, and the way it finds is
//! added as a chain of waypoints ([`super::lay`]); where it finds none, the same pairs
//! guided by the compiled area graph (when there is one), then the way a bot of compiled
//! navigation takes between them, then a way through a teleporter nobody took.
//!
//! Explorers link only the waypoints they walk between. A part they entered by spawning in
//! it, or by a drop, and left by a teleporter stays one-way when nobody happened to walk
//! back in the other way in the time given, however short that walk is (round one corner
//! of a corridor: no straight line, so [`WaypointGraph::connect_strays`] cannot join it).

use std::sync::Arc;

use glam::Vec3;

use super::lay::{Carrier, PLAN_LINK, carriers, lay_chain};
use crate::aas::NavMesh;
use crate::map::{CollisionMap, Level};
use crate::nav::waypoints::{Travel, WaypointGraph, WaypointKind};
use crate::nav::{ReachParams, reachable};
use crate::physics::pmove::{PhysicsParams, PlayerState};
use crate::planner::{Goal, PlanConfig};

/// Pairs of waypoints the planner is asked about per part and direction: this many
/// nearest, then this many more on one level ([`LEVEL`]).
pub const PLAN_PAIRS: usize = 3;

/// Farthest apart (units) two waypoints the planner is asked to join are.
pub const PLAN_RADIUS: f32 = 768.0;

/// Expansions per pair: a way round a corner or two is found in a few thousand.
pub const PLAN_EXPANSIONS: usize = 20_000;

/// Waypoints a chain may add.
pub const PLAN_CHAIN: usize = 16;

/// Rounds: a part joined lets the parts beyond it join next.
pub const PLAN_ROUNDS: usize = 4;

/// Joins the parts of `graph` outside its routable part (largest strongly connected
/// component), however small (a waypoint or two on a ledge a drop left), in each direction
/// that has no route yet, by ways the planner finds in `level` (in the world it plans in:
/// doors that open on approach open, lifts ridden, teleporters taken). Where the planner's own search finds
/// no way for any pair, and the compiled area graph `mesh` is given, the pairs are planned
/// again guided by it (its route run through the physics starts the tree): the way out of a
/// part is often long and leads off from the straight line to the core, where the search
/// alone runs out of expansions. Returns the links added.
pub fn plan_strays(
    graph: &mut WaypointGraph,
    level: &Arc<Level>,
    cmap: &CollisionMap,
    mesh: Option<Arc<NavMesh>>,
) -> usize {
    let base = PlanConfig {
        expansions: PLAN_EXPANSIONS,
        stop_at_first: true,
        ..Default::default()
    };
    // The world with nobody in it (the explorers who learned it have left).
    let mut empty = cmap.clone();
    empty.clear_bodies();
    let (open, free, cfg) = crate::planner::times::planning(level, &empty, &base);
    let guided = mesh.as_ref().map(|m| PlanConfig {
        area_metric: Some(Arc::new(crate::planner::AreaMetric::new(
            Arc::clone(m),
            level,
        ))),
        ..cfg.clone()
    });
    let free = &free[..];
    let carriers = carriers(level);
    let physics = PhysicsParams::default();
    // A planned way may walk off a ledge as deep as explorers walk off themselves (the
    // straight-line test's own limit is a cautious 200 units): a part whose only way out
    // is such a drop stayed one-way where nobody happened to take it.
    let params = ReachParams {
        max_distance: PLAN_LINK,
        max_fall: crate::bot::explore::MAX_DROP,
        ..Default::default()
    };
    let mut added = 0;
    let mut failed = std::collections::BTreeSet::new();
    for _ in 0..PLAN_ROUNDS {
        let comps = graph.strong_components();
        let Some(core) = comps.first().cloned() else {
            break;
        };
        let before = added;
        let from_core = graph.routed_from(core[0]);
        for part in comps.iter().skip(1) {
            let into = part.iter().any(|&n| from_core[n as usize]);
            let out = graph.routed_from(part[0])[core[0] as usize];
            // Both ways or neither: a chain one way only would add waypoints outside the
            // routable part.
            let mut joined = graph.clone();
            let mut links = 0;
            for (from, to, missing) in [(&core, part, !into), (part, &core, !out)] {
                if !missing {
                    continue;
                }
                let world = (&open, free, &physics, &params, &carriers[..]);
                let mut pairs = nearest_pairs(&joined, from, to);
                if let Some(m) = &mesh {
                    let quick = quickest_pairs(&joined, m, from, to, &pairs);
                    pairs.extend(quick);
                }
                // Each way tried for each pair in turn, a pair skipped where that way failed
                // in an earlier round (each answer depends on the two waypoints alone).
                let mut tried = |way: Way, g: &mut WaypointGraph| {
                    pairs.iter().find_map(|&(a, b)| {
                        if failed.contains(&(way, a, b)) {
                            return None;
                        }
                        let plan = |cfg: &PlanConfig| PlanConfig {
                            seed: (a as u64) << 32 | b as u64,
                            ..cfg.clone()
                        };
                        let n = match (way, &guided, &mesh) {
                            (Way::Planned, ..) => plan_chain(g, world, a, (b, None), &plan(&cfg)),
                            (Way::Guided, Some(c), _) => {
                                plan_chain(g, world, a, (b, None), &plan(c))
                            }
                            (Way::Followed, _, Some(m)) => {
                                follow_chain(g, world, (level, &empty, m), (a, b))
                            }
                            _ => 0,
                        };
                        if n == 0 {
                            failed.insert((way, a, b));
                        }
                        (n > 0).then_some(n)
                    })
                };
                let n = tried(Way::Planned, &mut joined)
                    .or_else(|| tried(Way::Guided, &mut joined))
                    .or_else(|| tried(Way::Followed, &mut joined))
                    .or_else(|| teleport_way(&mut joined, level, world, (from, to), &cfg));
                let Some(n) = n else {
                    links = 0;
                    break;
                };
                links += n;
            }
            if links > 0 {
                *graph = joined;
                added += links;
            }
        }
        if added == before {
            break;
        }
    }
    added
}

/// The ways the closing pass tries for a pair of waypoints, in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Way {
    /// The planner's own search.
    Planned,
    /// The planner guided by the compiled area graph.
    Guided,
    /// A route follower on the compiled area graph ([`follow_chain`]).
    Followed,
}

/// The planning map, its free points, the player physics and the links' reachability test.
type World<'a> = (
    &'a CollisionMap,
    &'a [Vec3],
    &'a PhysicsParams,
    &'a ReachParams,
    &'a [Carrier],
);

/// A way from a waypoint of `from` to one of `to` through a teleporter that nobody has
/// taken (a part whose only way out is one): the first working teleporter with a waypoint
/// of `from` within [`PLAN_RADIUS`] of its trigger and one of `to` within it of where it
/// sends, joined by a planned chain into the trigger (with the teleporter's waypoint, as
/// explorers drop one), the teleporter's link, and a planned chain from where it sends.
/// Returns the links added (`None`: no such way, and `graph` as it was).
fn teleport_way(
    graph: &mut WaypointGraph,
    level: &Level,
    world: World<'_>,
    (from, to): (&[u32], &[u32]),
    cfg: &PlanConfig,
) -> Option<usize> {
    use crate::map::level::TriggerKind;
    let (map, _, physics, _, _) = world;
    let nearest = |g: &WaypointGraph, set: &[u32], p: Vec3| {
        set.iter()
            .map(|&n| (g.waypoints()[n as usize].origin.distance(p), n))
            .filter(|x| x.0 <= PLAN_RADIUS)
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)))
            .map(|x| x.1)
    };
    for (k, t) in level.triggers.iter().enumerate() {
        let TriggerKind::Teleport { dest: Some(d) } = t.kind else {
            continue;
        };
        if t.targetname.is_some() {
            continue;
        }
        let there = crate::nav::sample::stand_still(map, physics, level.teleport_dests[d].origin);
        let (Some(a), Some(c)) = (
            nearest(graph, from, (t.mins + t.maxs) * 0.5),
            nearest(graph, to, there.origin),
        ) else {
            continue;
        };
        let Some(at) = crate::nav::sample::teleporter_stand(map, t.mins, t.maxs) else {
            continue;
        };
        let mut g = graph.clone();
        let tw = g
            .find_kind(|w| matches!(w, WaypointKind::Teleporter { trigger } if *trigger == k))
            .unwrap_or_else(|| g.add(at, WaypointKind::Teleporter { trigger: k }));
        // Into the trigger: this teleporter left out of the plan, which would send the
        // player on before it is seen to touch it.
        let into = PlanConfig {
            seed: cfg.seed ^ k as u64,
            teleporters: cfg
                .teleporters
                .iter()
                .filter(|p| p.mins != t.mins || p.maxs != t.maxs)
                .copied()
                .collect(),
            ..cfg.clone()
        };
        let goal = Goal {
            mins: t.mins,
            maxs: t.maxs,
        };
        let n_in = plan_chain(&mut g, world, a, (tw, Some(goal)), &into);
        if n_in == 0 {
            continue;
        }
        let dw = g.add(there.origin, WaypointKind::Normal);
        let leap = PhysicsParams::default().max_speed * crate::bot::waypoints::TELEPORT_SECONDS;
        let n_jump = g.link(tw, dw, leap, Travel::Teleport, 1.0) as usize;
        let on = PlanConfig {
            seed: cfg.seed ^ (k as u64) << 16,
            ..cfg.clone()
        };
        let n_out = plan_chain(&mut g, world, dw, (c, None), &on);
        if n_out == 0 {
            continue;
        }
        *graph = g;
        return Some(n_in + n_jump + n_out);
    }
    None
}

/// The pairs (waypoint of `from`, waypoint of `to`) within [`PLAN_RADIUS`] the planner is
/// asked about, in turn: the [`PLAN_PAIRS`] nearest, then as many again of those on one
/// level ([`LEVEL`]), nearest first and no waypoint in two of them (the nearest pairs are
/// often one spot over another, where the way between climbs stairs or rides a lift far
/// from both). Ties go by number.
fn nearest_pairs(graph: &WaypointGraph, from: &[u32], to: &[u32]) -> Vec<(u32, u32)> {
    let w = graph.waypoints();
    let mut pairs: Vec<(f32, u32, u32)> = from
        .iter()
        .flat_map(|&a| to.iter().map(move |&b| (a, b)))
        .map(|(a, b)| (w[a as usize].origin.distance(w[b as usize].origin), a, b))
        .filter(|p| p.0 <= PLAN_RADIUS)
        .collect();
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let mut out: Vec<(u32, u32)> = pairs.iter().take(PLAN_PAIRS).map(|p| (p.1, p.2)).collect();
    let level = |a: u32, b: u32| (w[a as usize].origin.z - w[b as usize].origin.z).abs() <= LEVEL;
    let mut apart: Vec<(u32, u32)> = Vec::new();
    for &(_, a, b) in &pairs {
        if apart.len() == PLAN_PAIRS {
            break;
        }
        if level(a, b) && !out.contains(&(a, b)) && apart.iter().all(|&(x, y)| x != a && y != b) {
            apart.push((a, b));
        }
    }
    out.extend(apart);
    out
}

/// The [`PLAN_PAIRS`] pairs (waypoint of `from`, waypoint of `to`) quickest apart on the
/// compiled area graph `mesh` (every reachability), however far apart in a straight line,
/// leaving out those in `taken` and using no waypoint twice (ties: the nearer in a straight
/// line, then by number). The nearest pairs in a straight line are often a storey apart, a
/// long way round between them, where a stair a few seconds' walk away joins the part: the
/// quickest pair starts there.
fn quickest_pairs(
    graph: &WaypointGraph,
    mesh: &NavMesh,
    from: &[u32],
    to: &[u32],
    taken: &[(u32, u32)],
) -> Vec<(u32, u32)> {
    use crate::aas::route::{Travel as Flags, build_cache, route};
    let w = graph.waypoints();
    // The goal waypoints by their area: one goal search per area.
    let mut goals: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
    for &b in to {
        if let Some((_, area)) = mesh.area_under(w[b as usize].origin) {
            goals.entry(area).or_default().push(b);
        }
    }
    let mut pairs: Vec<(f32, f32, u32, u32)> = Vec::new();
    for (&area, bs) in &goals {
        let cache = build_cache(mesh, area, Flags::ALL);
        for &a in from {
            let pa = w[a as usize].origin;
            for &b in bs {
                let pb = w[b as usize].origin;
                if let Some(r) = route(mesh, &cache, pa, pb) {
                    pairs.push((r.seconds, pa.distance(pb), a, b));
                }
            }
        }
    }
    pairs.sort_by(|x, y| {
        (x.0.total_cmp(&y.0))
            .then(x.1.total_cmp(&y.1))
            .then(x.2.cmp(&y.2))
            .then(x.3.cmp(&y.3))
    });
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &(_, _, a, b) in &pairs {
        if out.len() == PLAN_PAIRS {
            break;
        }
        if !taken.contains(&(a, b)) && out.iter().all(|&(x, y)| x != a && y != b) {
            out.push((a, b));
        }
    }
    out
}

/// Height (units) within which two waypoints are on one level: a jump's height (45) and a
/// step's (18).
pub const LEVEL: f32 = 64.0;

/// Plans from waypoint `a` to waypoint `b` (the goal `goal` where given, else a small box
/// round `b`) and, where a way is found, lays it down as a chain ([`lay_chain`]); where
/// straight-line reachability confirms `a` to `b` the link is laid without a plan.
/// Returns the links added.
fn plan_chain(
    graph: &mut WaypointGraph,
    (map, free, physics, params, carriers): World<'_>,
    a: u32,
    (b, goal): (u32, Option<Goal>),
    cfg: &PlanConfig,
) -> usize {
    let (pa, pb) = (
        graph.waypoints()[a as usize].origin,
        graph.waypoints()[b as usize].origin,
    );
    let travel = |p: Vec3, q: Vec3| Travel::from_reach(reachable(map, p, q, params));
    if let Some(t) = travel(pa, pb) {
        return graph.link(a, b, pa.distance(pb), t, 1.0) as usize;
    }
    let start = crate::nav::sample::stand_still(map, physics, pa);
    let goal = goal.unwrap_or(Goal {
        mins: pb - Vec3::splat(8.0),
        maxs: pb + Vec3::splat(8.0),
    });
    let plan = crate::planner::plan(map, physics, free, start, Some(&goal), cfg);
    let Some(best) = plan.best else {
        return 0;
    };
    let states: Vec<PlayerState> = plan
        .branch(best)
        .iter()
        .map(|&i| plan.nodes[i as usize].state)
        .collect();
    lay_chain(
        graph,
        (map, params, carriers),
        (a, b),
        &states,
        cfg.step,
        PLAN_CHAIN,
    )
}

/// Longest (s) a bot following the area graph's route is given to join two waypoints: a
/// tour's leg's time.
pub const FOLLOW_SECONDS: f32 = 60.0;

/// Waypoints a chain laid along a followed way may add: such a way may lead round the
/// level.
pub const FOLLOW_CHAIN: usize = 64;

/// Follows the compiled area graph's route from waypoint `a` to waypoint `b` with a bot of
/// compiled navigation, alone in a fresh match of `level` (`map` with nobody in it; doors,
/// lifts and their buttons as in play), and lays the way it takes down as a chain
/// ([`lay_through`]) where it touches a box round `b` alive within [`FOLLOW_SECONDS`]: the
/// way out of a part may be a long way round the level, which the planner's search does
/// not complete, where the route follower (closed loop on the physics) does. Returns the
/// links added.
fn follow_chain(
    graph: &mut WaypointGraph,
    (open, _, _, params, carriers): World<'_>,
    (level, map, mesh): (&Arc<Level>, &CollisionMap, &Arc<NavMesh>),
    (a, b): (u32, u32),
) -> usize {
    use crate::bot::control::ControllerConfig;
    use crate::tick::{Match, MatchConfig, PlayerConfig};
    let (pa, pb) = (
        graph.waypoints()[a as usize].origin,
        graph.waypoints()[b as usize].origin,
    );
    // Only where the graph has a route (a bot with none stands or wanders the whole time).
    use crate::aas::route::{Travel as Flags, build_cache, route};
    let Some(((_, fa), (_, fb))) = mesh.area_under(pa).zip(mesh.area_under(pb)) else {
        return 0;
    };
    if fa != fb && route(mesh, &build_cache(mesh, fb, Flags::ALL), pa, pb).is_none() {
        return 0;
    }
    let mut cfg = MatchConfig::new(
        (a as u64) << 32 | b as u64,
        vec![PlayerConfig {
            name: "closer".into(),
            controller: ControllerConfig::Route(pb),
            spawn: None,
            start: Some((pa, 0.0)),
            senses: Default::default(),
            navigation: crate::bot::compiled::Navigation::Compiled,
        }],
    );
    cfg.tick_rate = mesh.params.tick_rate;
    cfg.nav = Some(Arc::clone(mesh));
    let Ok(mut m) = Match::new(Arc::clone(level), map.clone(), &cfg) else {
        return 0;
    };
    let goal = Goal {
        mins: pb - Vec3::splat(8.0),
        maxs: pb + Vec3::splat(8.0),
    };
    let ticks = (FOLLOW_SECONDS / m.sim.dt).round() as usize;
    let id = m.sim.players[0].id.0;
    let mut states = Vec::new();
    // Where the way went through a teleporter: the index of the first state after it, and
    // the teleporter (its index in the level's triggers).
    let mut teleported: Vec<(usize, usize)> = Vec::new();
    for _ in 0..ticks {
        m.step();
        let alive = m.sim.player_vitals(0).is_some_and(|v| v.alive);
        let Some(s) = m.sim.player_state(0).filter(|_| alive) else {
            return 0;
        };
        teleported.extend(m.sim.events.iter().filter_map(|e| match e {
            crate::sim::SimEvent::Teleport {
                player, trigger, ..
            } if *player == id => Some((states.len(), *trigger)),
            _ => None,
        }));
        states.push(s);
        if goal.reached(&s) {
            return lay_through(
                graph,
                (open, params, carriers),
                level,
                (a, b),
                (&states, &teleported),
                m.sim.dt,
            );
        }
    }
    0
}

/// Lays a followed way (`states`, one each `step` seconds, from waypoint `a` to waypoint
/// `b`) down as [`lay_chain`] does, through the teleporters it went through (`teleported`:
/// the index of the first state after each, and the teleporter) as explorers lay them: a
/// chain into the teleporter's waypoint (made at its stand where the graph has none), a
/// teleport link to a waypoint where the player first stands after it, and the chain on
/// from there. All or nothing; returns the links added.
fn lay_through(
    graph: &mut WaypointGraph,
    (map, params, carriers): (&CollisionMap, &ReachParams, &[Carrier]),
    level: &Level,
    (a, b): (u32, u32),
    (states, teleported): (&[PlayerState], &[(usize, usize)]),
    step: f32,
) -> usize {
    let world = (map, params, carriers);
    if teleported.is_empty() {
        return lay_chain(graph, world, (a, b), states, step, FOLLOW_CHAIN);
    }
    let mut g = graph.clone();
    let (mut from, mut start, mut links) = (a, 0, 0);
    let leap = PhysicsParams::default().max_speed * crate::bot::waypoints::TELEPORT_SECONDS;
    for (k, &(j, trigger)) in teleported.iter().enumerate() {
        let t = &level.triggers[trigger];
        let existing =
            g.find_kind(|w| matches!(w, WaypointKind::Teleporter { trigger: x } if *x == trigger));
        let tw = match existing {
            Some(tw) => tw,
            None => match crate::nav::sample::teleporter_stand(map, t.mins, t.maxs) {
                Some(at) => g.add(at, WaypointKind::Teleporter { trigger }),
                None => return 0,
            },
        };
        // Set off from the teleporter's own waypoint: nothing to lay into it.
        let n_in = if from == tw {
            0
        } else {
            let n = lay_chain(
                &mut g,
                world,
                (from, tw),
                &states[start..j],
                step,
                FOLLOW_CHAIN,
            );
            if n == 0 {
                return 0;
            }
            n
        };
        // Where it first stands (or swims) after the teleport, before any next one.
        let end = teleported.get(k + 1).map_or(states.len(), |n| n.0);
        let Some(land) =
            (j..end).find(|&i| states[i].on_ground.is_some() || states[i].water_level >= 2)
        else {
            return 0;
        };
        let dw = g.add(states[land].origin, WaypointKind::Normal);
        links += n_in + g.link(tw, dw, leap, Travel::Teleport, 1.0) as usize;
        (from, start) = (dw, land);
    }
    let n_on = if from == b {
        0
    } else {
        lay_chain(
            &mut g,
            world,
            (from, b),
            &states[start..],
            step,
            FOLLOW_CHAIN,
        )
    };
    if n_on == 0 && from != b {
        return 0;
    }
    *graph = g;
    links + n_on
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::builder::MapBuilder;

    /// A lower floor (y 0..512, x 0..2048) under an upper floor (a slab x 0..1536, top at
    /// z 176); the only way up is a stair at the slab's east end (y 256..512, climbing west
    /// from x 1888). Lower waypoints along y 128 from x 96 to x 1952, upper ones along y 384
    /// from x 96 to x 480.
    fn storeys() -> (NavMesh, WaypointGraph, Vec<u32>, Vec<u32>) {
        let v = Vec3::new;
        let mut b = MapBuilder::sealed_room(v(0., 0., 0.), v(2048., 512., 384.));
        b.solid(v(0., 0., 160.), v(1536., 512., 176.), "SLAB");
        for k in 1..=11 {
            let x0 = 1536. + 32. * (11 - k) as f32;
            b.solid(v(x0, 256., 0.), v(x0 + 32., 512., 16. * k as f32), "STEP");
        }
        b.point("info_player_deathmatch", v(96., 128., 24.), &[]);
        let (level, cmap) = b.build();
        let mesh = crate::aas::compile(
            &level,
            &cmap,
            &crate::aas::CompileParams::default(),
            &mut |_, _, _| {},
        )
        .expect("compiles");
        let mut g = WaypointGraph::new();
        let lower: Vec<u32> = (0..10)
            .map(|i| g.add(v(96. + 206. * i as f32, 128., 24.), WaypointKind::Normal))
            .collect();
        let upper: Vec<u32> = (0..4)
            .map(|i| g.add(v(96. + 128. * i as f32, 384., 200.), WaypointKind::Normal))
            .collect();
        (mesh, g, lower, upper)
    }

    #[test]
    fn the_quickest_pairs_start_at_the_stair_the_nearest_ones_stand_a_storey_apart() {
        let (mesh, g, lower, upper) = storeys();
        let near = nearest_pairs(&g, &lower, &upper);
        // In a straight line the nearest pairs are one over the other, at the west end.
        assert!(near.iter().all(|&(a, _)| a <= lower[3]), "{near:?}");
        let quick = quickest_pairs(&g, &mesh, &lower, &upper, &near);
        assert_eq!(quick.len(), PLAN_PAIRS, "{quick:?}");
        // The quickest: from the lower waypoint at the stair's foot to the upper one nearest
        // the stair's top; each waypoint in one pair at most.
        assert_eq!(quick[0], (lower[9], upper[3]), "{quick:?}");
        let froms: std::collections::BTreeSet<u32> = quick.iter().map(|p| p.0).collect();
        let tos: std::collections::BTreeSet<u32> = quick.iter().map(|p| p.1).collect();
        assert_eq!((froms.len(), tos.len()), (PLAN_PAIRS, PLAN_PAIRS));
        // Pairs already taken are left out.
        let again = quickest_pairs(&g, &mesh, &lower, &upper, &quick[..1]);
        assert!(!again.contains(&quick[0]), "{again:?}");
        // Down: off the slab's east edge (y 0..256 is open below it) or down the stair,
        // from the upper waypoint nearest the east end to the lower ones beside it.
        let down = quickest_pairs(&g, &mesh, &upper, &lower, &[]);
        assert_eq!(down[0].0, upper[3], "{down:?}");
        assert!([lower[7], lower[8]].contains(&down[0].1), "{down:?}");
    }
}

#[cfg(test)]
mod follow_tests {
    use super::*;
    use crate::map::builder::MapBuilder;

    /// Two rooms a wall parts for good (x 0..504 and 520..1024), each with a teleporter
    /// into the other and a spawn point.
    fn parted_rooms() -> (Arc<Level>, CollisionMap) {
        let v = Vec3::new;
        let mut b = MapBuilder::sealed_room(v(0., 0., 0.), v(1024., 512., 128.));
        b.solid(v(504., 0., 0.), v(520., 512., 128.), "WALL");
        for (lo, target, dest) in [
            (v(64., 400., 0.), "east", v(900., 256., 0.)),
            (v(896., 400., 0.), "west", v(100., 256., 0.)),
        ] {
            b.brush_entity(
                &[("classname", "trigger_teleport"), ("target", target)],
                &[(lo, lo + v(64., 64., 64.), "TRIGGER")],
            );
            b.point(
                "info_teleport_destination",
                dest,
                &[("targetname", target), ("angle", "270")],
            );
        }
        b.point("info_player_deathmatch", v(200., 100., 24.), &[])
            .point("info_player_deathmatch", v(800., 300., 24.), &[]);
        let (level, cmap) = b.build();
        (Arc::new(level), cmap)
    }

    #[test]
    fn a_followed_way_through_a_teleporter_is_laid_as_explorers_lay_one() {
        let (level, cmap) = parted_rooms();
        let mesh = Arc::new(
            crate::aas::compile(
                &level,
                &cmap,
                &crate::aas::CompileParams::default(),
                &mut |_, _, _| {},
            )
            .expect("compiles"),
        );
        let v = Vec3::new;
        let mut g = WaypointGraph::new();
        let a = g.add(v(200., 100., 24.03125), WaypointKind::Normal);
        let b = g.add(v(800., 100., 24.03125), WaypointKind::Normal);
        let mut empty = cmap.clone();
        empty.clear_bodies();
        let (open, free, _) =
            crate::planner::times::planning(&level, &empty, &PlanConfig::default());
        let carriers = carriers(&level);
        let physics = PhysicsParams::default();
        let params = ReachParams {
            max_distance: PLAN_LINK,
            max_fall: crate::bot::explore::MAX_DROP,
            ..Default::default()
        };
        let world = (&open, &free[..], &physics, &params, &carriers[..]);
        let links = follow_chain(&mut g, world, (&level, &empty, &mesh), (a, b));
        assert!(links >= 3, "{links} links");
        // The way: a chain into the west teleporter's waypoint, its teleport link to where
        // the player first stands in the east room, a chain on to `b`.
        let tw: Vec<u32> = (0..g.len() as u32)
            .filter(|&n| matches!(g.get(n).unwrap().kind, WaypointKind::Teleporter { .. }))
            .collect();
        assert_eq!(tw.len(), 1, "one teleporter waypoint");
        assert!(g.get(tw[0]).unwrap().origin.x < 504.0, "the west one");
        let teleports: Vec<(u32, u32)> = g
            .waypoints()
            .iter()
            .flat_map(|w| {
                w.links
                    .iter()
                    .filter(|l| l.travel == Travel::Teleport)
                    .map(move |l| (l.from, w.number))
            })
            .collect();
        assert_eq!(teleports.len(), 1, "{teleports:?}");
        assert_eq!(teleports[0].0, tw[0]);
        assert!(
            g.get(teleports[0].1).unwrap().origin.x > 520.0,
            "lands east"
        );
        assert!(g.routed_from(a)[b as usize], "a route from a to b");
    }
}
