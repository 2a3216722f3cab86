//! Dynamic waypoint dropping (reference 000 §9.2), a stage run at 10 Hz per bot (staggered):
//! the bot remembers the closest waypoint from which its position is reachable; when there is
//! none, it drops a waypoint where it was 0.1 s ago (when a waypoint still reached that
//! place) and links it with the last remembered one after verifying reachability (and, beyond
//! the reference, with the few nearest others, so that trails that start after a respawn or a
//! teleport join the graph); a change of closest waypoint links the old and the new one. Waypoints are dropped only on the ground
//! (or swimming), never on a mover, never in lava or slime.
//!
//! Special waypoints, checked every tick because touches are brief: an item waypoint at the
//! bottom centre of a weapon or powerup (not health, not the biosuit) when a bot touches it,
//! one per item; a teleporter waypoint at the bottom centre of a teleporter when a bot uses
//! it, linked to the first waypoint reached at the destination with the distance a player
//! runs in the teleport's duration; elevator bottom and top waypoints when a bot rides a plat.
//!
//! Entry point: [`drop_system`].

use std::sync::Arc;

use glam::Vec3;

use crate::map::level::{ItemKind, MoverKind};
use crate::map::{Contents, EntId};
use crate::nav::reach::{ReachParams, reachable};
use crate::nav::sample::{STAND, free_spot, nearest_reaching, teleporter_stand};
use crate::nav::waypoints::{Travel, WaypointGraph, WaypointKind};
use crate::physics::movers::Phase;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, STEP_SIZE};
use crate::sim::components::{ItemSlot, Motion, MoverSlot, PlayerStats, Vitals};
use crate::sim::parallel::JobSize;
use crate::sim::{Sim, SimEvent};

use super::learned::LearnedMap;

use super::perception::REFRESH_HZ;

/// How far the closest-waypoint search looks.
pub const SEARCH_RADIUS: f32 = 320.0;
/// How many of the nearest waypoints are tested for reachability.
pub const SEARCH_CANDIDATES: usize = 4;
/// Seconds a teleport is taken to last (the reference: "a few tenths of a second").
pub const TELEPORT_SECONDS: f32 = 0.2;

/// A place the bot was at a 10 Hz sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Its origin.
    pub pos: Vec3,
    /// A waypoint could be dropped there.
    pub droppable: bool,
    /// A waypoint reached it.
    pub had_closest: bool,
}

/// Per-bot dropping memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Dropper {
    /// The closest waypoint from which the bot's position was reachable.
    pub closest: Option<u32>,
    /// The sample 0.1 s ago.
    pub prev: Option<Sample>,
    /// A teleporter waypoint waiting to be linked to the first waypoint at the destination.
    pub pending_teleport: Option<u32>,
    /// Tick at which `closest` was last confirmed.
    pub closest_tick: u64,
    /// The bot has been off the ground (not swimming) since `closest` was last confirmed: an
    /// observed link at the same height is then a jump (a gap crossed), not a walk.
    pub airborne: bool,
}

/// Seconds after its last confirmation within which the closest waypoint is linked to a
/// new drop as observed travel.
pub const OBSERVED_SECONDS: f32 = 3.0;

/// The bot just went from `c`'s reach to the new waypoint `n` without dying or teleporting
/// (both reset the trail): a way, even where a straight line does not show one (a drop off
/// a ledge sideways, a jump down into a pocket, a running jump across a gap). Linked as
/// observed when `c` was confirmed at most [`OBSERVED_SECONDS`] ago and no link exists; its
/// travel type is a fall when `n` is lower, a jump when higher or when the bot left the
/// ground on the way, else a walk.
fn observed_link(g: &mut WaypointGraph, c: u32, n: u32, dr: &Dropper, tick: u64, dt: f32) {
    let confirmed = dr.closest_tick;
    if g.has_link(c, n) || tick.saturating_sub(confirmed) > (OBSERVED_SECONDS / dt) as u64 {
        return;
    }
    let (Some(pc), Some(pn)) = (g.get(c).map(|w| w.origin), g.get(n).map(|w| w.origin)) else {
        return;
    };
    let travel = if pn.z < pc.z - STEP_SIZE - 1.0 {
        Travel::Fall
    } else if pn.z > pc.z + STEP_SIZE + 1.0 || dr.airborne {
        Travel::Jump
    } else {
        Travel::Walk
    };
    g.link(c, n, pc.distance(pn), travel, 1.0);
}

