//! Route bots sent from item to item over a waypoint graph: an item tour (the routing
//! acceptance run, shared by the routing tests and `examples/item_tour.rs`: one routing bot,
//! starting at spawn point 0, is sent to every item waypoint in turn and given a fixed time
//! to get there), and one leg compared with the travel-time planner (`botarena times
//! --waypoints`).
//!
//! A compiled-navigation tour ([`tour_compiled`]) sends a bot on the compiled area graph to
//! every weapon, armour and powerup in turn, beside the time the graph predicted.
//!
//! Entry points: [`tour`], [`TourReport`], [`compare`], [`tour_compiled`].

use std::sync::Arc;

use glam::Vec3;
use serde::Serialize;

use crate::bot::control::Controller;
use crate::bot::control::ControllerConfig;
use crate::bot::learned::ROUTE_CACHE_BYTES;
use crate::bot::routing::goal_waypoint;
use crate::map::{CollisionMap, Level};
use crate::nav::routing::{RouteCaches, RouteParams, TravelFlags, build_cache};
use crate::nav::waypoints::{WaypointGraph, WaypointKind};
use crate::physics::movers::{MoverState, Phase};
use crate::physics::pmove::{PlayerState, UserCmd, pmove};
use crate::planner::times::ItemRef;
use crate::tick::{Match, MatchConfig, MatchError, PlayerConfig};

/// One item waypoint of a tour.
#[derive(Clone, Debug)]
pub struct TourStop {
    /// The item waypoint.
    pub waypoint: u32,
    /// Its item class.
    pub class: String,
    /// Where it is.
    pub at: Vec3,
    /// Waypoints with a route to it when the bot set off (the tourist drops waypoints too).
    pub routes_from: usize,
    /// Waypoints in the graph then.
    pub waypoints: usize,
    /// Seconds the bot took to get there; `None`: not in the time given.
    pub reached_after: Option<f32>,
}

/// What a tour reached.
#[derive(Clone, Debug)]
pub struct TourReport {
    /// Waypoints in the graph at the end (the tourist drops waypoints too).
    pub waypoints: usize,
    /// The item waypoints in waypoint order.
    pub stops: Vec<TourStop>,
}

impl TourStop {
    /// Whether the item was in the graph's routable part: at least 90 % of the waypoints had
    /// a route to it when the bot set off.
    pub fn in_core(&self) -> bool {
        self.routes_from * 10 >= self.waypoints * 9
    }
}

impl TourReport {
    /// Item waypoints reached.
    pub fn reached(&self) -> usize {
        self.stops
            .iter()
            .filter(|s| s.reached_after.is_some())
            .count()
    }

    /// Item waypoints in the routable part, and how many of those were reached.
    pub fn core(&self) -> (usize, usize) {
        let core = self.stops.iter().filter(|s| s.in_core());
        (
            core.clone().count(),
            core.filter(|s| s.reached_after.is_some()).count(),
        )
    }
}

