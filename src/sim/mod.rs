//! The shared world state every stage reads and writes: a hecs [`World`] of players, movers
//! and items with the components the engine needs ([`components`]), the map and its
//! [`CollisionMap`], the tick clock, the world's random stream ([`rng`]), the sound list
//! ([`sound`]), the tick's events, and the worker pool the per-bot stages share
//! ([`parallel`]). The state hash's byte layout is [`hash`]'s.
//!
//! This layer knows no bot and no game rule: which stages run, in what order, and which
//! components a player gets beyond the engine's are the `tick` layer's business
//! (`crate::tick`), and the stages live with the layer that owns them (`crate::game`,
//! `crate::bot`, `crate::physics::stage`).
//!
//! Entry points: [`Sim::new`], [`Sim::run_jobs`], [`Sim::spawn_player`], [`Sim::sound`].

pub mod components;
pub mod hash;
pub mod parallel;
pub mod rng;
pub mod sound;

use std::sync::Arc;

use glam::Vec3;
use hecs::{Entity, World};
use serde::Serialize;

use crate::map::{CollisionMap, EntId, Level};
use crate::physics::movers::MoverState;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState};

use components::{
    Command, Id, ItemSlot, LastMove, Motion, MoverSlot, Name, PlayerRng, PlayerStats, SpawnWish,
    Stats, Still, Vitals,
};
use hash::{StateHash, StateHasher};
use rng::{SimRng, WORLD_STREAM};
use sound::SoundList;

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

/// Why a world could not be set up.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SimError {
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
    /// Touches set it off: a named teleporter or push once fired; a `trigger_once` or
    /// `trigger_multiple` unless NOTOUCH.
    pub active: bool,
    /// Gone: a killtarget named it.
    pub removed: bool,
}

impl StateHash for TriggerRt {
    fn hash_state(&self, h: &mut StateHasher) {
        h.f32(self.rearm);
        h.u64(self.spent as u64 | (self.active as u64) << 1 | (self.removed as u64) << 2);
    }
}

/// Per-relay run-time state (a `trigger_relay` or `trigger_counter`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RelayRt {
    /// A counter's firings still to come before it fires.
    pub count: u32,
    /// Gone: a counter that has fired, or one a killtarget named.
    pub removed: bool,
}

impl StateHash for RelayRt {
    fn hash_state(&self, h: &mut StateHasher) {
        h.u64(self.count as u64 | (self.removed as u64) << 32);
    }
}

/// Firing put off by a `delay` (Quake's DelayedUse entity): its targets and killtarget go
/// off when the seconds left run out.
#[derive(Clone, Debug, Default)]
pub struct DelayedUse {
    /// Seconds left.
    pub left: f32,
    /// What it fires.
    pub target: Option<String>,
    /// What it removes.
    pub killtarget: Option<String>,
}

impl StateHash for DelayedUse {
    fn hash_state(&self, h: &mut StateHasher) {
        h.f32(self.left);
        for name in [&self.target, &self.killtarget] {
            let name = name.as_deref().unwrap_or("");
            h.u64(name.len() as u64);
            h.bytes(name.as_bytes());
        }
    }
}

/// Counters of a run (besides the stage timings).
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    /// Traces spent by perception (visibility and reachability).
    pub perception_traces: u64,
    /// Links added by an exploration's closing pass (`scenario::explore`).
    pub links_connected: u64,
}

/// The shared world state (see the module docs).
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
    /// Relay and counter states in definition order.
    pub relays: Vec<RelayRt>,
    /// Firings waiting out a delay, oldest first.
    pub delayed: Vec<DelayedUse>,
    /// The world's random stream (spawn choice).
    pub rng: SimRng,
    /// Events of the last tick.
    pub events: Vec<SimEvent>,
    /// Sounds in the world.
    pub sounds: SoundList,
    /// Run counters.
    pub stats: RunStats,
    /// Worker threads for the per-bot stages (1: all on the calling thread). Results do not
    /// depend on it.
    pub threads: usize,
    /// The persistent worker pool (started on first use with more than one thread).
    pub pool: Option<parallel::Pool>,
    /// Running players make footstep sounds ([`crate::game::rules::MatchRules::footsteps`]).
    pub footsteps: bool,
}

