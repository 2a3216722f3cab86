//! What a program outside the simulation reads of a running match (the Python module's
//! environments, a learning agent, a tool): players as plain records, events stamped with
//! their tick, the scoreboard, and one player's fixed-length observation vector — its own
//! state, what its perception stage sees, and the direction of the next waypoint toward a
//! goal. Nothing here changes the match, so reading never alters a run's hashes.
//!
//! Entry points: [`players`], [`events_json`], [`scoreboard`], [`Observer`] (the observation,
//! whose layout is [`OBS_LAYOUT`]).

use glam::Vec3;
use serde::Serialize;

use crate::bot::{Percepts, Thing};
use crate::game::weapons::{Inventory, WEAPONS};
use crate::map::level::ItemKind;
use crate::nav::routing::{RouteCaches, RouteParams, TravelFlags};
use crate::sim::SimEvent;
use crate::sim::components::ItemSlot;
use crate::tick::Match;

/// One player as an outside program sees it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerInfo {
    /// Name (unique in a scenario).
    pub name: String,
    /// Entity id (what events name players by).
    pub id: u32,
    /// Controller kind: "brain", "external", "script", …
    pub controller: &'static str,
    /// Origin, units.
    pub origin: [f32; 3],
    /// Velocity, units per second.
    pub velocity: [f32; 3],
    /// View angles: pitch, yaw, roll (always 0), degrees.
    pub angles: [f32; 3],
    /// Health points.
    pub health: f32,
    /// Armour points.
    pub armour: f32,
    /// Weapon in hand (`rocket_launcher`, …).
    pub weapon: String,
    /// Frags.
    pub frags: i32,
    /// Deaths.
    pub deaths: u32,
    /// Alive, or waiting to respawn.
    pub alive: bool,
}

/// Every player, in id order.
pub fn players(m: &Match) -> Vec<PlayerInfo> {
    (0..m.sim.players.len())
        .filter_map(|i| {
            let s = m.sim.player_state(i)?;
            let v = m.sim.player_vitals(i)?;
            let st = m.sim.player_stats(i)?;
            let inv: Inventory = m.sim.player_component(i)?;
            let ctrl: crate::bot::control::Controller = m.sim.player_component(i)?;
            Some(PlayerInfo {
                name: m.sim.player_name(i)?,
                id: m.sim.players[i].id.0,
                controller: ctrl.kind(),
                origin: s.origin.to_array(),
                velocity: s.velocity.to_array(),
                angles: [s.pitch, s.yaw, 0.0],
                health: v.health,
                armour: v.armor,
                weapon: serde_json::to_value(inv.current)
                    .ok()
                    .and_then(|w| w.as_str().map(str::to_string))
                    .unwrap_or_default(),
                frags: st.frags,
                deaths: st.deaths,
                alive: v.alive,
            })
        })
        .collect()
}

/// This tick's events as flat JSON objects: `{"tick": t, "kind": "Death", "player": 2, …}`
/// (the event's fields beside its kind, player ids as in [`PlayerInfo::id`]).
pub fn events_json(m: &Match) -> Vec<serde_json::Value> {
    m.sim
        .events
        .iter()
        .map(|e| event_json(m.sim.tick, e))
        .collect()
}

/// One event, of tick `tick`, as [`events_json`] writes it.
pub fn event_json(tick: u64, e: &SimEvent) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    out.insert("tick".into(), tick.into());
    // Serde writes an enum variant as {"Kind": {fields}}; flatten it.
    if let Ok(serde_json::Value::Object(o)) = serde_json::to_value(e) {
        for (kind, fields) in o {
            out.insert("kind".into(), kind.into());
            if let serde_json::Value::Object(f) = fields {
                out.extend(f);
            }
        }
    }
    serde_json::Value::Object(out)
}

/// One line of the scoreboard.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreLine {
    /// Name.
    pub name: String,
    /// Frags.
    pub frags: i32,
    /// Other players killed.
    pub kills: u32,
    /// Deaths.
    pub deaths: u32,
    /// Deaths scored against oneself.
    pub suicides: u32,
}