/// Tours `graph`'s item waypoints on `level` with one routing bot (seed `seed`, spawn 0),
/// `seconds` per item; an item counts as reached when the bot is within 32 units of it
/// across and 40 up or down. `after` sees the match after each stop (for diagnostics).
pub fn tour(
    level: Arc<Level>,
    cmap: CollisionMap,
    graph: WaypointGraph,
    seed: u64,
    seconds: f32,
    mut after: impl FnMut(&Match, &TourStop),
) -> Result<TourReport, MatchError> {
    let players = vec![PlayerConfig {
        name: "tourist".into(),
        controller: ControllerConfig::Idle,
        spawn: Some(0),
        start: None,
        senses: Default::default(),
        navigation: Default::default(),
    }];
    let cfg = MatchConfig::new(seed, players);
    let mut m = Match::new(level, cmap, &cfg)?;
    m.set_waypoints(graph);
    let items: Vec<(u32, String, Vec3)> = m
        .learned
        .waypoints
        .waypoints()
        .iter()
        .filter_map(|w| match &w.kind {
            WaypointKind::Item { class, .. } => Some((w.number, class.clone(), w.origin)),
            _ => None,
        })
        .collect();
    let e = m.sim.players[0].entity;
    let ticks = (seconds / m.sim.dt).round() as usize;
    let mut stops = Vec::new();
    for (n, class, at) in items {
        let waypoints = m.learned.waypoints.len();
        let routes_from = build_cache(
            &m.learned.waypoints,
            n,
            0.0,
            TravelFlags::ALL,
            &Default::default(),
        )
        .dist
        .iter()
        .filter(|d| d.is_finite())
        .count();
        m.sim
            .world
            .insert_one(e, Controller::Route { goal: at })
            .expect("the tourist exists");
        let got = (0..ticks).find(|_| {
            m.step();
            let s = m.sim.player_state(0).expect("the tourist exists");
            (s.origin - at).truncate().length() < 32.0 && (s.origin.z - at.z).abs() < 40.0
        });
        let stop = TourStop {
            waypoint: n,
            class,
            at,
            routes_from,
            waypoints,
            reached_after: got.map(|t| (t + 1) as f32 * m.sim.dt),
        };
        after(&m, &stop);
        stops.push(stop);
    }
    Ok(TourReport {
        waypoints: m.learned.waypoints.len(),
        stops,
    })
}

/// The two estimates of one leg from item `from` to item `to` that a waypoint graph gives,
/// beside the travel-time planner's (`botarena times --waypoints`): the route distance / 320
/// u/s, from the nearest waypoint the start reaches to the nearest that reaches the goal,
/// with the straight ends; and a route bot sent there through the simulation (seed 1, at
/// most 60 s at 20 Hz). `None` where there is no route or the bot did not arrive.
pub fn compare(
    level: &Arc<Level>,
    cmap: &CollisionMap,
    graph: &WaypointGraph,
    from: &ItemRef,
    to: &ItemRef,
    physics: &crate::physics::PhysicsParams,
) -> (Option<f32>, Option<f32>) {
    let a = goal_waypoint(cmap, graph, from.stand);
    let b = goal_waypoint(cmap, graph, to.stand);
    let route = match (a, b) {
        (Some(a), Some(b)) => {
            let mut caches = RouteCaches::new(ROUTE_CACHE_BYTES, RouteParams::default());
            caches.get(graph, b, TravelFlags::ALL).distance(a).map(|d| {
                let ends = from.stand.distance(graph.get(a).expect("waypoint").origin)
                    + to.stand.distance(graph.get(b).expect("waypoint").origin);
                (d + ends) / 320.0
            })
        }
        _ => None,
    };
    let cfg = MatchConfig::new(
        1,
        vec![PlayerConfig {
            name: "runner".into(),
            controller: ControllerConfig::Route(to.stand),
            spawn: None,
            start: Some((from.stand, 0.0)),
            senses: Default::default(),
            navigation: Default::default(),
        }],
    );
    let cfg = MatchConfig {
        params: *physics,
        ..cfg
    };
    let Ok(mut m) = Match::new(Arc::clone(level), cmap.clone(), &cfg) else {
        return (route, None);
    };
    m.set_waypoints(graph.clone());
    let mut bot = None;
    for _ in 0..1200 {
        m.step();
        if m.sim.player_state(0).is_some_and(|s| to.goal.reached(&s)) {
            bot = Some(m.sim.tick as f32 / 20.0);
            break;
        }
    }
    (route, bot)
}

