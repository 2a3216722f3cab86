//! The bot brain (a stage after the controllers, before routing): each tick a living bot
//! with the `brain` controller picks one goal from what it perceives and remembers, and
//! hands it on — a route goal to the routing stage, a movement request to the movement
//! stage, a view and a trigger to the weapons stage. It never traces: it reads its
//! [`Percepts`], its [`Tracking`], the waypoint graph and route caches.
//!
//! Goals, first that applies:
//! 1. **Fight** the nearest visible enemy once it has been in sight for the bot's reaction
//!    time: look at it (leading projectiles by the enemy's velocity, rockets at its feet),
//!    with an aim error drawn from the bot's stream every 0.3 s; pick the weapon by range and
//!    ammunition; strafe sideways and keep the weapon's preferred distance.
//! 2. **Chase** an enemy that went out of sight to where it was tracked (2 s).
//! 3. **Investigate** a located sound another player made (3 s).
//! 4. **Fetch** the item with the best value over route distance among the items it has
//!    seen and does not believe taken (an item found missing is believed gone for its
//!    respawn time); re-chosen every half second.
//! 5. **Explore** ([`super::explore::Explorer`]).
//!
//! A bot that stays within 64 units of one spot for [`STUCK_KILL`] seconds while not
//! fighting uses the `kill` command, as the explore controller does.

use std::sync::Arc;

use glam::Vec3;

use super::explore::Explorer;
use super::learned::LearnedMap;
use super::movement::{MoveIntent, MoveRequest, MoveStatus, MoveTarget};
use super::prediction::Tracking;
use super::routing::{RouteGoal, RouteState};
use super::{Percepts, Thing};
use crate::game::combat::MISSILE_SPEED;
use crate::game::{Aim, Inventory, MatchRules, Weapon};
use crate::map::EntId;
use crate::map::level::ItemKind;
use crate::nav::routing::TravelFlags;
use crate::nav::waypoints::WaypointKind;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState};
use crate::sim::Sim;
use crate::sim::components::{Motion, PlayerRng, Still, Vitals};
use crate::sim::sound::SoundKind;

/// Seconds within 64 units of one spot after which a bot (not fighting) gives up.
pub const STUCK_KILL: f32 = 8.0;
/// Seconds between item choices.
pub const CHOOSE_SECONDS: f32 = 0.5;
/// Seconds an out-of-sight enemy is chased.
pub const CHASE_SECONDS: f32 = 2.0;
/// Seconds a sound is investigated; also how long no sound is taken up after an
/// investigation found no route.
pub const INVESTIGATE_SECONDS: f32 = 3.0;

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Skill {
    /// Seconds an enemy must be in sight before the bot reacts.
    pub reaction: f32,
    /// Largest aim error, degrees (uniform in ±this, yaw and pitch).
    pub aim_error: f32,
    /// Travel types the bot's routes may use.
    pub travel: TravelFlags,
}

impl Default for Skill {
    fn default() -> Self {
        Skill {
            reaction: 0.2,
            aim_error: 4.0,
            travel: TravelFlags::ALL,
        }
    }
}

/// What the brain is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    /// Shooting at this enemy.
    Fight(EntId),
    /// Going where an enemy was last tracked.
    Chase(Vec3),
    /// Going to a located sound.
    Investigate(Vec3),
    /// Fetching item `usize` (standing point given).
    Item(usize, Vec3),
    /// Exploring.
    Explore,
}

/// A brain bot's aim error while it fights.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AimError {
    /// Degrees added to the yaw.
    pub yaw: f32,
    /// Degrees added to the pitch.
    pub pitch: f32,
    /// Seconds until it is drawn again.
    pub left: f32,
}

/// Which way a fighting brain bot strafes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strafe {
    /// +1 right, −1 left.
    pub side: f32,
    /// Seconds until it flips.
    pub left: f32,
}