/// The scoreboard: most frags first, ties in id order.
pub fn scoreboard(m: &Match) -> Vec<ScoreLine> {
    let mut out: Vec<ScoreLine> = (0..m.sim.players.len())
        .filter_map(|i| {
            let st = m.sim.player_stats(i)?;
            Some(ScoreLine {
                name: m.sim.player_name(i)?,
                frags: st.frags,
                kills: st.kills,
                deaths: st.deaths,
                suicides: st.suicides,
            })
        })
        .collect();
    // A stable sort keeps id order among equal frags.
    out.sort_by_key(|l| std::cmp::Reverse(l.frags));
    out
}

/// Where the observation's route hint leads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    /// The nearest other living player.
    Enemy,
    /// A fixed point.
    Point(Vec3),
}

/// The discrete action of the environments: how many choices each of its numbers has
/// (forward, side, turn, look, jump, fire, weapon); [`action_command`] says what they mean.
pub const ACTION_NVEC: [i64; 7] = [3, 3, 5, 3, 2, 2, 9];
const MOVE: [f32; 3] = [-320.0, 0.0, 320.0];
const TURN: [f32; 5] = [-30.0, -10.0, 0.0, 10.0, 30.0];
const LOOK: [f32; 3] = [-10.0, 0.0, 10.0];
/// Pitch an action may look up or down to, degrees.
pub const PITCH_LIMIT: f32 = 80.0;

/// The command a discrete action gives a player now in state `s`: back / none / forward and
/// left / none / right at 320 units per second; a turn of -30, -10, 0, +10 or +30 degrees of
/// yaw from where it looks (+ turns left); a look of -10, 0 or +10 degrees of pitch (+ looks
/// down, kept within ±[`PITCH_LIMIT`]); jump and trigger held or not; 0 to keep the weapon in
/// hand or 1..=8 to switch to [`WEAPONS`]`[i - 1]`. An action of another length or with a
/// number out of its range is refused, saying which.
pub fn action_command(
    action: &[i64],
    s: &crate::physics::PlayerState,
) -> Result<crate::bot::control::ScriptStep, String> {
    if action.len() != ACTION_NVEC.len()
        || action
            .iter()
            .zip(ACTION_NVEC)
            .any(|(&a, n)| !(0..n).contains(&a))
    {
        return Err(format!(
            "action {action:?} is not in MultiDiscrete({ACTION_NVEC:?})"
        ));
    }
    let a = |i: usize| action[i] as usize;
    Ok(crate::bot::control::ScriptStep {
        ticks: 0,
        forward: MOVE[a(0)],
        side: MOVE[a(1)],
        up: 0.0,
        yaw: (s.yaw + TURN[a(2)]).rem_euclid(360.0),
        pitch: (s.pitch + LOOK[a(3)]).clamp(-PITCH_LIMIT, PITCH_LIMIT),
        jump: a(4) == 1,
        fire: a(5) == 1,
        weapon: a(6).checked_sub(1).map(|w| WEAPONS[w]),
    })
}

/// Enemies listed in an observation (nearest visible first).
pub const OBS_ENEMIES: usize = 4;
/// Items listed in an observation (nearest visible first).
pub const OBS_ITEMS: usize = 4;
/// Item kinds one-hot in an observation: health (mega health too), armour, weapon, ammo,
/// powerup.
const ITEM_KINDS: usize = 5;
/// Length of an observation.
pub const OBS_LEN: usize = 11 + WEAPONS.len() + OBS_ENEMIES * 5 + OBS_ITEMS * (5 + ITEM_KINDS) + 5;

/// The observation's layout, in order: (name, how many numbers). Positions are in the
/// player's view frame (forward, left, up from its eye, yaw only) divided by
/// [`OBS_SCALE`]; an absent entry is all zeros.
pub const OBS_LAYOUT: &[(&str, usize)] = &[
    ("origin / 1024 (x, y, z)", 3),
    ("velocity / 320 (x, y, z)", 3),
    ("sin yaw, cos yaw", 2),
    ("pitch / 90", 1),
    ("health / 100, armour / 100", 2),
    ("weapon in hand, one-hot (axe .. lightning)", WEAPONS.len()),
    (
        "4 visible enemies, nearest first: present, forward, left, up, distance",
        OBS_ENEMIES * 5,
    ),
    (
        "4 visible items, nearest first: present, forward, left, up, distance, kind one-hot (health, armour, weapon, ammo, powerup)",
        OBS_ITEMS * (5 + ITEM_KINDS),
    ),
    (
        "route hint: present, unit direction to the next waypoint toward the goal (forward, left, up), route length to the goal",
        5,
    ),
];

