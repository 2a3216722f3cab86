//! The deterministic tick loop: a hecs [`World`] of players, movers and items, the
//! [`CollisionMap`], one seeded RNG per stream, and a schedule ([`schedule`]) that runs
//! the stages in a fixed order every tick and times each stage.
//!
//! Entry points: [`Sim::new`], [`Sim::step`], [`Sim::state_hash`].

pub mod components;
pub mod hash;
pub mod parallel;
pub mod rng;
pub mod schedule;
pub mod sound;

use std::sync::Arc;

use glam::Vec3;
use hecs::{Entity, World};
use serde::Serialize;

use crate::bot::movement::{MoveIntent, MoveMemory, MoveStatus};
use crate::bot::prediction::Tracking;
use crate::bot::routing::RouteState;
use crate::bot::waypoints::Dropper;
use crate::bot::{Percepts, Senses};
use crate::map::{CollisionMap, EntId, Level};
use crate::nav::routing::{RouteCaches, RouteParams};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::movers::MoverState;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState};

use crate::bot::control::Controller;
use components::*;
use hash::StateHasher;
use rng::{SimRng, WORLD_STREAM};
pub use schedule::{Stage, StageTimings, TICK_ORDER};
use sound::SoundList;

/// One player to put in the world.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Name for reports.
    pub name: String,
    /// Its controller.
    pub controller: crate::bot::control::ControllerConfig,
    /// Spawn point index; `None` lets the world choose (seeded).
    pub spawn: Option<usize>,
    /// Exact start origin and yaw, overriding `spawn` (tests use it).
    pub start: Option<(Vec3, f32)>,
    /// Field of view, sight distance and hearing.
    pub senses: Senses,
}

/// Everything a simulation needs besides the map.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Seed of every random stream.
    pub seed: u64,
    /// Ticks per second.
    pub tick_rate: u32,
    /// Movement constants.
    pub params: PhysicsParams,
    /// Players in id order.
    pub players: Vec<PlayerConfig>,
    /// Match rules.
    pub rules: crate::game::MatchRules,
}

impl SimConfig {
    /// `players` at 20 Hz ticks with Quake's physics and the default match rules.
    pub fn new(seed: u64, players: Vec<PlayerConfig>) -> SimConfig {
        SimConfig {
            seed,
            tick_rate: 20,
            params: PhysicsParams::default(),
            players,
            rules: Default::default(),
        }
    }
}

/// Something that happened during a tick.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SimEvent {
    /// A player picked up an item.
    Pickup {
        /// Player id.
        player: u32,
        /// Item class.
        item: String,
    },
    /// A player went through a teleporter.
    Teleport {
        /// Player id.
        player: u32,
        /// Index of the teleporter in the level's triggers.
        trigger: usize,
        /// Destination name.
        dest: String,
    },
    /// A player died.
    Death {
        /// Player id.
        player: u32,
        /// What killed it.
        cause: &'static str,
        /// The player credited with the kill (`None`: the world, or itself).
        killer: Option<u32>,
    },
    /// A player was hurt.
    Damage {
        /// Player id.
        player: u32,
        /// Who did it (`None`: the world).
        attacker: Option<u32>,
        /// Health and armour taken.
        amount: f32,
        /// Weapon or hazard.
        cause: &'static str,
    },
    /// A player dropped a waypoint while learning the map.
    WaypointDrop {
        /// Player id.
        player: u32,
        /// The new waypoint's number.
        waypoint: u32,
    },
    /// The match ended.
    MatchEnd {
        /// Why: "time limit" or "frag limit".
        reason: &'static str,
    },
    /// A player (re)spawned.
    Spawn {
        /// Player id.
        player: u32,
        /// Spawn point index.
        spot: usize,
    },
    /// A mover started moving.
    MoverStart {
        /// Mover id.
        mover: u32,
    },
    /// A player jumped.
    Jump {
        /// Player id.
        player: u32,
    },
}

