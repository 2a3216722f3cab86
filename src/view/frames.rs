//! Frames: a recorded match re-simulated and written down tick by tick for people to watch
//! (`botarena replay FILE --frames OUT.json`, and the data inside `botarena view`'s page).
//!
//! A replay holds only hashes and events; because runs are deterministic, re-simulating it
//! gives the whole match back. While it re-simulates, every tick's state hash is compared
//! with the recording, so frames are never drawn from a run that went differently.
//!
//! # Format (JSON, `"format": "botarena-frames"`, version 1)
//!
//! Numbers are quantised to what a picture needs: positions and velocities to whole units,
//! angles to whole degrees, health and armour to whole points. Two encodings keep a
//! 5-minute match small:
//!
//! - **delta series** (`[d0, d1, ...]`, one entry per state from tick 0 to `ticks`): the
//!   value at tick `t` is `d0 + ... + dt` — players' positions, velocities and view angles,
//!   movers' offsets;
//! - **change lists** (`[[t, v], ...]`): the value is `v` from tick `t` until the next entry
//!   (the first entry is at tick 0) — everything that changes now and then.
//!
//! | key | what |
//! |---|---|
//! | `format`, `version`, `botarena`, `scenario`, `map`, `seed`, `tick_rate`, `ticks`, `final_hash` | the run (`final_hash`: the state hash after the last tick, hex) |
//! | `geometry.bounds` | `[x0, y0, z0, x1, y1, z1]`: the framed part of the map (as `render` frames it) |
//! | `geometry.brushes` | `[kind, zlo, zhi, x, y, x, y, ...]` per brush, outline seen from above; kind 0 solid, 1 clip, 2 water, 3 slime, 4 lava, 5 teleport surface |
//! | `geometry.teleports` | trigger_teleport boxes `[x0, y0, z0, x1, y1, z1]` |
//! | `geometry.spawns` | `[x, y, z, yaw]` per spawn point |
//! | `movers[]` | `class`, `brushes` (as above, at the map position), `x`/`y`/`z`: offset delta series |
//! | `items[]` | `class`, `origin` (after dropping to the floor), `available`: change list of 0/1 |
//! | `players[]` | `id`, `name`; delta series `x y z vx vy vz yaw pitch`; change lists `health armour weapon alive frags deaths powers` (bits 1 quad, 2 pentagram, 4 ring, 8 biosuit), `goal` (text: `fight NAME`, `chase`, `investigate`, `item CLASS`, `explore`, or null), `goal_at` (`[x, y, z]` to 16 units, or null; null while fighting: the enemy is drawn), `target` (where the movement stage is heading: `[x, y, z]` to 16 units, or null), `sees` (indices of the players it sees) |
//! | `projectiles` | `[t, kind, x, y, z, kind, x, y, z, ...]` for each tick with anything in flight; kind 0 nail, 1 rocket, 2 grenade |
//! | `sounds` | `[id, tick, kind, x, y, z, source, [hearers]]` per sound made; `kind` indexes `sound_kinds` (and `sound_seconds`, how long each kind lasts), `source` a player index or −1, `hearers` the indices of the players that heard it |
//! | `waypoints` | `[tick, x, y, z, kind]` per waypoint in the order dropped; kind 0 normal, 1 item, 2 teleporter, 3 elevator top, 4 elevator bottom |
//! | `links` | `[tick, from, to]` per waypoint link, when it appeared |
//! | `events` | `{"tick": t, "event": {...}}` as in the replay (players by id) |
//!
//! A map drawn without a match (`botarena view MAP.map`) has `ticks` 0, no players, no
//! scenario and an empty `final_hash`.
//! | `scoreboard` | per player at the end: `name`, `frags`, `deaths`, `kills` |

use std::collections::{BTreeMap, BTreeSet};

use glam::Vec3;
use serde::Serialize;

use crate::bot::Percepts;
use crate::bot::Thing;
use crate::bot::brain::{Brain, Goal};
use crate::bot::movement::{MoveIntent, MoveTarget};
use crate::game::Inventory;
use crate::game::combat::MissileKind;
use crate::map::{Contents, Level};
use crate::nav::waypoints::{Change, WaypointGraph, WaypointKind};
use crate::replay::{Divergence, Replay, ReplayError};
use crate::sim::components::{ItemSlot, MoverSlot};
use crate::sim::sound::SoundKind;
use crate::tick::Match;