/// One item of a compiled-navigation tour.
#[derive(Clone, Debug, Serialize)]
pub struct CompiledStop {
    /// The item (index, class, standing point, pickup box).
    pub item: ItemRef,
    /// Where the bot set off from.
    pub from: Vec3,
    /// Seconds the area graph predicted from there until the bot touches the item (the
    /// runner's time along the route to the standing point, less the stretch after its
    /// box first touches the pickup box), up to the end of the tick it falls in, where the
    /// simulation sees a touch; `None`: no route.
    pub predicted: Option<f32>,
    /// Seconds the bot took to touch the item; `None`: not in the time given.
    pub reached_after: Option<f32>,
    /// Times the bot died on the leg (slime it stood in when the leg began, a route given
    /// up on as stuck): where it did, `from`, `predicted` and `reached_after` are from its
    /// last respawn, the route it then followed (but see `down`).
    pub deaths: u32,
    /// Whether the bot was dead when the leg's time ran out (died in its last seconds, not
    /// yet respawned): then `from` and `predicted` are from where it last set off.
    pub down: bool,
}

impl CompiledStop {
    /// Time taken over time predicted, where both exist.
    pub fn ratio(&self) -> Option<f32> {
        Some(self.reached_after? / self.predicted?.max(0.05))
    }
}

/// Seconds of running a run (path points, to the item's standing point) saves by touching the
/// item's pickup box `goal` before its end: the length of the path after it first brings
/// the player's box into the pickup box, at running speed (a runner takes the item about
/// 32 units short of where it would stand on it, a tenth of a second).
fn touched_short(goal: &crate::planner::Goal, path: &[Vec3]) -> f32 {
    use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
    // Origins whose box touches the goal's.
    let (lo, hi) = (goal.mins - PLAYER_MAXS, goal.maxs - PLAYER_MINS);
    let speed = crate::physics::pmove::PhysicsParams::default().max_speed;
    for (k, w) in path.windows(2).enumerate() {
        let (a, d) = (w[0], w[1] - w[0]);
        // The segment's entry into the box (slabs).
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for i in 0..3 {
            if d[i].abs() < 1e-6 {
                if a[i] < lo[i] || a[i] > hi[i] {
                    t0 = 2.0;
                }
                continue;
            }
            let (u, v) = ((lo[i] - a[i]) / d[i], (hi[i] - a[i]) / d[i]);
            t0 = t0.max(u.min(v));
            t1 = t1.min(u.max(v));
        }
        if t0 <= t1 {
            let rest: f32 = path[k + 1..]
                .windows(2)
                .map(|v| (v[1] - v[0]).truncate().length())
                .sum();
            return ((1.0 - t0) * d.truncate().length() + rest) / speed;
        }
    }
    0.0
}

/// The weapons, armour and powerups of a map (the items a deathmatch player routes to).
pub fn tour_items(level: &Level, cmap: &CollisionMap) -> Vec<ItemRef> {
    use crate::map::level::ItemKind;
    crate::planner::times::items(level, cmap)
        .into_iter()
        .filter(|i| {
            matches!(
                level.items[i.index].kind,
                ItemKind::Weapon | ItemKind::Armor | ItemKind::Powerup | ItemKind::MegaHealth
            )
        })
        .collect()
}

/// A door that opens by itself on the way (no opener to go to): its mover index, the boxes
/// (mins, maxs) of the triggers that fire it, and the seconds it takes to open.
type Passed = (usize, Vec<(Vec3, Vec3)>, f32);