impl Sim {
    /// An empty world on `level`: no movers, items or players yet (the `tick` layer spawns
    /// them), triggers armed as the map says, the world's random stream seeded.
    pub fn new(
        level: Arc<Level>,
        cmap: CollisionMap,
        seed: u64,
        tick_rate: u32,
        params: PhysicsParams,
    ) -> Result<Sim, SimError> {
        if !(1..=1000).contains(&tick_rate) {
            return Err(SimError::BadTickRate(tick_rate));
        }
        let triggers = level
            .triggers
            .iter()
            .map(|t| {
                use crate::map::level::TriggerKind;
                TriggerRt {
                    // teleport_touch does nothing in a named teleporter until it is fired;
                    // multi_touch works in a named trigger (its name also fires it), but
                    // not with NOTOUCH; a push or hurt has no use function: a name does
                    // not switch it off.
                    active: match t.kind {
                        TriggerKind::Teleport { .. } => t.targetname.is_none(),
                        TriggerKind::Multiple { .. } | TriggerKind::Once => !t.notouch,
                        _ => true,
                    },
                    ..Default::default()
                }
            })
            .collect();
        let relays = level
            .relays
            .iter()
            .map(|r| RelayRt {
                count: match r.kind {
                    crate::map::level::RelayKind::Counter { count } => count,
                    crate::map::level::RelayKind::Relay => 0,
                },
                removed: false,
            })
            .collect();
        Ok(Sim {
            world: World::new(),
            level,
            cmap: Arc::new(cmap),
            params,
            dt: 1.0 / tick_rate as f32,
            tick: 0,
            seed,
            players: Vec::new(),
            movers: Vec::new(),
            items: Vec::new(),
            triggers,
            relays,
            delayed: Vec::new(),
            rng: SimRng::new(seed, WORLD_STREAM),
            events: Vec::new(),
            sounds: SoundList::default(),
            stats: RunStats::default(),
            threads: 1,
            pool: None,
            footsteps: false,
        })
    }

    /// Spawns the level's movers where they start, their brushes placed in the collision map.
    pub fn spawn_movers(&mut self) {
        let level = Arc::clone(&self.level);
        for (i, def) in level.movers.iter().enumerate() {
            let state = MoverState::spawn(def, &level.path_corners);
            self.cmap_mut().set_mover_offset(def.id, state.offset);
            let e = self.world.spawn((Id(def.id), MoverSlot { def: i, state }));
            self.movers.push(e);
        }
    }

    /// Spawns item `def` of the level lying at `origin`, available or not.
    pub fn spawn_item(
        &mut self,
        def: usize,
        origin: Vec3,
        rides: Option<crate::map::EntId>,
        available: bool,
    ) {
        let e = self.world.spawn((ItemSlot {
            def,
            origin,
            rides,
            available,
            respawn_ticks: if available { 0 } else { u64::MAX },
            rotting: None,
        },));
        self.items.push(e);
    }

    /// Spawns a player with the engine's components — id, name, movement state, command,
    /// vitals, statistics, its own random stream (stream `id` of the seed), last move, the
    /// spot it stays near, the spawn point it asks for (none) — and its body in the collision map. Players must be spawned in
    /// id order.
    pub fn spawn_player(&mut self, id: EntId, name: &str, state: PlayerState) -> Player {
        self.cmap_mut()
            .set_body(id, state.origin, PLAYER_MINS, PLAYER_MAXS);
        let entity = self.world.spawn((
            Id(id),
            Name(name.to_string()),
            Motion(state),
            Command::default(),
            Vitals::spawned(),
            PlayerStats(Stats::default()),
            PlayerRng(SimRng::new(self.seed, id.0 as u64)),
            LastMove::default(),
            Still {
                anchor: state.origin,
                seconds: 0.0,
            },
            SpawnWish::default(),
        ));
        let p = Player { id, entity };
        self.players.push(p);
        p
    }