fn droppable(s: &PlayerState) -> bool {
    let hazard = s.water_level >= 1 && s.water_type.intersects(Contents::LAVA | Contents::SLIME);
    let swimming = s.water_level >= 2 && s.water_type == Contents::WATER;
    !hazard && (s.on_ground == Some(EntId::WORLD) || swimming)
}

/// Links waypoint `n` with the few nearest others (besides `skip`) wherever reachability holds.
fn tie_in(
    map: &crate::map::CollisionMap,
    g: &mut WaypointGraph,
    n: u32,
    skip: Option<u32>,
    p: &ReachParams,
) {
    let at = g.get(n).expect("waypoint").origin;
    // The skipped ones (itself, `skip`) can be among the nearest: two more than needed.
    let around: Vec<u32> = g
        .near_k(at, SEARCH_RADIUS, SEARCH_CANDIDATES + 2)
        .into_iter()
        .map(|x| x.0)
        .filter(|&m| m != n && Some(m) != skip)
        .take(SEARCH_CANDIDATES)
        .collect();
    for m in around {
        g.link_reachable(map, m, n, p);
    }
}

/// The waypoint nearest `at` (of the [`SEARCH_CANDIDATES`] nearest within
/// [`SEARCH_RADIUS`]) from which `at` is reachable.
fn closest_reaching(map: &crate::map::CollisionMap, g: &WaypointGraph, at: Vec3) -> Option<u32> {
    nearest_reaching(map, g, at, SEARCH_RADIUS, SEARCH_CANDIDATES)
}

/// A plat as the drop stage sees it this tick.
struct PlatView {
    /// Index in the level's movers.
    mover: usize,
    /// Its id in traces (what a rider stands on).
    id: EntId,
    phase: Phase,
    mins: Vec3,
    maxs: Vec3,
}

/// A bot's 10 Hz search for the closest waypoint that reaches it.
struct Search {
    /// Index in the players' order.
    player: usize,
    at: Vec3,
    found: Option<u32>,
}