/// The format's name in the file.
pub const FORMAT_NAME: &str = "botarena-frames";
/// The format's version.
pub const FORMAT_VERSION: u32 = 1;

/// Why frames could not be made.
#[derive(Debug, thiserror::Error)]
pub enum FramesError {
    /// The replay could not be read or re-simulated.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Recorded by another version of botarena.
    #[error(
        "{file}: recorded by botarena {recorded}, this is botarena {ours}: the match cannot be re-simulated faithfully; record it again with this binary (`botarena run SCENARIO --record FILE`)"
    )]
    Version {
        /// The replay file.
        file: String,
        /// The recording's version.
        recorded: String,
        /// This binary's.
        ours: String,
    },
    /// The re-simulation differs from the recording.
    #[error(
        "{file}: this binary simulates the match differently from the one that recorded it (at {divergence}); record it again with this binary (`botarena run SCENARIO --record FILE`)"
    )]
    Diverged {
        /// The replay file.
        file: String,
        /// Where.
        divergence: Divergence,
    },
}

/// A quantised value written as differences from the previous tick's.
#[derive(Default, Serialize)]
#[serde(transparent)]
struct Delta {
    #[serde(skip)]
    last: i64,
    out: Vec<i64>,
}

impl Delta {
    fn push(&mut self, v: f32) {
        let q = if v.is_finite() { v.round() as i64 } else { 0 };
        self.out.push(q - self.last);
        self.last = q;
    }
}

/// A value written when it changes, with the tick it changed at.
#[derive(Serialize)]
#[serde(transparent)]
struct Changes<T: Serialize + PartialEq> {
    out: Vec<(u64, T)>,
}

impl<T: Serialize + PartialEq> Default for Changes<T> {
    fn default() -> Self {
        Changes { out: Vec::new() }
    }
}

impl<T: Serialize + PartialEq> Changes<T> {
    fn push(&mut self, tick: u64, v: T) {
        if self.out.last().is_none_or(|(_, last)| *last != v) {
            self.out.push((tick, v));
        }
    }
}

fn q3(p: Vec3) -> [i32; 3] {
    [p.x.round() as i32, p.y.round() as i32, p.z.round() as i32]
}

/// A point to 16 units: goals and targets are drawn as markers, and a target that follows
/// a running enemy would otherwise change every tick.
fn q16(p: Vec3) -> [i32; 3] {
    q3((p / 16.0).round() * 16.0)
}

#[derive(Default, Serialize)]
struct PlayerTrack {
    id: u32,
    name: String,
    x: Delta,
    y: Delta,
    z: Delta,
    vx: Delta,
    vy: Delta,
    vz: Delta,
    yaw: Delta,
    pitch: Delta,
    health: Changes<i32>,
    armour: Changes<i32>,
    weapon: Changes<&'static str>,
    alive: Changes<u8>,
    frags: Changes<i32>,
    deaths: Changes<u32>,
    powers: Changes<u8>,
    goal: Changes<Option<String>>,
    goal_at: Changes<Option<[i32; 3]>>,
    target: Changes<Option<[i32; 3]>>,
    sees: Changes<Vec<usize>>,
}

/// One sound: id, tick made, kind, x, y, z, source (player index or −1), the players that
/// heard it.
#[derive(Serialize)]
struct SoundRow(u64, u64, usize, i32, i32, i32, i64, Vec<usize>);

#[derive(Serialize)]
struct MoverTrack {
    class: String,
    brushes: Vec<Vec<i32>>,
    x: Delta,
    y: Delta,
    z: Delta,
}

impl MoverTrack {
    /// A mover's outlines at its map position, with no offsets yet.
    fn new(d: &crate::map::level::MoverDef) -> MoverTrack {
        MoverTrack {
            class: d.classname.clone(),
            brushes: d
                .brushes
                .iter()
                .map(|b| brush_row(0, b, Vec3::ZERO))
                .collect(),
            x: Delta::default(),
            y: Delta::default(),
            z: Delta::default(),
        }
    }

    /// The next tick's offset from the map position.
    fn push(&mut self, o: Vec3) {
        self.x.push(o.x);
        self.y.push(o.y);
        self.z.push(o.z);
    }
}