/// Every number of an observation lies within ± this.
pub const OBS_LIMIT: f32 = 64.0;

/// Distances in an observation are divided by this.
pub const OBS_SCALE: f32 = 1024.0;

/// Makes observations; keeps route caches of the hints' goal waypoints (its own
/// [`RouteCaches`], least recently used evicted past [`HINT_CACHE_BYTES`]), repaired with the
/// graph's changes rather than rebuilt, so that a hint costs a lookup while the goal moves
/// among waypoints it has been near before and the bots keep dropping waypoints. They are
/// built from the match's waypoint graph: the match's routing caches (part of its state)
/// are never touched.
pub struct Observer {
    routes: RouteCaches,
}

impl Default for Observer {
    fn default() -> Observer {
        Observer {
            routes: RouteCaches::new(HINT_CACHE_BYTES, RouteParams::default()),
        }
    }
}

/// Memory an [`Observer`]'s route caches may hold (measured on the duel: building a cache
/// each time the enemy's nearest waypoint or the graph changed was half the native cost of
/// an environment step beyond its tick).
pub const HINT_CACHE_BYTES: usize = 4 << 20;

/// How near a player must be to a waypoint for the hint to start from it.
const NEAR_WAYPOINT: f32 = 256.0;

impl Observer {
    /// A new observer with no caches.
    pub fn new() -> Observer {
        Observer::default()
    }

    /// Player `index`'s observation ([`OBS_LAYOUT`]); `None` for no such player.
    pub fn observe(&mut self, m: &Match, index: usize, goal: Goal) -> Option<Vec<f32>> {
        let s = m.sim.player_state(index)?;
        let v = m.sim.player_vitals(index)?;
        let inv: Inventory = m.sim.player_component(index)?;
        // Borrowed, not copied: the lists are read once.
        let percepts = m
            .sim
            .world
            .get::<&Percepts>(m.sim.players.get(index)?.entity)
            .ok()?;
        let mut o = Vec::with_capacity(OBS_LEN);
        o.extend((s.origin / OBS_SCALE).to_array());
        o.extend((s.velocity / 320.0).to_array());
        let yaw = s.yaw.to_radians();
        o.extend([yaw.sin(), yaw.cos(), s.pitch / 90.0]);
        o.extend([v.health / 100.0, v.armor / 100.0]);
        o.extend(
            WEAPONS
                .iter()
                .map(|&w| f32::from(u8::from(w == inv.current))),
        );
        let eye = s.eye();
        // The player's view frame, yaw only: forward, left, up.
        let (fwd, left) = (
            Vec3::new(yaw.cos(), yaw.sin(), 0.0),
            Vec3::new(-yaw.sin(), yaw.cos(), 0.0),
        );
        let local = |p: Vec3| {
            let d = p - eye;
            [d.dot(fwd), d.dot(left), d.z].map(|x| x / OBS_SCALE)
        };
        let me = m.sim.players[index].id;
        let mut enemies = 0;
        for seen in &percepts.visible {
            if let Thing::Player(id) = seen.thing
                && id != me
                && enemies < OBS_ENEMIES
            {
                o.push(1.0);
                o.extend(local(seen.pos));
                o.push(seen.distance / OBS_SCALE);
                enemies += 1;
            }
        }
        o.resize(o.len() + (OBS_ENEMIES - enemies) * 5, 0.0);
        let mut items = 0;
        for seen in &percepts.visible {
            let Thing::Item(i) = seen.thing else { continue };
            if items == OBS_ITEMS {
                break;
            }
            let Some(kind) = m
                .sim
                .items
                .get(i)
                .and_then(|&e| m.sim.world.get::<&ItemSlot>(e).ok().map(|s| s.def))
                .and_then(|d| m.sim.level.items.get(d))
                .map(|d| d.kind)
            else {
                continue;
            };
            o.push(1.0);
            o.extend(local(seen.pos));
            o.push(seen.distance / OBS_SCALE);
            let slot = match kind {
                ItemKind::Health | ItemKind::MegaHealth => Some(0),
                ItemKind::Armor => Some(1),
                ItemKind::Weapon => Some(2),
                ItemKind::Ammo => Some(3),
                ItemKind::Powerup => Some(4),
                ItemKind::Other => None,
            };
            o.extend((0..ITEM_KINDS).map(|k| f32::from(u8::from(slot == Some(k)))));
            items += 1;
        }
        o.resize(o.len() + (OBS_ITEMS - items) * (5 + ITEM_KINDS), 0.0);
        match self.hint(m, index, s.origin, goal) {
            Some((dir, length)) => {
                o.push(1.0);
                o.extend([dir.dot(fwd), dir.dot(left), dir.z]);
                o.push(length / OBS_SCALE);
            }
            None => o.extend([0.0; 5]),
        }
        debug_assert_eq!(o.len(), OBS_LEN);
        // Bounded, so that an observation space can say so (a fall or a rocket jump can
        // pass ±64 × 320 units per second only in theory; a map past ±65536 units never).
        for x in &mut o {
            *x = x.clamp(-OBS_LIMIT, OBS_LIMIT);
        }
        Some(o)
    }