/// A brain bot's state.
#[derive(Clone, Debug)]
pub struct Brain {
    /// Its skill.
    pub skill: Skill,
    /// The current goal.
    pub goal: Goal,
    /// The enemy in sight and the tick it came into sight.
    pub enemy: Option<(EntId, u64)>,
    /// Current aim error, drawn again every 0.3 s.
    pub aim_off: AimError,
    /// Strafe side and how long it is kept.
    pub strafe: Strafe,
    /// Seconds left on a chase or investigation.
    pub goal_left: f32,
    /// Seconds until the item choice is made again.
    pub choose_in: f32,
    /// Items it has seen (by index).
    pub known: Vec<bool>,
    /// Tick until which it believes each item is gone.
    pub gone_until: Vec<u64>,
    /// Items given up on (no route), with seconds left.
    pub skip: Vec<(usize, f32)>,
    /// Seconds before a sound is investigated again, after an investigation found no route
    /// (the bot is off its graph: every sound would fail the same way until exploring brings
    /// it back, and taking each up in turn would flip between goals every tick).
    pub investigate_in: f32,
    /// Exploring state.
    pub explore: Explorer,
}

impl Brain {
    /// A fresh brain at `origin` for a map with `items` items.
    pub fn new(skill: Skill, origin: Vec3, items: usize) -> Brain {
        Brain {
            skill,
            goal: Goal::Explore,
            enemy: None,
            aim_off: AimError::default(),
            strafe: Strafe {
                side: 1.0,
                left: 0.0,
            },
            goal_left: 0.0,
            choose_in: 0.0,
            known: vec![false; items],
            gone_until: vec![0; items],
            skip: Vec::new(),
            investigate_in: 0.0,
            explore: Explorer::new(origin),
        }
    }
}

/// The weapon a bot picks at `dist` units from its enemy; `wet`: in water above the waist,
/// where the lightning gun would discharge every cell at once around the bot.
pub fn choose_weapon(inv: &Inventory, dist: f32, wet: bool) -> Weapon {
    use Weapon::*;
    let ok = |w| inv.can_fire(w) && !(wet && w == Lightning);
    if ok(RocketLauncher) && dist > 160.0 {
        RocketLauncher
    } else if ok(Lightning) && dist < 550.0 {
        Lightning
    } else if ok(SuperShotgun) && dist < 250.0 {
        SuperShotgun
    } else if ok(SuperNailgun) {
        SuperNailgun
    } else if ok(GrenadeLauncher) && dist > 160.0 && dist < 600.0 {
        GrenadeLauncher
    } else if ok(SuperShotgun) {
        SuperShotgun
    } else if ok(Nailgun) {
        Nailgun
    } else if ok(Shotgun) {
        Shotgun
    } else {
        Axe
    }
}

/// Distance the bot likes to keep from its enemy with `w`.
fn preferred_range(w: Weapon) -> f32 {
    match w {
        Weapon::Axe => 0.0,
        Weapon::SuperShotgun | Weapon::Shotgun => 150.0,
        Weapon::Lightning => 300.0,
        Weapon::RocketLauncher | Weapon::GrenadeLauncher => 400.0,
        _ => 300.0,
    }
}

/// How much the bot wants item class `class` now.
pub fn item_value(kind: ItemKind, class: &str, inv: &Inventory, v: &Vitals) -> f32 {
    match kind {
        ItemKind::Weapon => match Weapon::from_classname(class) {
            Some((w, _, _)) if !inv.has(w) => match w {
                Weapon::RocketLauncher => 100.0,
                Weapon::Lightning => 90.0,
                Weapon::SuperNailgun | Weapon::GrenadeLauncher => 70.0,
                Weapon::SuperShotgun => 60.0,
                _ => 45.0,
            },
            Some((_, a, _)) => {
                let max = crate::game::weapons::MAX_AMMO[a as usize] as f32;
                if (inv.ammo[a as usize] as f32) < max * 0.3 {
                    25.0
                } else {
                    0.0
                }
            }
            None => 0.0,
        },
        ItemKind::Ammo => match crate::game::weapons::ammo_box(class, 0) {
            Some((a, _)) => {
                let max = crate::game::weapons::MAX_AMMO[a as usize] as f32;
                let have = inv.ammo[a as usize] as f32;
                if have >= max {
                    0.0
                } else if have < max * 0.3 {
                    20.0
                } else {
                    4.0
                }
            }
            None => 0.0,
        },
        ItemKind::Health => (100.0 - v.health).max(0.0) * 0.8,
        ItemKind::MegaHealth => (250.0 - v.health).max(0.0) * 0.4,
        ItemKind::Armor => {
            let (ty, val) = crate::game::items::armor_of(class);
            (ty * val - v.armor_type * v.armor).max(0.0) * 0.6
        }
        ItemKind::Powerup => match class {
            "item_artifact_super_damage" => 120.0,
            "item_artifact_invulnerability" => 100.0,
            "item_artifact_invisibility" => 30.0,
            _ => 8.0,
        },
        ItemKind::Other => 0.0,
    }
}