    /// Runs a stage's `jobs` with the shared context `ctx` on this world's threads, starting
    /// its worker pool when needed, and hands both back: the jobs in their order, whatever
    /// thread ran each, so a stage writes its results back in entity order and its outcome
    /// is the same for any thread count. Below [`parallel::JobSize::min_parallel`] jobs (or
    /// on one thread) they run here. Each job may read only `ctx` and write only itself.
    pub fn run_jobs<C, T, F>(
        &mut self,
        size: parallel::JobSize,
        ctx: C,
        jobs: Vec<T>,
        f: F,
    ) -> (C, Vec<T>)
    where
        C: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&C, &mut T) + Send + Sync + 'static,
    {
        if self.threads <= 1 || jobs.len() < size.min_parallel() {
            let mut jobs = jobs;
            for j in &mut jobs {
                f(&ctx, j);
            }
            return (ctx, jobs);
        }
        if self
            .pool
            .as_ref()
            .is_none_or(|p| p.threads() != self.threads)
        {
            self.pool = Some(parallel::Pool::new(self.threads));
        }
        let pool = self.pool.as_ref().expect("just started");
        // The pool's threads outlive the call, so the context travels behind an `Arc`; every
        // worker lets go of its clone before reporting its last chunk.
        let ctx = Arc::new(ctx);
        let jobs = match size {
            parallel::JobSize::Search => pool.run_in_chunks(&ctx, jobs, 1, f),
            parallel::JobSize::Bot => pool.run(&ctx, jobs, f),
        };
        let Ok(ctx) = Arc::try_unwrap(ctx) else {
            panic!("the worker pool kept a stage's context after the call")
        };
        (ctx, jobs)
    }

    /// A free spawn point, chosen with the world stream; any spawn point when all are taken;
    /// `None` when the map has none.
    pub fn choose_spawn(&mut self) -> Option<usize> {
        let n = self.level.spawns.len();
        if n == 0 {
            return None;
        }
        let free: Vec<usize> = (0..n).filter(|&i| self.spawn_free(i)).collect();
        Some(if free.is_empty() {
            self.rng.below(n)
        } else {
            free[self.rng.below(free.len())]
        })
    }

    /// Whether no player's body stands in spawn point `i`'s box.
    pub fn spawn_free(&self, i: usize) -> bool {
        let o = self.level.spawns[i].origin;
        self.cmap
            .bodies_in_box(o + PLAYER_MINS, o + PLAYER_MAXS)
            .next()
            .is_none()
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

    /// Simulated seconds so far.
    pub fn time(&self) -> f64 {
        self.tick as f64 * self.dt as f64
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

    /// A copy of component `C` of player `index` (id order), whichever layer it belongs to.
    pub fn player_component<C: hecs::Component + Clone>(&self, index: usize) -> Option<C> {
        let e = self.players.get(index)?.entity;
        self.world.get::<&C>(e).ok().map(|c| (*c).clone())
    }

    /// A copy of a player's movement state.
    pub fn player_state(&self, index: usize) -> Option<PlayerState> {
        self.player_component::<Motion>(index).map(|m| m.0)
    }

    /// A copy of a player's vitals.
    pub fn player_vitals(&self, index: usize) -> Option<Vitals> {
        self.player_component::<Vitals>(index)
    }

    /// A copy of a player's statistics.
    pub fn player_stats(&self, index: usize) -> Option<Stats> {
        self.player_component::<PlayerStats>(index).map(|s| s.0)
    }

    /// A player's name.
    pub fn player_name(&self, index: usize) -> Option<String> {
        self.player_component::<Name>(index).map(|n| n.0)
    }

    /// A copy of a mover's state.
    pub fn mover_state(&self, index: usize) -> Option<MoverState> {
        let e = *self.movers.get(index)?;
        self.world.get::<&MoverSlot>(e).ok().map(|m| m.state)
    }

    /// Where item `index` is now (a mover it rests on carries it).
    pub fn item_origin(&self, index: usize) -> Option<Vec3> {
        let e = *self.items.get(index)?;
        self.world.get::<&ItemSlot>(e).ok().map(|i| i.origin)
    }

    /// Whether item `index` can be picked up now.
    pub fn item_available(&self, index: usize) -> Option<bool> {
        let e = *self.items.get(index)?;
        self.world.get::<&ItemSlot>(e).ok().map(|i| i.available)
    }
}