    /// The unit direction from `origin` to the next waypoint toward `goal` over the
    /// match's waypoint graph, and the route's length; `None` without a goal, a waypoint
    /// near either end, or a route between them.
    fn hint(&mut self, m: &Match, index: usize, origin: Vec3, goal: Goal) -> Option<(Vec3, f32)> {
        let target = match goal {
            Goal::Point(p) => p,
            Goal::Enemy => (0..m.sim.players.len())
                .filter(|&j| j != index)
                .filter(|&j| m.sim.player_vitals(j).is_some_and(|v| v.alive))
                .filter_map(|j| m.sim.player_state(j).map(|s| s.origin))
                .min_by(|a, b| a.distance(origin).total_cmp(&b.distance(origin)))?,
        };
        let graph = &m.learned.waypoints;
        let (start, _) = graph.nearest(origin, NEAR_WAYPOINT)?;
        let (end, end_distance) = graph.nearest(target, NEAR_WAYPOINT)?;
        let cache = self.routes.get(graph, end, TravelFlags::ALL);
        let length = cache.distance(start)? + end_distance;
        // Standing at the nearest waypoint already: head for the one after it.
        let at = graph.get(start)?.origin;
        let next = match cache.next.get(start as usize).copied().flatten() {
            Some(n) if at.distance(origin) < 32.0 => graph.get(n)?.origin,
            _ if at.distance(origin) < 32.0 => target,
            _ => at,
        };
        let dir = (next - origin).normalize_or_zero();
        Some((dir, length + at.distance(origin)))
    }
}

#[cfg(test)]
mod tests {
    use super::{OBS_LAYOUT, OBS_LEN};
    use glam::Vec3;

    #[test]
    fn actions_become_commands_and_bad_ones_are_refused() {
        use super::{PITCH_LIMIT, action_command};
        use crate::game::Weapon;
        use crate::physics::PlayerState;
        let mut s = PlayerState::at(Vec3::ZERO, 350.0);
        s.pitch = 75.0;
        let c = action_command(&[2, 0, 4, 2, 1, 1, 7], &s).unwrap();
        assert_eq!((c.forward, c.side), (320.0, -320.0));
        assert!(
            (c.yaw - 20.0).abs() < 1e-4,
            "350 + 30 wraps to 20: {}",
            c.yaw
        );
        assert_eq!(c.pitch, PITCH_LIMIT);
        assert!(c.jump && c.fire);
        assert_eq!(c.weapon, Some(Weapon::RocketLauncher));
        let still = action_command(&[1, 1, 2, 1, 0, 0, 0], &s).unwrap();
        assert_eq!((still.forward, still.side, still.weapon), (0.0, 0.0, None));
        assert!((still.yaw - 350.0).abs() < 1e-4);
        for bad in [
            &[3, 0, 0, 0, 0, 0, 0][..],
            &[0, 0, 0, 0, 0, 0, -1],
            &[0; 6],
            &[0; 8],
        ] {
            let e = action_command(bad, &s).unwrap_err();
            assert!(e.contains("MultiDiscrete"), "{e}");
        }
    }

    #[test]
    fn the_layout_adds_up_to_the_length() {
        assert_eq!(OBS_LAYOUT.iter().map(|l| l.1).sum::<usize>(), OBS_LEN);
    }
}