/// The dropping stage: special waypoints every tick, the closest-waypoint search and drops at
/// 10 Hz per bot.
///
/// Reads [`Motion`], [`Vitals`], item slots, plat states and the tick's teleport events;
/// writes [`Dropper`], the waypoint graph, the visit map, [`crate::sim::components::Stats::waypoints_dropped`]
/// and [`SimEvent::WaypointDrop`].
pub fn drop_system(sim: &mut Sim, learned: &mut LearnedMap) {
    let level = Arc::clone(&sim.level);
    let interval = ((1.0 / sim.dt) / REFRESH_HZ).round().max(1.0) as u64;
    let params = ReachParams::default();
    let teleports: Vec<(u32, usize)> = sim
        .events
        .iter()
        .filter_map(|e| match e {
            SimEvent::Teleport {
                player, trigger, ..
            } => Some((*player, *trigger)),
            _ => None,
        })
        .collect();
    let items: Vec<(usize, Vec3)> = sim
        .items
        .iter()
        .filter_map(|&e| {
            sim.world
                .get::<&ItemSlot>(e)
                .ok()
                .map(|s| (s.def, s.origin))
        })
        .collect();
    let plats: Vec<PlatView> = level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m.kind, MoverKind::Plat { .. }))
        .filter_map(|(i, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[i]).ok()?.state;
            let (mins, maxs) = sim.cmap.mover_bounds(m.id)?;
            Some(PlatView {
                mover: i,
                id: m.id,
                phase: st.phase,
                mins,
                maxs,
            })
        })
        .collect();
    // The 10 Hz searches (reachability marches, the stage's cost) run first on the worker
    // pool over the graph as the stage found it. A bot whose search area got a waypoint from
    // an earlier bot this tick searches again in turn, so the result is the one-by-one answer.
    let searched_len = learned.waypoints.len();
    let due: Vec<Search> = sim
        .players
        .iter()
        .enumerate()
        .filter_map(|(pi, p)| {
            let (id, e) = (p.id, p.entity);
            let m = sim.world.get::<&Motion>(e).ok()?;
            let alive = sim.world.get::<&Vitals>(e).ok()?.alive;
            let on_mover = m.0.on_ground.is_some_and(|g| g != EntId::WORLD);
            (alive && !on_mover && (sim.tick + id.0 as u64).is_multiple_of(interval)).then_some(
                Search {
                    player: pi,
                    at: m.0.origin,
                    found: None,
                },
            )
        })
        .collect();
    let ctx = (Arc::clone(&sim.cmap), Arc::clone(&learned.waypoints));
    let mut searched: Vec<Option<Option<u32>>> = vec![None; sim.players.len()];
    let (ctx, due) = sim.run_jobs(JobSize::Search, ctx, due, |(map, graph), d| {
        d.found = closest_reaching(map, graph, d.at)
    });
    drop(ctx);
    for d in due {
        searched[d.player] = Some(d.found);
    }
    let visits = &mut learned.visits;
    let graph = std::sync::Arc::make_mut(&mut learned.waypoints);
    for (pi, searched) in searched.into_iter().enumerate() {
        let before = graph.len() as u32;
        'one: {
            let (id, e) = (sim.players[pi].id, sim.players[pi].entity);
            let (s, alive, mut dr) =
                match sim.world.query_one_mut::<(&Motion, &Vitals, &Dropper)>(e) {
                    Ok((m, v, d)) => (m.0, v.alive, *d),
                    Err(_) => break 'one,
                };
            if s.on_ground.is_none() && s.water_level < 2 {
                dr.airborne = true;
            }
            if !alive {
                // Death breaks the trail: the next waypoint starts afresh at the spawn point.
                dr = Dropper::default();
                if let Ok(mut d) = sim.world.get::<&mut Dropper>(e) {
                    *d = dr;
                }
                break 'one;
            }
            let g = &mut *graph;
            let map = &sim.cmap;
            // Item waypoints: weapons and powerups, one per item, on touch.
            let (pmn, pmx) = (s.origin + PLAYER_MINS, s.origin + PLAYER_MAXS);
            for &(def, origin) in &items {
                let it = &level.items[def];
                let wanted = matches!(it.kind, ItemKind::Weapon)
                    || (it.kind == ItemKind::Powerup && it.classname != "item_artifact_envirosuit");
                if !wanted {
                    continue;
                }
                let (imn, imx) = it.kind.bounds();
                let grow = Vec3::new(1.0, 1.0, 0.0);
                if !crate::map::collision::overlaps(
                    pmn,
                    pmx,
                    origin + imn - grow,
                    origin + imx + grow,
                ) {
                    continue;
                }
                if g.item_waypoint(def).is_some() {
                    continue;
                }
                let c = (imn + imx) * 0.5;
                let at = free_spot(
                    map,
                    Vec3::new(origin.x + c.x, origin.y + c.y, origin.z + imn.z + STAND),
                    s.origin,
                );
                let n = g.add(
                    at,
                    WaypointKind::Item {
                        class: it.classname.clone(),
                        item: def,
                    },
                );
                if let Some(c) = dr.closest {
                    g.link_reachable(map, c, n, &params);
                    observed_link(g, c, n, &dr, sim.tick, sim.dt);
                }
                tie_in(map, g, n, dr.closest, &params);
            }
            // Teleporter waypoints, on use.
            if let Some(&(_, trig)) = teleports.iter().find(|t| t.0 == id.0) {
                let t = &level.triggers[trig];
                let existing = g.find_kind(
                    |k| matches!(k, WaypointKind::Teleporter { trigger } if *trigger == trig),
                );
                let tw = existing.unwrap_or_else(|| {
                    let at = teleporter_stand(map, t.mins, t.maxs).unwrap_or_else(|| {
                        let c = (t.mins + t.maxs) * 0.5;
                        free_spot(map, Vec3::new(c.x, c.y, t.mins.z + STAND), s.origin)
                    });
                    let tw = g.add(at, WaypointKind::Teleporter { trigger: trig });
                    // Ways into the teleporter from around it (leaving it is the teleport).
                    for (m, _) in g
                        .near(at, SEARCH_RADIUS)
                        .into_iter()
                        .take(SEARCH_CANDIDATES + 1)
                    {
                        let pm = g.get(m).expect("waypoint").origin;
                        if m != tw
                            && let Some(tr) = Travel::from_reach(reachable(map, pm, at, &params))
                        {
                            g.link(m, tw, pm.distance(at), tr, 1.0);
                        }
                    }
                    tw
                });
                if let Some(c) = dr.closest {
                    let (pc, pt) = (
                        g.get(c).expect("waypoint").origin,
                        g.get(tw).expect("waypoint").origin,
                    );
                    if let Some(tr) = Travel::from_reach(reachable(map, pc, pt, &params)) {
                        g.link(c, tw, pc.distance(pt), tr, 1.0);
                    }
                }
                dr.pending_teleport = Some(tw);
                dr.closest = None;
                dr.prev = None;
            }
            // Elevator waypoints, while riding a plat.
            if let Some(g_id) = s.on_ground
                && let Some(plat) = plats.iter().find(|p| p.id == g_id)
            {
                let (mn, mx, mi) = (plat.mins, plat.maxs, plat.mover);
                let at = Vec3::new((mn.x + mx.x) * 0.5, (mn.y + mx.y) * 0.5, mx.z + STAND);
                match plat.phase {
                    Phase::AtA => {
                        let b = g
                            .find_kind(
                                |k| matches!(k, WaypointKind::ElevatorBottom { mover } if *mover == mi),
                            )
                            .unwrap_or_else(|| g.add(at, WaypointKind::ElevatorBottom { mover: mi }));
                        if let Some(c) = dr.closest
                            && c != b
                        {
                            let (pc, pb) = (
                                g.get(c).expect("waypoint").origin,
                                g.get(b).expect("waypoint").origin,
                            );
                            if let Some(tr) = Travel::from_reach(reachable(map, pc, pb, &params)) {
                                g.link(c, b, pc.distance(pb), tr, 1.0);
                            }
                        }
                        dr.closest = Some(b);
                        dr.closest_tick = sim.tick;
                        dr.airborne = false;
                    }
                    Phase::AtB => {
                        let t = g
                            .find_kind(
                                |k| matches!(k, WaypointKind::ElevatorTop { mover } if *mover == mi),
                            )
                            .unwrap_or_else(|| g.add(at, WaypointKind::ElevatorTop { mover: mi }));
                        if let Some(b) = g.find_kind(
                            |k| matches!(k, WaypointKind::ElevatorBottom { mover } if *mover == mi),
                        ) {
                            let h = (g.get(t).expect("waypoint").origin
                                - g.get(b).expect("waypoint").origin)
                                .length();
                            g.link(b, t, h, Travel::Elevator, 1.0);
                        }
                        dr.closest = Some(t);
                        dr.closest_tick = sim.tick;
                        dr.airborne = false;
                    }
                    _ => {}
                }
                dr.prev = None;
            }
            let on_mover = s.on_ground.is_some_and(|g| g != EntId::WORLD);
            let sample = (sim.tick + id.0 as u64).is_multiple_of(interval);
            // Visits count where the team stood or swam (at 10 Hz), on a floor that is a
            // door ([`crate::bot::explore::floor_door`]) too: a cell only fallen or jumped
            // through is not known (a walkway above a pit stays new after bots have dropped
            // past it), and one whose floor is such a door (a sliding floor, crossed as it
            // slides) is known once stood on, or it drew explorers back for good. Plats and
            // trains carry their riders through cells they have not walked; counted on any
            // door at rest, explorers missed more items.
            let on_floor_door = || {
                level
                    .movers
                    .iter()
                    .any(|m| s.on_ground == Some(m.id) && crate::bot::explore::floor_door(m))
            };
            if sample && (!on_mover || on_floor_door()) {
                if s.on_ground.is_some() || s.water_level >= 1 {
                    visits.visit(s.origin);
                }
                if s.water_level >= 1 {
                    visits.visit_wet(s.origin);
                }
            }
            if on_mover || !sample {
                if let Ok(mut d) = sim.world.get::<&mut Dropper>(e) {
                    *d = dr;
                }
                break 'one;
            }
            // The 10 Hz search for the closest waypoint that reaches the bot.
            let g = &mut *graph;
            let here = droppable(&s);
            let added_near = g.waypoints()[searched_len..]
                .iter()
                .any(|w| w.origin.distance(s.origin) <= SEARCH_RADIUS);
            let closest = match searched {
                Some(found) if !added_near => found,
                _ => closest_reaching(map, g, s.origin),
            };
            let mut new_wp = None;
            match closest {
                Some(c) => {
                    if let Some(old) = dr.closest
                        && old != c
                    {
                        g.link_reachable(map, old, c, &params);
                    }
                    dr.closest = Some(c);
                    dr.closest_tick = sim.tick;
                    dr.airborne = false;
                    dr.prev = Some(Sample {
                        pos: s.origin,
                        droppable: here,
                        had_closest: true,
                    });
                }
                None => {
                    let at = match dr.prev {
                        Some(p) if p.had_closest && p.droppable => Some(p.pos),
                        _ if here => Some(s.origin),
                        _ => None,
                    };
                    match at {
                        Some(pos) => {
                            let n = g.add(pos, WaypointKind::Normal);
                            if let Some(c) = dr.closest {
                                g.link_reachable(map, c, n, &params);
                                observed_link(g, c, n, &dr, sim.tick, sim.dt);
                            }
                            // Also tie it to the waypoints around it (a trail starting after a
                            // respawn or a teleport has no last waypoint to link to).
                            tie_in(map, g, n, dr.closest, &params);
                            new_wp = Some(n);
                            let reaches_now = pos == s.origin
                                || reachable(map, pos, s.origin, &params).is_reachable();
                            dr.closest = Some(n);
                            dr.closest_tick = sim.tick;
                            dr.airborne = false;
                            dr.prev = Some(Sample {
                                pos: s.origin,
                                droppable: here,
                                had_closest: reaches_now,
                            });
                        }
                        None => {
                            dr.prev = Some(Sample {
                                pos: s.origin,
                                droppable: here,
                                had_closest: false,
                            });
                        }
                    }
                }
            }
            // The first waypoint reached after a teleport gets the teleporter's link.
            if let (Some(tw), Some(c)) = (dr.pending_teleport, new_wp.or(closest)) {
                let d = crate::physics::PhysicsParams::default().max_speed * TELEPORT_SECONDS;
                g.link(tw, c, d, Travel::Teleport, 1.0);
                dr.pending_teleport = None;
            }
            if let Ok(mut d) = sim.world.get::<&mut Dropper>(e) {
                *d = dr;
            }
        }
        // Credit the player with what it dropped this tick.
        let (id, e) = (sim.players[pi].id, sim.players[pi].entity);
        let after = graph.len() as u32;
        if after > before {
            if let Ok(mut st) = sim.world.get::<&mut PlayerStats>(e) {
                st.0.waypoints_dropped += after - before;
            }
            for n in before..after {
                sim.events.push(SimEvent::WaypointDrop {
                    player: id.0,
                    waypoint: n,
                });
            }
        }
    }
}