/// The runner's time the area graph predicts for a compiled-navigation route bot at `from`
/// (moving at `velocity`) to touch `item` in match `m` as it stands: around the doors
/// blocked now; where they cut the item off, through them as the bot goes. Each shut door
/// that something fires, first on the way first, by way of its opener (the one
/// [`CompiledNav::choose_opener`] chooses, with the doors fired before it open): there,
/// fired, then on; a reachability through a fired door waits until it has opened, a ride on
/// it until it leaves. Any other door on the rest of the way with the time it takes to open
/// once shot (a door nothing fires nor a shot opens: `None`, no way).
///
/// [`CompiledNav::choose_opener`]: crate::bot::compiled::CompiledNav::choose_opener
///
/// A door that stands open now but will have shut again when the way gets there (it waits
/// its `wait` and goes back) is predicted shut: the route is searched again with it as it
/// will stand then, and the bot fires it again on the way (a lift-door pressed open by the
/// leg before); where that finds no way, the first answer.
fn predict(m: &Match, from: Vec3, velocity: Vec3, item: &ItemRef) -> Option<f32> {
    let (seconds, met) = predict_as(m, from, velocity, item, &[])?;
    let level = &m.sim.level;
    let nav = m.nav.as_ref().expect("a compiled match");
    let mut later: Vec<(usize, MoverState)> = Vec::new();
    // Each door once, when the way first meets it.
    let mut seen: Vec<usize> = Vec::new();
    for (i, t) in met {
        let Some((door, _)) = nav.doors.openers_for(i) else {
            continue;
        };
        if seen.contains(&door) {
            continue;
        }
        seen.push(door);
        let Some(now) = m.sim.mover_state(door) else {
            continue;
        };
        if now.phase == Phase::AtA {
            continue;
        }
        let def = &level.movers[door];
        let mut then = now;
        for _ in 0..(t / m.sim.dt).floor() as u32 {
            then = then.step(def, &level.path_corners, m.sim.dt).0;
        }
        if then.phase == Phase::AtA {
            later.push((door, then));
        }
    }
    if later.is_empty() {
        return Some(seconds);
    }
    // No way through a door that will have shut (nothing fires it, no shot opens it): as
    // it stands now, the bot may yet get there in time.
    Some(predict_as(m, from, velocity, item, &later).map_or(seconds, |p| p.0))
}

/// Where a tourist in the air at `at` comes down (on a floor or in water), moving how, and
/// the seconds it takes, as the player physics brings it down with no input (what a bot
/// steers in the air is a little); where it is on the ground, swimming or over an area
/// already, `at` itself. A leg can start in mid-jump (a bot with no route jumps about until
/// its time runs out), where no area holds the bot and the graph has no route.
fn come_down(m: &Match, at: &PlayerState) -> (Vec3, Vec3, f32) {
    let nav = m.nav.as_ref().expect("a compiled match");
    if at.on_ground.is_some() || at.water_level >= 2 || nav.mesh.area_at(at.origin).is_some() {
        return (at.origin, at.velocity, 0.0);
    }
    let me = m.sim.players.first().map(|p| p.id);
    let idle = UserCmd {
        yaw: at.yaw,
        pitch: at.pitch,
        ..Default::default()
    };
    let mut s = *at;
    // Two seconds of falling: 1600 units, deeper than any drop a route takes.
    for k in 1..=(2.0 / m.sim.dt) as u32 {
        s = pmove(&s, &idle, &m.sim.cmap, &m.sim.params, m.sim.dt, me).0;
        if s.on_ground.is_some() || s.water_level >= 2 {
            return (s.origin, s.velocity, k as f32 * m.sim.dt);
        }
    }
    (at.origin, at.velocity, 0.0)
}