/// Why a simulation could not be set up.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SimError {
    /// A player asked for a spawn point that does not exist.
    #[error("player {player:?}: spawn point {index} does not exist (the map has {count})")]
    NoSuchSpawn {
        /// The player.
        player: String,
        /// Asked index.
        index: usize,
        /// How many there are.
        count: usize,
    },
    /// The map has no spawn point and a player needs one.
    #[error("the map has no info_player_deathmatch or info_player_start for player {0:?}")]
    NoSpawnPoints(String),
    /// Tick rate outside 1..=1000.
    #[error("tick rate {0} is outside 1..=1000")]
    BadTickRate(u32),
}

/// A player of the world: its stable id (also its body in the collision map) and its entity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Stable id.
    pub id: EntId,
    /// Its entity in the ECS world.
    pub entity: Entity,
}

/// Per-trigger run-time state.
#[derive(Clone, Copy, Debug, Default)]
pub struct TriggerRt {
    /// Seconds until it may fire again.
    pub rearm: f32,
    /// A `trigger_once` that has fired.
    pub spent: bool,
    /// A named trigger waits to be fired before it works.
    pub active: bool,
}

/// Memory cap of the routing caches.
pub const ROUTE_CACHE_BYTES: usize = 64 << 20;

/// Counters of a run (besides the stage timings).
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    /// Traces spent by perception (visibility and reachability).
    pub perception_traces: u64,
    /// Links added by an exploration's closing pass (`scenario::explore`).
    pub links_connected: u64,
}

/// A running simulation.
pub struct Sim {
    /// The ECS world.
    pub world: World,
    /// The map's interpretation.
    pub level: Arc<Level>,
    /// The geometry, shared read-only with worker threads during a stage (mutate it through
    /// [`Sim::cmap_mut`] between stages).
    pub cmap: Arc<CollisionMap>,
    /// Movement constants.
    pub params: PhysicsParams,
    /// Seconds per tick.
    pub dt: f32,
    /// Ticks done.
    pub tick: u64,
    /// The seed.
    pub seed: u64,
    /// Players sorted by id.
    pub players: Vec<Player>,
    /// Movers in definition order.
    pub movers: Vec<Entity>,
    /// Items in definition order.
    pub items: Vec<Entity>,
    /// Trigger states in definition order.
    pub triggers: Vec<TriggerRt>,
    /// The world's random stream (spawn choice).
    pub rng: SimRng,
    /// Events of the last tick.
    pub events: Vec<SimEvent>,
    /// Time spent per stage.
    pub timings: StageTimings,
    /// Sounds in the world.
    pub sounds: SoundList,
    /// Run counters.
    pub stats: RunStats,
    /// The waypoint graph bots drop into (and route over).
    pub waypoints: WaypointGraph,
    /// Where bots have been (exploration's memory).
    pub visits: crate::bot::explore::VisitMap,
    /// Routing caches over the waypoint graph.
    pub routes: RouteCaches,
    /// Missiles and grenades in flight.
    pub combat: crate::game::Combat,
    /// The match rules.
    pub rules: crate::game::MatchRules,
    /// Why the match ended, once it has.
    pub over: Option<&'static str>,
    /// Worker threads for the per-bot stages (1: all on the calling thread). Results do not
    /// depend on it.
    pub threads: usize,
    /// The persistent worker pool (started on first use with more than one thread).
    pub pool: Option<parallel::Pool>,
    /// Goal points with the graph revision and the waypoint found to reach them (shared by
    /// bots routing to the same place; dropped when the graph changes).
    pub goal_waypoints: Vec<(Vec3, u64, Option<u32>)>,
    /// Lines of sight between players traced in the current refresh interval.
    pub sight_pairs: crate::bot::perception::SightPairs,
    /// Enemy paths predicted in the current refresh interval.
    pub enemy_paths: crate::bot::prediction::EnemyPaths,
}