#[derive(Serialize)]
struct ItemTrack {
    class: String,
    origin: [i32; 3],
    available: Changes<u8>,
}

#[derive(Serialize)]
struct Geometry {
    bounds: [i32; 6],
    brushes: Vec<Vec<i32>>,
    teleports: Vec<[i32; 6]>,
    spawns: Vec<[i32; 4]>,
}

#[derive(Serialize)]
struct Score {
    name: String,
    frags: i32,
    deaths: u32,
    kills: u32,
}

/// A whole match, tick by tick (the module doc gives the layout).
#[derive(Serialize)]
pub struct Frames {
    format: &'static str,
    version: u32,
    botarena: String,
    scenario: String,
    map: String,
    seed: u64,
    tick_rate: u32,
    ticks: u64,
    final_hash: String,
    geometry: Geometry,
    movers: Vec<MoverTrack>,
    items: Vec<ItemTrack>,
    players: Vec<PlayerTrack>,
    projectiles: Vec<Vec<i64>>,
    sound_kinds: Vec<String>,
    sound_seconds: Vec<f32>,
    sounds: Vec<SoundRow>,
    waypoints: Vec<[i64; 5]>,
    links: Vec<[u64; 3]>,
    events: Vec<serde_json::Value>,
    scoreboard: Vec<Score>,
}

/// A brush as `[kind, zlo, zhi, x, y, ...]`, moved by `offset`.
fn brush_row(kind: i32, b: &crate::map::Brush, offset: Vec3) -> Vec<i32> {
    let mut row = vec![
        kind,
        (b.mins.z + offset.z).round() as i32,
        (b.maxs.z + offset.z).round() as i32,
    ];
    for p in crate::render::outline(b, offset) {
        row.push(p.x.round() as i32);
        row.push(p.y.round() as i32);
    }
    row
}

fn geometry(level: &Level) -> Geometry {
    let (lo, hi) = crate::render::frame(level);
    let inside = |b: &crate::map::Brush| b.mins.cmple(hi).all() && b.maxs.cmpge(lo).all();
    let mut brushes = Vec::new();
    for b in level.static_brushes.iter().filter(|b| inside(b)) {
        let kind = if b.contents.intersects(Contents::LIQUID) {
            match b.contents.liquid() {
                Contents::SLIME => 3,
                Contents::LAVA => 4,
                _ => 2,
            }
        } else if b.contents == Contents::SOLID {
            0
        } else if b.contents == Contents::PLAYER_CLIP {
            1
        } else {
            continue;
        };
        brushes.push(brush_row(kind, b, Vec3::ZERO));
    }
    for b in &level.teleport_surfaces {
        brushes.push(brush_row(5, b, Vec3::ZERO));
    }
    let teleports = level
        .triggers
        .iter()
        .filter(|t| t.classname == "trigger_teleport")
        .map(|t| {
            let (a, b) = (q3(t.mins), q3(t.maxs));
            [a[0], a[1], a[2], b[0], b[1], b[2]]
        })
        .collect();
    let spawns = level
        .spawns
        .iter()
        .map(|s| {
            let p = q3(s.origin);
            [p[0], p[1], p[2], s.yaw.round() as i32]
        })
        .collect();
    let (a, b) = (q3(lo), q3(hi));
    Geometry {
        bounds: [a[0], a[1], a[2], b[0], b[1], b[2]],
        brushes,
        teleports,
        spawns,
    }
}

/// What a goal is, in words.
fn goal_text(m: &Match, goal: Goal) -> (String, Option<Vec3>) {
    match goal {
        // No point: the enemy is a player, drawn where it is.
        Goal::Fight(id) => {
            let name = m
                .sim
                .player_by_id(id)
                .and_then(|p| {
                    m.sim
                        .world
                        .get::<&crate::sim::components::Name>(p.entity)
                        .ok()
                })
                .map(|n| n.0.clone())
                .unwrap_or_else(|| format!("#{}", id.0));
            (format!("fight {name}"), None)
        }
        Goal::Chase(p) => ("chase".into(), Some(p)),
        Goal::Investigate(p) => ("investigate".into(), Some(p)),
        Goal::Item(i, p) => {
            let class = m
                .sim
                .level
                .items
                .get(i)
                .map(|d| d.classname.as_str())
                .unwrap_or("?");
            (format!("item {class}"), Some(p))
        }
        Goal::Explore => ("explore".into(), None),
    }
}