/// [`predict`] with the movers of `later` (mover index, state) as given instead of as they
/// stand: the time, and each reachability through a door the way meets with the seconds
/// from `from` when it gets there.
fn predict_as(
    m: &Match,
    from: Vec3,
    velocity: Vec3,
    item: &ItemRef,
    later: &[(usize, MoverState)],
) -> Option<(f32, Vec<(u32, f32)>)> {
    use crate::aas::route::{Route, build_cache_blocked, route_moving, run_path_timed};
    use crate::map::level::MoverKind;
    let state = |i: usize| match later.iter().find(|l| l.0 == i) {
        Some(l) => Some(l.1),
        None => m.sim.mover_state(i),
    };
    // A door (mover index) shut as it will stand.
    let shut = |i: usize| state(i).is_none_or(|s| s.phase == Phase::AtA);
    let mut nav = m.nav.clone().expect("a compiled match");
    if !later.is_empty() {
        nav.doors.update(state);
    }
    let met = std::cell::RefCell::new(Vec::<(u32, f32)>::new());
    let mesh = Arc::clone(&nav.mesh);
    // A jump or fall come at running: taken on the way in where the movement stage would
    // (tried through the physics on the geometry as it is now).
    let ctx = crate::aas::run::RunWorld {
        map: &m.sim.cmap,
        physics: m.sim.params,
        dt: m.sim.dt,
        me: m.sim.players.first().map(|p| p.id),
    };
    let on_the_run = crate::aas::run::on_the_run(&ctx, &mesh);
    let g = mesh.area_at(item.stand)?;
    let (level, dt) = (&m.sim.level, m.sim.dt);
    // What the tourist's routes may use now (into slime only in the biosuit).
    let travel = {
        let s = m.sim.player_state(0)?;
        let suit = m
            .sim
            .player_component::<crate::game::Inventory>(0)
            .is_some_and(|inv| m.sim.tick < inv.suit_until);
        let t = crate::bot::compiled::travel_for(crate::nav::routing::TravelFlags::ALL, &s, suit);
        let health = m.sim.player_vitals(0).map_or(100.0, |v| v.health);
        nav.query()
            .or_through_liquids(s.origin, item.stand, t, health)
    };
    let through = build_cache_blocked(&mesh, g, travel, None);
    // Doors fired on the way: (mover index, seconds from `from` when it gets where the way
    // needs it, when it leaves there again).
    let mut fired: Vec<(usize, f32, Option<f32>)> = Vec::new();
    // `r` run from `at` (standing, or moving at `vel` at the start) with what it waits for,
    // starting `t0` seconds in: on the doors `fired` and on those of `passed` (door, the
    // boxes of the triggers that fire it, seconds it takes to open) whose trigger the way
    // goes through before it: the route with its run retimed, and the doors of `passed`
    // fired on the way.
    let timed = |r: Route,
                 at: Vec3,
                 vel: Vec3,
                 to: Vec3,
                 t0: f32,
                 fired: &[(usize, f32, Option<f32>)],
                 passed: &[Passed]| {
        let id = |door: usize| level.movers[door].id.0;
        let placed = |door: usize, n: &crate::aas::MoverNeed| match *n {
            crate::aas::MoverNeed::Open(m) => m == id(door),
            crate::aas::MoverNeed::Moved(p) => mesh
                .positions
                .get(p as usize)
                .is_some_and(|p| p.mover == id(door)),
            _ => false,
        };
        // Doors of `passed` fired so far, with when each is open.
        let crossed = std::cell::RefCell::new(Vec::<(usize, f32)>::new());
        let ready = |i: u32, t: f32| {
            let reach = &mesh.reaches()[i as usize];
            let mut t = t0 + t;
            if !reach.needs.is_empty() {
                met.borrow_mut().push((i, t));
            }
            for &(door, open, leaves) in fired {
                let rides = reach.kind == crate::aas::ReachKind::Elevator
                    && mesh.areas()[reach.from as usize].mover == Some(id(door));
                t = match leaves {
                    Some(l) if rides => t.max(l),
                    _ if reach.needs.iter().any(|n| placed(door, n)) => t.max(open),
                    _ => t,
                };
            }
            for &(door, open) in crossed.borrow().iter() {
                if reach.needs.iter().any(|n| placed(door, n)) {
                    t = t.max(open);
                }
            }
            // A trigger this reachability goes through (a plat ridden up through it) fires
            // its door on the way.
            let mut crossed = crossed.borrow_mut();
            // A ride goes up (or down) the shaft first: that is where it meets a trigger.
            let way_end = if reach.kind == crate::aas::ReachKind::Elevator {
                reach.start.truncate().extend(reach.end.z)
            } else {
                reach.end
            };
            for (door, boxes, open) in passed {
                let enters = boxes.iter().filter_map(|b| {
                    crate::nav::waypoints::segment_enters_box(reach.start, way_end, b.0, b.1)
                });
                if let Some(f) = enters.reduce(f32::min)
                    && !crossed.iter().any(|c| c.0 == *door)
                {
                    let opened = t + f * reach.seconds + open;
                    crossed.push((*door, opened));
                    if reach.needs.iter().any(|n| placed(*door, n)) {
                        // Through the door it fires on its own way (a ride up to the door
                        // at the top): it gets past no sooner than the door is open.
                        t = t.max(opened - reach.seconds);
                    }
                }
            }
            t - t0
        };
        let (run, path, last_run) =
            run_path_timed(&mesh, at, vel, to, &r.reaches, ready, Some(&on_the_run));
        let route = Route {
            run_seconds: run,
            path,
            last_run,
            ..r
        };
        let crossed = crossed
            .into_inner()
            .into_iter()
            .map(|c| c.0)
            .collect::<Vec<_>>();
        (route, crossed)
    };
    let seconds = |r: &Route| r.run_seconds - touched_short(&item.goal, &r.path[r.last_run..]);
    let (mut at, mut vel, mut t0) = (from, velocity, 0.0f32);
    for _ in 0..=level.movers.len() {
        let around = build_cache_blocked(&mesh, g, travel, Some(&nav.doors.blocked));
        if let Some(r) = route_moving(&mesh, &around, at, vel, item.stand) {
            let t = t0 + seconds(&timed(r, at, vel, item.stand, t0, &fired, &[]).0);
            return Some((t, met.into_inner()));
        }
        let r = route_moving(&mesh, &through, at, vel, item.stand)?;
        let first = r
            .reaches
            .iter()
            .copied()
            .find(|&i| nav.doors.is_blocked(i))?;
        let (door, openers) = nav.doors.openers_for(first)?;
        if !shut(door) || openers.is_empty() {
            break;
        }
        // Off to the opener first, round what is shut (the doors fired before it open);
        // then on through the door from there.
        // (Where no opener can be got to, the door shut on the way to one first: a
        // bridge slid out to shoot a trigger from.)
        let (door, k, first) = match nav.query().choose_opener(first, at, item.stand, travel) {
            Some((door, k, _)) => (door, k, first),
            None => {
                let (door, k, _, b) = nav.query().chained_opener(at, first, travel, shut)?;
                (door, k, b)
            }
        };
        let opener = nav.doors.door_openers(door)?[k];
        let place = opener.place();
        let to_it = build_cache_blocked(
            &mesh,
            mesh.area_at(place)?,
            travel,
            Some(&nav.doors.blocked),
        );
        let r = route_moving(&mesh, &to_it, at, vel, place)?;
        let there = timed(r, at, vel, place, t0, &fired, &[]).0.run_seconds;
        t0 += there + opener.fire_seconds(level, dt);
        let (open, leaves) = nav.doors.door_times(level, first, dt)?;
        fired.push((door, t0 + open, leaves.map(|l| t0 + l)));
        // Fired by standing on it (a lift that sinks when stepped onto): the runner rides
        // it to where it opens and goes on from there, as the bot does, not from the top (a
        // walk off the ledge into the shaft, once it is down, came well after the bot).
        let on_it = mesh
            .area_at(place)
            .and_then(|a| mesh.areas()[a as usize].mover)
            == Some(level.movers[door].id.0);
        let ridden = nav
            .doors
            .door_open_offset(door)
            .map(|off| place + off)
            .filter(|p| on_it && mesh.area_at(*p).is_some());
        nav.doors.assume_open(door);
        match ridden {
            Some(p) => {
                t0 += open;
                (at, vel) = (p, Vec3::ZERO);
            }
            None => (at, vel) = (place, Vec3::ZERO),
        }
    }
    // Shut doors shot open on the way (or opening already): with the time each takes.
    let r = route_moving(&mesh, &through, at, vel, item.stand)?;
    let shot = |i: u32| {
        nav.doors.openers_for(i).is_some_and(|(d, o)| {
            !o.is_empty()
                || crate::bot::compiled::fired_by_anything(&m.sim, d)
                || matches!(
                    level.movers[d].kind,
                    MoverKind::SecretDoor {
                        shootable: true,
                        ..
                    } | MoverKind::Door {
                        shootable: true,
                        ..
                    }
                )
                || !state(d).is_none_or(|s| s.offset.length() < 0.5)
        })
    };
    let blocked: Vec<u32> = r
        .reaches
        .iter()
        .copied()
        .filter(|&i| nav.doors.is_blocked(i))
        .collect();
    if !blocked.iter().all(|&i| shot(i)) {
        return None;
    }
    // Doors fired by a trigger the way goes through wait on the way for what is left of
    // their opening; the others, the whole of it.
    let mut passed: Vec<Passed> = Vec::new();
    for &i in &blocked {
        let (door, _) = nav.doors.openers_for(i)?;
        let boxes: Vec<(Vec3, Vec3)> = crate::bot::compiled::firing_triggers(level, door)
            .into_iter()
            .map(|k| (level.triggers[k].mins, level.triggers[k].maxs))
            .collect();
        if !boxes.is_empty() && !passed.iter().any(|p| p.0 == door) {
            passed.push((door, boxes, nav.doors.opening_seconds(level, i, dt)?));
        }
    }
    let (r, crossed) = timed(r, at, vel, item.stand, t0, &fired, &passed);
    let mut doors: Vec<(usize, f32)> = blocked
        .iter()
        .filter_map(|&i| {
            let door = nav.doors.openers_for(i)?.0;
            (!crossed.contains(&door)).then_some((door, nav.doors.opening_seconds(level, i, dt)?))
        })
        .collect();
    doors.dedup_by_key(|d| d.0);
    let t = t0 + seconds(&r) + doors.iter().map(|d| d.1).sum::<f32>();
    Some((t, met.into_inner()))
}