/// Yaw and pitch (degrees, Quake's conventions) looking from `from` to `to`.
pub fn look_at(from: Vec3, to: Vec3) -> (f32, f32) {
    let d = to - from;
    let yaw = d.y.atan2(d.x).to_degrees();
    let pitch = -(d.z.atan2(d.truncate().length())).to_degrees();
    (yaw, pitch)
}

/// The brain stage: each living brain bot's goal, and what it hands on (see the module
/// docs). Reads [`Motion`], [`Vitals`], [`Inventory`], [`Percepts`], [`Tracking`],
/// [`MoveStatus`], [`Still`], item slots, the learned map (the compiled
/// navigation for a compiled-navigation bot's route times) and the rules' respawn scale;
/// writes [`Brain`], [`RouteState`] (goal), [`MoveIntent`], [`Aim`], the bot's random
/// stream, the routing caches (distances asked for), and deaths (stuck bots).
pub fn brain_system(
    sim: &mut Sim,
    learned: &mut LearnedMap,
    mut nav: Option<super::compiled::NavQuery<'_>>,
    rules: &MatchRules,
) {
    let dt = sim.dt;
    let tick = sim.tick;
    let rate = sim.tick_rate();
    let level = Arc::clone(&sim.level);
    // Items as they lie (dropped to the floor, carried by the movers they rest on) with
    // their waypoint, if any.
    let items: Vec<(Vec3, Option<u32>)> = sim
        .items
        .iter()
        .enumerate()
        .map(|(i, &e)| {
            let o = sim
                .world
                .get::<&crate::sim::components::ItemSlot>(e)
                .map(|s| s.origin)
                .unwrap_or(level.items[i].origin);
            (
                crate::nav::sample::item_stand_point(level.items[i].kind, o),
                None,
            )
        })
        .collect();
    let mut items = items;
    for w in learned.waypoints.waypoints() {
        if let WaypointKind::Item { item, .. } = w.kind
            && let Some(slot) = items.get_mut(item)
        {
            slot.1 = Some(w.number);
        }
    }
    // The caches answer route distances (building them as needed) while the rest of the
    // learned map is read.
    let routes = std::sync::Arc::make_mut(&mut learned.routes);
    let mut stuck = Vec::new();
    // One view for the loop: asking the world per player prepares the query every time.
    let mut view = sim.world.view_mut::<(
        &mut Brain,
        &Motion,
        &Vitals,
        &Inventory,
        &Percepts,
        &Tracking,
        &mut RouteState,
        &mut MoveIntent,
        &MoveStatus,
        &mut Aim,
        &mut PlayerRng,
        &Still,
        &super::compiled::AreaNav,
    )>();
    for &player in &sim.players {
        let id = player.id;
        let Some(q) = view.get_mut(player.entity) else {
            continue;
        };
        let (b, m, v, inv, p, trk, route, intent, status, aim, rng, still, area_nav) = q;
        let compiled = area_nav.navigation == super::compiled::Navigation::Compiled;
        *aim = Aim::default();
        if !v.alive {
            b.enemy = None;
            b.goal = Goal::Explore;
            route.goal = None;
            continue;
        }
        let s: PlayerState = m.0;
        let eye = s.eye();
        // Memory of items: seen ones are known and there; a known one near the eye that is
        // not seen is believed gone for its respawn time.
        for sn in &p.visible {
            if let Thing::Item(i) = sn.thing {
                b.known[i] = true;
                b.gone_until[i] = 0;
            }
        }
        for (i, (stand, _)) in items.iter().enumerate() {
            if b.known[i]
                && b.gone_until[i] <= tick
                && stand.distance(s.origin) < 96.0
                && !p.visible.iter().any(|sn| sn.thing == Thing::Item(i))
            {
                let secs = level.items[i].respawn.unwrap_or(1.0e6) * rules.respawn_scale;
                b.gone_until[i] = tick + (secs * rate).round() as u64;
            }
        }
        for k in b.skip.iter_mut() {
            k.1 -= dt;
        }
        b.skip.retain(|k| k.1 > 0.0);
        b.investigate_in = (b.investigate_in - dt).max(0.0);
        // 1. An enemy in sight.
        let enemy = p.visible.iter().find_map(|sn| match sn.thing {
            Thing::Player(pid) => Some((pid, sn.pos, sn.distance)),
            _ => None,
        });
        b.enemy = match (enemy, b.enemy) {
            (Some((pid, ..)), Some((old, since))) if pid == old => Some((old, since)),
            (Some((pid, ..)), _) => Some((pid, tick)),
            (None, _) => None,
        };
        let reacted = b
            .enemy
            .is_some_and(|(_, since)| (tick - since) as f32 * dt >= b.skill.reaction);
        if let (Some((pid, pos, dist)), true) = (enemy, reacted) {
            b.goal = Goal::Fight(pid);
            b.goal_left = CHASE_SECONDS;
            let w = choose_weapon(inv, dist, s.water_level > 1);
            let vel = trk
                .enemies
                .iter()
                .find(|t| t.id == pid)
                .map(|t| t.state.velocity)
                .unwrap_or(Vec3::ZERO);
            let mut target = pos;
            match w {
                Weapon::RocketLauncher | Weapon::Nailgun | Weapon::SuperNailgun => {
                    target += vel * (dist / MISSILE_SPEED);
                    if w == Weapon::RocketLauncher {
                        // At the feet: splash hurts even when the rocket misses.
                        target.z += PLAYER_MINS.z - (PLAYER_MINS.z + PLAYER_MAXS.z) * 0.5 + 8.0;
                    }
                }
                _ => {}
            }
            b.aim_off.left -= dt;
            if b.aim_off.left <= 0.0 {
                let e = b.skill.aim_error;
                // Yaw first, then pitch, from the bot's own stream.
                let yaw = rng.0.range(-e, e);
                let pitch = rng.0.range(-e, e);
                b.aim_off = AimError {
                    yaw,
                    pitch,
                    left: 0.3,
                };
            }
            let (yaw, pitch) = look_at(eye, target);
            aim.view = Some((
                yaw + b.aim_off.yaw,
                (pitch + b.aim_off.pitch).clamp(-80.0, 80.0),
            ));
            aim.weapon = Some(w);
            aim.fire = true;
            // Strafe, keeping the weapon's distance.
            b.strafe.left -= dt;
            if b.strafe.left <= 0.0 || matches!(status, MoveStatus::Blocked(_)) {
                b.strafe = Strafe {
                    side: -b.strafe.side,
                    left: rng.0.range(0.6, 1.6),
                };
            }
            let to = (pos - s.origin).truncate().normalize_or_zero().extend(0.0);
            let side = Vec3::new(to.y, -to.x, 0.0) * b.strafe.side;
            let keep = (dist - preferred_range(w)).clamp(-128.0, 128.0);
            let goal = s.origin + side * 96.0 + to * keep;
            intent.0 = Some(MoveRequest {
                target: MoveTarget::Point(goal),
                speed: 320.0,
                known: false,
                wade: false,
                to_target: false,
            });
            route.goal = None;
            if still.seconds > STUCK_KILL {
                stuck.push(player);
            }
            continue;
        }
        if enemy.is_some() {
            // Reacting: keep doing what it did, looking at the enemy.
            if let Some((_, pos, _)) = enemy {
                aim.view = Some(look_at(eye, pos));
            }
        }
        // 2. Chase an enemy that left sight; 3. investigate a sound.
        if let Goal::Fight(pid) = b.goal {
            let last = trk.enemies.iter().find(|t| t.id == pid);
            b.goal = match last {
                Some(t) => Goal::Chase(t.predicted_at(&sim.cmap, &sim.params, 0.5)),
                None => Goal::Explore,
            };
        }
        if !matches!(b.goal, Goal::Chase(_)) {
            let sound = p
                .heard
                .iter()
                .rev()
                .find_map(|h| match (h.source, h.position) {
                    (Some(src), Some(pos))
                        if src != id
                            && src.0 > level.movers.len() as u32
                            && !matches!(
                                h.kind,
                                SoundKind::ItemPickup | SoundKind::ItemRespawn | SoundKind::Mover
                            ) =>
                    {
                        Some(pos)
                    }
                    _ => None,
                });
            if let Some(pos) = sound
                && !matches!(b.goal, Goal::Investigate(_))
                && b.investigate_in <= 0.0
            {
                b.goal = Goal::Investigate(pos);
                b.goal_left = INVESTIGATE_SECONDS;
            }
        }
        if let Goal::Chase(at) | Goal::Investigate(at) = b.goal {
            b.goal_left -= dt;
            let no_route = route.goal.is_some_and(|g| g.point == at) && route.no_route;
            if no_route && matches!(b.goal, Goal::Investigate(_)) {
                b.investigate_in = INVESTIGATE_SECONDS;
            }
            if b.goal_left <= 0.0 || at.distance(s.origin) < 48.0 || no_route {
                b.goal = Goal::Explore;
            } else {
                set_route(route, at, b.skill.travel);
                continue;
            }
        }
        // 4. The best item.
        b.choose_in -= dt;
        let item_done = match b.goal {
            Goal::Item(i, _) => {
                b.gone_until[i] > tick
                    || (route.no_route && route.goal.is_some())
                    || matches!(status, MoveStatus::Blocked(_))
            }
            _ => false,
        };
        if let Goal::Item(i, _) = b.goal
            && item_done
            && b.gone_until[i] <= tick
        {
            // No way there that it knows: leave it and explore for a while.
            b.skip.push((i, 10.0));
            b.goal = Goal::Explore;
            b.choose_in = 2.0;
        }
        if b.choose_in <= 0.0
            || matches!(
                b.goal,
                Goal::Chase(_) | Goal::Investigate(_) | Goal::Fight(_)
            )
        {
            b.choose_in = CHOOSE_SECONDS;
            let g = &learned.waypoints;
            let here = route
                .previous
                .or(route.next)
                .filter(|&n| {
                    g.get(n)
                        .is_some_and(|w| w.origin.distance(s.origin) < 256.0)
                })
                .or_else(|| g.nearest(s.origin, 256.0).map(|x| x.0));
            // What a compiled-navigation bot's routes may use (into slime in the suit).
            let area_travel =
                super::compiled::travel_for(b.skill.travel, &s, tick < inv.suit_until);
            let mut best: Option<(f32, usize)> = None;
            for (i, &(stand, wp)) in items.iter().enumerate() {
                if !b.known[i] || b.gone_until[i] > tick || b.skip.iter().any(|k| k.0 == i) {
                    continue;
                }
                let def = &level.items[i];
                let value = item_value(def.kind, &def.classname, inv, v);
                if value <= 0.0 {
                    continue;
                }
                let straight = stand.distance(s.origin);
                let seen = p.visible.iter().any(|sn| sn.thing == Thing::Item(i));
                let goal_wp = wp.or_else(|| g.nearest(stand, 256.0).map(|x| x.0));
                // The graph's distance where it knows a way; straight when the item is in
                // sight; otherwise it is not a candidate (exploring will find a way).
                // A compiled-navigation bot knows the route time on the area graph (as the
                // distance run at full speed in that time).
                let known = match (here, goal_wp, nav.as_mut()) {
                    (_, _, Some(n)) if compiled => {
                        n.seconds(s.origin, stand, area_travel).map(|t| t * 320.0)
                    }
                    (Some(h), Some(gw), _) => routes.get(g, gw, b.skill.travel).distance(h),
                    _ => None,
                };
                let cost = match (known, seen) {
                    (Some(d), _) => d,
                    (None, true) => straight,
                    (None, false) => continue,
                };
                let score = value / (cost + 200.0);
                if best.is_none_or(|x| score > x.0) {
                    best = Some((score, i));
                }
            }
            b.goal = match best {
                Some((_, i)) => Goal::Item(i, items[i].0),
                None => Goal::Explore,
            };
        }
        match b.goal {
            Goal::Item(_, at) => {
                set_route(route, at, b.skill.travel);
                if still.seconds > STUCK_KILL {
                    stuck.push(player);
                }
            }
            _ => {
                route.goal = None;
                let (req, _) = b.explore.step(
                    &sim.cmap,
                    &learned.waypoints,
                    &learned.visits,
                    &level,
                    &s,
                    p,
                    status,
                    &mut rng.0,
                    dt,
                    None,
                );
                intent.0 = Some(req);
                if still.seconds > STUCK_KILL {
                    stuck.push(player);
                }
            }
        }
    }
    for p in stuck {
        crate::game::life::kill(sim, p, "stuck", None);
    }
}

fn set_route(route: &mut RouteState, at: Vec3, flags: TravelFlags) {
    if route.goal.map(|g| g.point) != Some(at) {
        *route = RouteState {
            goal: Some(RouteGoal { point: at, flags }),
            ..Default::default()
        };
    }
}