/// Writes down the waypoints and links the graph's change log adds after `revision` (then
/// moves `revision` on), as appearing at tick `t`. A link made cheaper or unblocked is
/// logged again; `seen` keeps it to one row.
fn add_waypoints(
    f: &mut Frames,
    seen: &mut BTreeSet<(u32, u32)>,
    revision: &mut u64,
    g: &WaypointGraph,
    t: u64,
) {
    for c in g.changes_since(*revision) {
        match *c {
            Change::Waypoint(n) => {
                let Some(w) = g.get(n) else { continue };
                let kind = match w.kind {
                    WaypointKind::Normal => 0,
                    WaypointKind::Item { .. } => 1,
                    WaypointKind::Teleporter { .. } => 2,
                    WaypointKind::ElevatorTop { .. } => 3,
                    WaypointKind::ElevatorBottom { .. } => 4,
                };
                let p = q3(w.origin);
                f.waypoints
                    .push([t as i64, p[0] as i64, p[1] as i64, p[2] as i64, kind]);
            }
            Change::Link { from, to } => {
                if seen.insert((from, to)) {
                    f.links.push([t, from as u64, to as u64]);
                }
            }
            Change::Blocked { .. } => {}
        }
    }
    *revision = g.revision;
}

/// Builds the frames while a replay re-simulates.
struct Recorder {
    frames: Frames,
    next_sound: u64,
    /// Row in `sounds` of each sound id.
    sound_rows: BTreeMap<u64, usize>,
    seen_links: BTreeSet<(u32, u32)>,
    /// The waypoint graph's revision written down so far.
    revision: u64,
}

impl Recorder {
    fn new(replay: &Replay, m: &Match, map: String) -> Recorder {
        let level = &m.sim.level;
        let movers = m
            .sim
            .movers
            .iter()
            .filter_map(|&e| m.sim.world.get::<&MoverSlot>(e).ok().map(|s| s.def))
            .map(|def| MoverTrack::new(&level.movers[def]))
            .collect();
        let items = m
            .sim
            .items
            .iter()
            .filter_map(|&e| m.sim.world.get::<&ItemSlot>(e).ok().map(|s| *s))
            .map(|s| ItemTrack {
                class: level.items[s.def].classname.clone(),
                origin: q3(s.origin),
                available: Changes::default(),
            })
            .collect();
        let players = (0..m.sim.players.len())
            .map(|i| PlayerTrack {
                id: m.sim.players[i].id.0,
                name: m.sim.player_name(i).unwrap_or_default(),
                ..Default::default()
            })
            .collect();
        let h = &replay.header;
        Recorder {
            frames: Frames {
                format: FORMAT_NAME,
                version: FORMAT_VERSION,
                botarena: h.botarena.clone(),
                scenario: h.scenario_path.clone(),
                map,
                seed: h.seed,
                tick_rate: h.tick_rate,
                ticks: h.ticks,
                final_hash: format!("{:016x}", replay.hashes.last().copied().unwrap_or(0)),
                geometry: geometry(level),
                movers,
                items,
                players,
                projectiles: Vec::new(),
                sound_kinds: SoundKind::ALL.iter().map(|k| format!("{k:?}")).collect(),
                sound_seconds: SoundKind::ALL.iter().map(|k| k.duration()).collect(),
                sounds: Vec::new(),
                waypoints: Vec::new(),
                links: Vec::new(),
                events: Vec::new(),
                scoreboard: Vec::new(),
            },
            next_sound: 0,
            sound_rows: BTreeMap::new(),
            revision: 0,
            seen_links: BTreeSet::new(),
        }
    }