impl Sim {
    /// Runs a stage's jobs on this simulation's threads, starting its worker pool when
    /// needed: results in the jobs' order, the same for any thread count. Below
    /// [`parallel::JobSize::min_parallel`] jobs (or on one thread) they run here.
    pub fn run_jobs<C, T, F>(
        &mut self,
        size: parallel::JobSize,
        ctx: &std::sync::Arc<C>,
        jobs: Vec<T>,
        f: F,
    ) -> Vec<T>
    where
        C: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&C, &mut T) + Send + Sync + 'static,
    {
        if self.threads <= 1 || jobs.len() < size.min_parallel() {
            let mut jobs = jobs;
            for j in &mut jobs {
                f(ctx, j);
            }
            return jobs;
        }
        if self
            .pool
            .as_ref()
            .is_none_or(|p| p.threads() != self.threads)
        {
            self.pool = Some(parallel::Pool::new(self.threads));
        }
        let pool = self.pool.as_ref().expect("just started");
        match size {
            parallel::JobSize::Search => pool.run_in_chunks(ctx, jobs, 1, f),
            parallel::JobSize::Bot => pool.run(ctx, jobs, f),
        }
    }

    /// Builds the world: movers and items from the level, players at their spawn points.
    pub fn new(
        level: Arc<Level>,
        mut cmap: CollisionMap,
        cfg: &SimConfig,
    ) -> Result<Sim, SimError> {
        if !(1..=1000).contains(&cfg.tick_rate) {
            return Err(SimError::BadTickRate(cfg.tick_rate));
        }
        let mut world = World::new();
        let mut movers = Vec::new();
        for (i, def) in level.movers.iter().enumerate() {
            let state = MoverState::spawn(def, &level.path_corners);
            cmap.set_mover_offset(def.id, state.offset);
            movers.push(world.spawn((Id(def.id), MoverSlot { def: i, state })));
        }
        let mut items = Vec::new();
        for (i, def) in level.items.iter().enumerate() {
            let origin = crate::nav::sample::drop_to_floor(&cmap, def.origin, def.kind.bounds());
            items.push(world.spawn((ItemSlot {
                def: i,
                origin,
                available: true,
                respawn_ticks: 0,
            },)));
        }
        let triggers = level
            .triggers
            .iter()
            .map(|t| TriggerRt {
                active: t.targetname.is_none(),
                ..Default::default()
            })
            .collect();
        let first_player = level.movers.len() as u32 + 1;
        let mut sim = Sim {
            world,
            level,
            cmap: Arc::new(cmap),
            params: cfg.params,
            dt: 1.0 / cfg.tick_rate as f32,
            tick: 0,
            seed: cfg.seed,
            players: Vec::new(),
            movers,
            items,
            triggers,
            rng: SimRng::new(cfg.seed, WORLD_STREAM),
            events: Vec::new(),
            timings: StageTimings::default(),
            sounds: SoundList::default(),
            stats: RunStats::default(),
            waypoints: WaypointGraph::new(),
            visits: Default::default(),
            routes: RouteCaches::new(ROUTE_CACHE_BYTES, RouteParams::default()),
            combat: Default::default(),
            rules: cfg.rules.clone(),
            over: None,
            threads: 1,
            pool: None,
            goal_waypoints: Vec::new(),
            sight_pairs: Default::default(),
            enemy_paths: Vec::new(),
        };
        // Items the rules take out never appear.
        for &ie in &sim.items {
            if let Ok(mut slot) = sim.world.get::<&mut ItemSlot>(ie)
                && sim
                    .rules
                    .removed_items
                    .contains(&sim.level.items[slot.def].classname)
            {
                slot.available = false;
                slot.respawn_ticks = u64::MAX;
            }
        }
        for (i, pc) in cfg.players.iter().enumerate() {
            let id = EntId(first_player + i as u32);
            let (origin, yaw, spot) = match (pc.start, pc.spawn) {
                (Some((o, y)), _) => (o, y, None),
                (None, Some(ix)) => {
                    let sp = sim
                        .level
                        .spawns
                        .get(ix)
                        .ok_or_else(|| SimError::NoSuchSpawn {
                            player: pc.name.clone(),
                            index: ix,
                            count: sim.level.spawns.len(),
                        })?;
                    (sp.origin, sp.yaw, Some(ix))
                }
                (None, None) => {
                    let ix = sim
                        .choose_spawn()
                        .ok_or_else(|| SimError::NoSpawnPoints(pc.name.clone()))?;
                    let sp = sim.level.spawns[ix];
                    // More players than spawn points: stand beside a taken one rather
                    // than inside another player (stuck for good) or telefragging at start.
                    (
                        crate::nav::sample::free_spot_near(&sim.cmap, sp.origin),
                        sp.yaw,
                        Some(ix),
                    )
                }
            };
            let controller = Controller::new(&pc.controller, origin, yaw);
            let state = PlayerState::at(origin, yaw);
            sim.cmap_mut()
                .set_body(id, origin, PLAYER_MINS, PLAYER_MAXS);
            let e = sim.world.spawn((
                Id(id),
                Name(pc.name.clone()),
                Motion(state),
                Command::default(),
                Vitals::spawned(),
                PlayerStats(Stats::default()),
                controller,
                BotRng(SimRng::new(cfg.seed, id.0 as u64)),
                LastMove::default(),
                pc.senses,
                Percepts::default(),
            ));
            sim.world
                .insert(
                    e,
                    (
                        MoveIntent::default(),
                        MoveStatus::default(),
                        MoveMemory::default(),
                        Tracking::default(),
                        Dropper::default(),
                        RouteState::default(),
                        crate::bot::routing::Roam::new(origin),
                        crate::game::Inventory::spawned(),
                        crate::game::Aim::default(),
                        Still {
                            anchor: origin,
                            seconds: 0.0,
                        },
                    ),
                )
                .expect("player entity just spawned");
            if let crate::bot::control::ControllerConfig::Brain(skill) = &pc.controller {
                let n = sim.level.items.len();
                sim.world
                    .insert_one(e, crate::bot::brain::Brain::new(*skill, origin, n))
                    .expect("player entity just spawned");
            }
            sim.players.push(Player { id, entity: e });
            if let Some(spot) = spot {
                sim.events.push(SimEvent::Spawn { player: id.0, spot });
            }
        }
        Ok(sim)
    }

    /// A free spawn point, chosen with the world stream; any spawn point when all are taken;
    /// `None` when the map has none.
    pub fn choose_spawn(&mut self) -> Option<usize> {
        let n = self.level.spawns.len();
        if n == 0 {
            return None;
        }
        let free: Vec<usize> = (0..n)
            .filter(|&i| {
                let o = self.level.spawns[i].origin;
                self.cmap
                    .bodies_in_box(o + PLAYER_MINS, o + PLAYER_MAXS)
                    .next()
                    .is_none()
            })
            .collect();
        Some(if free.is_empty() {
            self.rng.below(n)
        } else {
            free[self.rng.below(free.len())]
        })
    }

    /// The player with id `id`.
    pub fn player_by_id(&self, id: EntId) -> Option<Player> {
        self.players
            .binary_search_by_key(&id, |p| p.id)
            .ok()
            .map(|i| self.players[i])
    }

    /// The geometry for changing (bodies, mover offsets). Worker threads hold no reference
    /// between stages, so this never copies the map.
    pub fn cmap_mut(&mut self) -> &mut CollisionMap {
        Arc::make_mut(&mut self.cmap)
    }

    /// Runs one tick through the schedule.
    pub fn step(&mut self) {
        self.events.clear();
        schedule::run_tick(self);
        self.tick += 1;
    }

    /// Simulated seconds so far.
    pub fn time(&self) -> f64 {
        self.tick as f64 * self.dt as f64
    }

    /// Hash of the whole simulation state (stable for one binary): the tick and every
    /// [`Sim::part_hashes`] entry.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::default();
        h.u64(self.tick);
        for p in self.part_hashes() {
            h.u64(p);
        }
        h.finish()
    }

    /// One hash per player (id order), then one for the rest of the world (movers, items,
    /// triggers, the world stream, missiles, grenades, waypoints, sounds): a replay that
    /// diverges names the first part that differs.
    pub fn part_hashes(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self
            .players
            .iter()
            .map(|p| self.player_hash(p.id, p.entity))
            .collect();
        out.push(self.world_hash());
        out
    }

    /// Names of the parts of [`Sim::part_hashes`], in the same order.
    pub fn part_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.players.len())
            .map(|i| {
                format!(
                    "player {:?} (id {})",
                    self.player_name(i).unwrap_or_default(),
                    self.players[i].id.0
                )
            })
            .collect();
        out.push("world (movers, items, triggers, missiles, grenades, waypoints, sounds)".into());
        out
    }

    fn player_hash(&self, id: EntId, e: Entity) -> u64 {
        let mut h = StateHasher::default();
        h.u64(id.0 as u64);
        if let Ok(m) = self.world.get::<&Motion>(e) {
            let s = &m.0;
            h.vec3(s.origin);
            h.vec3(s.velocity);
            h.f32(s.yaw);
            h.f32(s.pitch);
            h.u64(s.on_ground.map(|g| g.0 as u64 + 1).unwrap_or(0));
            h.u64(s.water_level as u64 | (s.water_type.0 as u64) << 8);
            h.u64(s.jump_held as u64);
            h.f32(s.water_jump_time);
            h.f32(s.teleport_time);
        }
        if let Ok(v) = self.world.get::<&Vitals>(e) {
            h.f32(v.health);
            h.f32(v.armor);
            h.f32(v.armor_type);
            h.u64(v.alive as u64);
            h.f32(v.respawn_in);
            h.f32(v.env.liquid_cooldown);
            h.f32(v.env.air_left);
            h.f32(v.env.drown_cooldown);
            h.f32(v.env.drown_damage);
        }
        if let Ok(r) = self.world.get::<&BotRng>(e) {
            h.bytes(&r.0.word_pos().to_le_bytes());
        }
        if let Ok(inv) = self.world.get::<&crate::game::Inventory>(e) {
            h.u64(inv.weapons as u64 | (inv.current as u64) << 8);
            for a in inv.ammo {
                h.u64(a as u64);
            }
            h.u64(inv.attack_ready);
            h.u64(inv.quad_until);
            h.u64(inv.pent_until);
            h.u64(inv.ring_until);
            h.u64(inv.suit_until);
        }
        if let Ok(st) = self.world.get::<&PlayerStats>(e) {
            h.u64(st.0.frags as i64 as u64);
            h.u64(st.0.kills as u64 | (st.0.deaths as u64) << 32);
        }
        if let Ok(r) = self.world.get::<&RouteState>(e) {
            h.u64(r.next.map(|n| n as u64 + 1).unwrap_or(0));
            h.u64(r.previous.map(|n| n as u64 + 1).unwrap_or(0));
            h.u64(r.goal_waypoint.map(|n| n as u64 + 1).unwrap_or(0));
            h.f32(r.held);
            h.u64(r.direct as u64);
        }
        if let Ok(m) = self.world.get::<&MoveMemory>(e) {
            h.u64(m.avoid_side as u64 | (m.avoid_ticks as u64) << 8);
        }
        if let Ok(t) = self.world.get::<&Tracking>(e) {
            for en in &t.enemies {
                h.u64(en.id.0 as u64);
                h.u64(en.seen_tick);
                h.vec3(en.state.origin);
                h.vec3(en.state.velocity);
            }
        }
        if let Ok(p) = self.world.get::<&Percepts>(e) {
            for v in &p.visible {
                hash_thing(&mut h, v.thing);
            }
            h.u64(u64::MAX);
            for r in &p.reachable {
                hash_thing(&mut h, r.thing);
                h.u64(reach_code(r.how));
            }
            h.u64(u64::MAX);
            for s in &p.heard {
                h.u64(s.sound);
                h.u64(s.position.is_some() as u64);
            }
        }
        h.finish()
    }

    fn world_hash(&self) -> u64 {
        let mut h = StateHasher::default();
        for &e in &self.movers {
            if let Ok(m) = self.world.get::<&MoverSlot>(e) {
                h.vec3(m.state.offset);
                h.u64(m.state.phase as u64);
                h.f32(m.state.timer);
                h.u64(m.state.corner.map(|c| c as u64 + 1).unwrap_or(0));
            }
        }
        for &e in &self.items {
            if let Ok(i) = self.world.get::<&ItemSlot>(e) {
                h.u64(i.available as u64);
                h.u64(i.respawn_ticks);
            }
        }
        for t in &self.triggers {
            h.f32(t.rearm);
            h.u64(t.spent as u64 | (t.active as u64) << 1);
        }
        h.bytes(&self.rng.word_pos().to_le_bytes());
        for m in &self.combat.missiles {
            h.u64(m.id);
            h.u64(m.owner.0 as u64);
            h.vec3(m.pos);
            h.vec3(m.vel);
            h.u64(m.expires);
        }
        for g in self.combat.grenades.grenades() {
            let (p, v) = self.combat.grenades.motion(g);
            h.u64(g.id);
            h.vec3(p);
            h.vec3(v);
            h.u64(g.explode_tick);
        }
        h.u64(self.over.is_some() as u64);
        h.u64(self.waypoints.len() as u64);
        for w in self.waypoints.waypoints() {
            h.vec3(w.origin);
            for l in &w.links {
                h.u64(l.from as u64);
                h.f32(l.distance);
                h.u64(l.travel as u64);
            }
        }
        for s in self.sounds.sounds() {
            h.u64(s.id);
            h.u64(s.kind as u64);
            h.vec3(s.pos);
            h.u64(s.source.map(|e| e.0 as u64 + 1).unwrap_or(0));
            h.u64(s.expires);
        }
        h.finish()
    }

    /// Makes a sound now (the one way anything makes a sound).
    pub fn sound(&mut self, kind: sound::SoundKind, pos: Vec3, source: Option<EntId>) {
        let rate = self.tick_rate();
        self.sounds.emit(kind, pos, source, self.tick, rate);
    }

    /// Ticks per second.
    pub fn tick_rate(&self) -> f32 {
        1.0 / self.dt
    }

    /// A copy of a player's routing state.
    pub fn player_route(&self, index: usize) -> Option<RouteState> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&RouteState>(e).ok().map(|r| *r)
    }

    /// A player's movement status.
    pub fn player_move_status(&self, index: usize) -> Option<MoveStatus> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&MoveStatus>(e).ok().map(|s| *s)
    }

    /// A copy of a player's tracked enemies.
    pub fn player_tracking(&self, index: usize) -> Option<Tracking> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&Tracking>(e).ok().map(|t| (*t).clone())
    }

    /// A copy of a player's percepts.
    pub fn player_percepts(&self, index: usize) -> Option<Percepts> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&Percepts>(e).ok().map(|p| (*p).clone())
    }

    /// A copy of a player's movement state.
    pub fn player_state(&self, index: usize) -> Option<PlayerState> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&Motion>(e).ok().map(|m| m.0)
    }

    /// A copy of a player's vitals.
    pub fn player_vitals(&self, index: usize) -> Option<Vitals> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&Vitals>(e).ok().map(|v| *v)
    }

    /// A copy of a player's statistics.
    pub fn player_stats(&self, index: usize) -> Option<Stats> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&PlayerStats>(e).ok().map(|s| s.0)
    }

    /// A player's name.
    pub fn player_name(&self, index: usize) -> Option<String> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&Name>(e).ok().map(|n| n.0.clone())
    }

    /// A copy of a mover's state.
    pub fn mover_state(&self, index: usize) -> Option<MoverState> {
        let e = *self.movers.get(index)?;
        self.world.get::<&MoverSlot>(e).ok().map(|m| m.state)
    }

    /// Whether item `index` can be picked up now.
    pub fn item_available(&self, index: usize) -> Option<bool> {
        let e = *self.items.get(index)?;
        self.world.get::<&ItemSlot>(e).ok().map(|i| i.available)
    }
}

fn reach_code(r: crate::nav::Reachability) -> u64 {
    use crate::nav::{Blocked, Reachability::*};
    match r {
        Walk => 1,
        Fall => 2,
        Jump => 3,
        JumpChain(n) => 4 | (n as u64) << 8,
        Swim => 5,
        Unreachable(b) => {
            6 | (match b {
                Blocked::Wall => 1,
                Blocked::Gap => 2,
                Blocked::Hazard => 3,
                Blocked::TooFar => 4,
                Blocked::BadEndpoint => 5,
                Blocked::TooLong => 6,
            }) << 8
        }
    }
}

fn hash_thing(h: &mut StateHasher, t: crate::bot::Thing) {
    match t {
        crate::bot::Thing::Player(id) => h.u64(id.0 as u64),
        crate::bot::Thing::Item(i) => h.u64(i as u64 | 1 << 40),
    }
}