/// Tours `items` with one compiled-navigation route bot (navigation `mesh`, compiled at 20
/// Hz): seed `seed` chooses its spawn point and the item it starts the round with; each
/// item is given `seconds`, and is reached when the bot's box touches its pickup box where
/// the item is (a mover it rests on carries it; once it has come to rest elsewhere the leg
/// sets off again, timed from then, and the stop names the item there). `each` sees the match after every tick, with the stop once it is over (for diagnostics).
pub fn tour_compiled(
    level: Arc<Level>,
    cmap: CollisionMap,
    mesh: Arc<crate::aas::NavMesh>,
    items: &[ItemRef],
    seed: u64,
    seconds: f32,
    mut each: impl FnMut(&Match, Option<&CompiledStop>),
) -> Result<Vec<CompiledStop>, MatchError> {
    let mut cfg = MatchConfig::new(
        seed,
        vec![PlayerConfig {
            name: "tourist".into(),
            controller: ControllerConfig::Idle,
            spawn: None,
            start: None,
            senses: Default::default(),
            navigation: crate::bot::compiled::Navigation::Compiled,
        }],
    );
    cfg.nav = Some(Arc::clone(&mesh));
    let mut m = Match::new(level, cmap, &cfg)?;
    let e = m.sim.players[0].entity;
    let ticks = (seconds / m.sim.dt).round() as usize;
    let n = items.len();
    let mut stops = Vec::new();
    // Where the tourist sets off from and the time predicted from there.
    let leg_start = |m: &Match, item: &ItemRef| {
        let at = m.sim.player_state(0).expect("the tourist exists");
        // On the bots' graph, around what is blocked now (doors that do not open by
        // approach, while closed); through them where they cut the item off (the bot fires
        // them, shoots them or waits for them).
        // Counted in whole ticks, as the bot's time is: a touch is seen at the end of the
        // tick it happens in (half a tick on average, a tenth of a short leg's time).
        let dt = m.sim.dt;
        let (down, moving, falling) = come_down(m, &at);
        let predicted =
            predict(m, down, moving, item).map(|p| ((p + falling) / dt - 1e-3).ceil() * dt);
        (at.origin, predicted)
    };
    let alive = |m: &Match| m.sim.player_vitals(0).is_none_or(|v| v.alive);
    // Where each item lay when the match began: an item on a mover rides it (a hatch that
    // lowers a weapon into reach), and the leg goes where the item is.
    let placed: Vec<Option<Vec3>> = items.iter().map(|i| m.sim.item_origin(i.index)).collect();
    let shift = |m: &Match, k: usize| match (m.sim.item_origin(items[k].index), placed[k]) {
        (Some(now), Some(then)) => now - then,
        _ => Vec3::ZERO,
    };
    for k in 0..n {
        let slot = (k + seed as usize) % n;
        let mut moved = shift(&m, slot);
        let mut item = shifted(&items[slot], moved);
        let (mut from, mut predicted) = leg_start(&m, &item);
        m.sim
            .world
            .insert_one(e, Controller::Route { goal: item.stand })
            .expect("the tourist exists");
        let mut last = moved;
        // A bot that dies on the way (it may set off with a few points of health in slime)
        // follows a new route from where it respawns: that one is timed.
        let mut living = alive(&m);
        let mut deaths = 0;
        let mut timed_from = 0;
        let got = (0..ticks).find(|&t| {
            m.step();
            each(&m, None);
            match (living, alive(&m)) {
                (true, false) => {
                    deaths += 1;
                    living = false;
                }
                (false, true) => {
                    living = true;
                    (from, predicted) = leg_start(&m, &item);
                    timed_from = t + 1;
                    return false;
                }
                _ => {}
            }
            let s = m.sim.player_state(0).expect("the tourist exists");
            if living && item.goal.reached(&s) {
                return true;
            }
            // The item has come to rest somewhere else: the leg sets off again for it
            // there, timed from now (the prediction was for where it was).
            let now = shift(&m, slot);
            if now != moved && now == last {
                moved = now;
                item = shifted(&items[slot], moved);
                m.sim
                    .world
                    .insert_one(e, Controller::Route { goal: item.stand })
                    .expect("the tourist exists");
                if living {
                    (from, predicted) = leg_start(&m, &item);
                    timed_from = t + 1;
                }
            }
            last = now;
            false
        });
        let stop = CompiledStop {
            item: item.clone(),
            from,
            predicted,
            reached_after: got.map(|t| (t + 1 - timed_from) as f32 * m.sim.dt),
            deaths,
            down: !alive(&m),
        };
        each(&m, Some(&stop));
        stops.push(stop);
    }
    Ok(stops)
}

/// `item` moved by `by` (carried by the mover it rests on): its standing point and pickup
/// box.
fn shifted(item: &ItemRef, by: Vec3) -> ItemRef {
    let mut out = item.clone();
    out.stand += by;
    out.goal.mins += by;
    out.goal.maxs += by;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Running straight at an item, the player's box touches the pickup box 32 units
    /// (16 + 16) short of its centre: a tenth of a second at 320 u/s; a path that never
    /// comes near saves nothing.
    #[test]
    fn a_runner_touches_the_item_short_of_its_standing_point() {
        let goal = crate::planner::Goal {
            mins: Vec3::new(484.0, -16.0, 0.0),
            maxs: Vec3::new(516.0, 16.0, 56.0),
        };
        let path = [Vec3::new(0.0, 0.0, 24.0), Vec3::new(500.0, 0.0, 24.0)];
        let saved = touched_short(&goal, &path);
        assert!((saved - 32.0 / 320.0).abs() < 1e-4, "{saved}");
        let far = [Vec3::new(0.0, 300.0, 24.0), Vec3::new(400.0, 300.0, 24.0)];
        assert_eq!(touched_short(&goal, &far), 0.0);
    }
}