    /// Writes down the state after tick `m.tick()`.
    fn add(&mut self, m: &Match) {
        let t = m.tick();
        let sim = &m.sim;
        let f = &mut self.frames;
        let mut heard: Vec<(u64, usize)> = Vec::new();
        let index_of = |id: crate::map::EntId| sim.players.iter().position(|p| p.id == id);
        for (i, p) in sim.players.iter().enumerate() {
            let tr = &mut f.players[i];
            let w = &sim.world;
            if let Ok(s) = w.get::<&crate::sim::components::Motion>(p.entity) {
                let s = s.0;
                tr.x.push(s.origin.x);
                tr.y.push(s.origin.y);
                tr.z.push(s.origin.z);
                tr.vx.push(s.velocity.x);
                tr.vy.push(s.velocity.y);
                tr.vz.push(s.velocity.z);
                tr.yaw.push(s.yaw);
                tr.pitch.push(s.pitch);
            }
            if let Ok(v) = w.get::<&crate::sim::components::Vitals>(p.entity) {
                tr.health.push(t, v.health.round() as i32);
                tr.armour.push(t, v.armor.round() as i32);
                tr.alive.push(t, v.alive as u8);
            }
            if let Ok(s) = w.get::<&crate::sim::components::PlayerStats>(p.entity) {
                tr.frags.push(t, s.0.frags);
                tr.deaths.push(t, s.0.deaths);
            }
            if let Ok(inv) = w.get::<&Inventory>(p.entity) {
                tr.weapon.push(t, inv.current.name());
                let powers = (inv.quad_until > t) as u8
                    | ((inv.pent_until > t) as u8) << 1
                    | ((inv.ring_until > t) as u8) << 2
                    | ((inv.suit_until > t) as u8) << 3;
                tr.powers.push(t, powers);
            }
            let (goal, at) = match w.get::<&Brain>(p.entity) {
                Ok(b) => {
                    let (g, at) = goal_text(m, b.goal);
                    (Some(g), at.map(q16))
                }
                Err(_) => (None, None),
            };
            tr.goal.push(t, goal);
            tr.goal_at.push(t, at);
            let target = w.get::<&MoveIntent>(p.entity).ok().and_then(|mi| {
                mi.0.and_then(|r| match r.target {
                    MoveTarget::Point(p) => Some(q16(p)),
                    MoveTarget::Direction(_) => None,
                })
            });
            tr.target.push(t, target);
            let sees = match w.get::<&Percepts>(p.entity) {
                Ok(pc) => {
                    let mut sees: Vec<usize> = pc
                        .visible
                        .iter()
                        .filter_map(|s| match s.thing {
                            Thing::Player(id) => index_of(id),
                            Thing::Item(_) => None,
                        })
                        .collect();
                    sees.sort_unstable();
                    heard.extend(pc.heard.iter().map(|h| (h.sound, i)));
                    sees
                }
                Err(_) => Vec::new(),
            };
            tr.sees.push(t, sees);
        }
        for (k, &e) in sim.movers.iter().enumerate() {
            if let Ok(s) = sim.world.get::<&MoverSlot>(e) {
                f.movers[k].push(s.state.offset);
            }
        }
        for (k, &e) in sim.items.iter().enumerate() {
            if let Ok(s) = sim.world.get::<&ItemSlot>(e) {
                f.items[k].available.push(t, s.available as u8);
            }
        }
        let combat = &m.game.combat;
        let mut flying = vec![t as i64];
        for ms in &combat.missiles {
            let kind = match ms.kind {
                MissileKind::Nail(_) => 0,
                MissileKind::Rocket => 1,
            };
            flying.push(kind);
            flying.extend(q3(ms.pos).map(i64::from));
        }
        for g in combat.grenades.grenades() {
            let (pos, _) = combat.grenades.motion(g);
            flying.push(2);
            flying.extend(q3(pos).map(i64::from));
        }
        if flying.len() > 1 {
            f.projectiles.push(flying);
        }
        for s in sim.sounds.sounds() {
            if s.id < self.next_sound {
                continue;
            }
            let kind = SoundKind::ALL
                .iter()
                .position(|k| *k == s.kind)
                .unwrap_or(0);
            let source = s.source.and_then(index_of).map(|i| i as i64).unwrap_or(-1);
            let p = q3(s.pos);
            self.sound_rows.insert(s.id, f.sounds.len());
            f.sounds.push(SoundRow(
                s.id,
                t,
                kind,
                p[0],
                p[1],
                p[2],
                source,
                Vec::new(),
            ));
        }
        self.next_sound = self.next_sound.max(sim.sounds.total());
        for (sound, who) in heard {
            if let Some(&row) = self.sound_rows.get(&sound) {
                let hearers = &mut f.sounds[row].7;
                if !hearers.contains(&who) {
                    hearers.push(who);
                }
            }
        }
        add_waypoints(
            f,
            &mut self.seen_links,
            &mut self.revision,
            &m.learned.waypoints,
            t,
        );
        for e in &sim.events {
            f.events.push(serde_json::json!({ "tick": t, "event": e }));
        }
    }

    /// The scoreboard as it stands (called at the last tick).
    fn scores(&mut self, m: &Match) {
        self.frames.scoreboard = (0..m.sim.players.len())
            .map(|i| {
                let s = m.sim.player_stats(i).unwrap_or_default();
                Score {
                    name: m.sim.player_name(i).unwrap_or_default(),
                    frags: s.frags,
                    deaths: s.deaths,
                    kills: s.kills,
                }
            })
            .collect();
    }
}

impl Frames {
    /// Re-simulates `replay` (read from `file`, named in errors), checking every tick
    /// against the recording, and writes the match down; `progress` is called with each
    /// tick done.
    pub fn record(
        replay: &Replay,
        file: &str,
        mut progress: impl FnMut(u64),
    ) -> Result<Frames, FramesError> {
        let ours = env!("CARGO_PKG_VERSION");
        if replay.header.botarena != ours {
            return Err(FramesError::Version {
                file: file.to_string(),
                recorded: replay.header.botarena.clone(),
                ours: ours.to_string(),
            });
        }
        let map = replay.scenario()?.map.display().to_string();
        let last_tick = replay.header.ticks;
        let mut rec: Option<Recorder> = None;
        let verified = replay.resimulate(|m| {
            let r = rec.get_or_insert_with(|| Recorder::new(replay, m, map.clone()));
            r.add(m);
            if m.tick() == last_tick {
                r.scores(m);
            }
            if m.tick() > 0 {
                progress(m.tick());
            }
        })?;
        if let Some(divergence) = verified.divergence {
            return Err(FramesError::Diverged {
                file: file.to_string(),
                divergence,
            });
        }
        // A verified replay has visited tick 0 at least, so the recorder exists.
        Ok(rec.map(|r| r.frames).expect("tick 0 was visited"))
    }

    /// A map alone, with no match: one frame (tick 0) of the level as a match starts it
    /// (movers at their starting places, every item there, as the map places it) and,
    /// when given, a waypoint graph made for it. `map` names the file.
    pub fn of_map(level: &Level, graph: Option<&WaypointGraph>, map: &str) -> Frames {
        let movers = level
            .movers
            .iter()
            .map(|d| {
                let mut track = MoverTrack::new(d);
                track
                    .push(crate::physics::movers::MoverState::spawn(d, &level.path_corners).offset);
                track
            })
            .collect();
        let items = level
            .items
            .iter()
            .map(|d| {
                let mut available = Changes::default();
                available.push(0, 1);
                ItemTrack {
                    class: d.classname.clone(),
                    origin: q3(d.origin),
                    available,
                }
            })
            .collect();
        let mut f = Frames {
            format: FORMAT_NAME,
            version: FORMAT_VERSION,
            botarena: env!("CARGO_PKG_VERSION").to_string(),
            scenario: String::new(),
            map: map.to_string(),
            seed: 0,
            tick_rate: crate::scenario::DEFAULT_TICK_RATE,
            ticks: 0,
            final_hash: String::new(),
            geometry: geometry(level),
            movers,
            items,
            players: Vec::new(),
            projectiles: Vec::new(),
            sound_kinds: Vec::new(),
            sound_seconds: Vec::new(),
            sounds: Vec::new(),
            waypoints: Vec::new(),
            links: Vec::new(),
            events: Vec::new(),
            scoreboard: Vec::new(),
        };
        if let Some(g) = graph {
            add_waypoints(&mut f, &mut BTreeSet::new(), &mut 0, g, 0);
        }
        f
    }

    /// The frames as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("frames serialise")
    }

    /// The map file's name without its folder.
    pub fn map_name(&self) -> String {
        std::path::Path::new(&self.map)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.map.clone())
    }

    /// Ticks written (the last tick's number; tick 0 is the state after building).
    pub fn ticks(&self) -> u64 {
        self.ticks
    }
}
