//! Perception (reference 002 §10.1): an entity is visible when one trace from the bot's eye
//! to the entity's centre is unobstructed (light is not modelled). Liquids and clip brushes
//! are seen through; solid brushes and closed doors block. Candidates are culled by sight
//! distance and field of view before any trace, so the cost grows with what is near, not with
//! bots × entities. Lines of sight and the straight-line reachability of the nearest few
//! visible things are refreshed at 10 Hz, staggered across bots; in between, what was seen
//! is followed to where it is now (a player moves at most 32 units in a tenth of a second).
//! Reachability is tested only for bots that read it ([`Senses::reach_checks`]: explorers by
//! default): it was most of a brain bot's perception cost, and no brain decision used it.
//! An item's line of sight is not traced from a 64-unit cell that one static brush hides it
//! from entirely (proved once per cell and item, [`CollisionMap::box_blocked_from`]): the
//! trace would say "blocked" anyway, so the answers and hashes are those of tracing.
//!
//! The ring of shadows (beyond the reference): Quake draws its holder as a pair of floating
//! eyes (`progs/eyes.mdl`, a few units across) — a player notices them close by, not across
//! a room — and a shot's muzzle flash lights the holder up. So a holder who has not fired
//! within [`crate::game::combat::FLASH_SECONDS`] is seen only within [`HIDDEN_SIGHT`] units
//! (its line of sight is still traced); its sounds are heard as anyone's.
//!
//! Entry points: [`PerceptionStage`], [`visible`].

use std::sync::Arc;

use glam::Vec3;

use crate::game::Inventory;
use crate::map::collision::NO_BLOCKER;
use crate::map::{CollisionMap, Contents, EntId};
use crate::nav::sample::item_touch_point;
use crate::nav::{ReachParams, reach::reachable_counted};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, angle_vectors};
use crate::sim::Sim;
use crate::sim::components::{ItemSlot, Motion, Vitals};
use crate::sim::parallel::JobSize;

use super::{Percepts, Reached, Seen, Senses, Thing};

/// Farthest distance at which a ring of shadows' holder is seen (when not firing).
pub const HIDDEN_SIGHT: f32 = 256.0;

/// Reachability is tested only for visible things this close.
pub const REACH_RANGE: f32 = 1024.0;
/// At most this many (nearest) visible things are tested for reachability per refresh.
pub const REACH_PER_REFRESH: usize = 4;
/// Refreshes per second of visibility and reachability (the reference's 10 Hz; a player
/// moves at most 32 units in a tenth of a second, and what is seen is followed in between).
pub const REFRESH_HZ: f32 = 10.0;

/// Whether `target` is visible from `eye` looking along `forward` with these senses; the
/// second value is the number of traces spent (0 or 1).
pub fn visible(
    cmap: &CollisionMap,
    eye: Vec3,
    forward: Vec3,
    senses: &Senses,
    target: Vec3,
) -> (bool, u32) {
    let mut hint = NO_BLOCKER;
    visible_hinted(cmap, eye, forward, senses, target, &mut hint)
}

/// [`visible`] with the line of sight's last blocker as a hint, left naming this one's
/// ([`CollisionMap::line_clear_hinted`]; the answer does not depend on it).
pub fn visible_hinted(
    cmap: &CollisionMap,
    eye: Vec3,
    forward: Vec3,
    senses: &Senses,
    target: Vec3,
    hint: &mut u32,
) -> (bool, u32) {
    if !in_view(eye, forward, senses, target) {
        return (false, 0);
    }
    (
        cmap.line_clear_hinted(eye, target, Contents::MASK_SIGHT, hint),
        1,
    )
}

/// Whether `target` is within sight distance and the field of view (no trace).
pub fn in_view(eye: Vec3, forward: Vec3, senses: &Senses, target: Vec3) -> bool {
    let d = target - eye;
    let dist = d.length();
    if dist > senses.sight {
        return false;
    }
    if senses.fov < 360.0 && dist > 1e-3 {
        let cos_half = (senses.fov.to_radians() * 0.5).cos();
        if forward.dot(d / dist) < cos_half {
            return false;
        }
    }
    true
}

/// Lines of sight between players, eye to eye, kept for one refresh interval. A line of
/// sight is the same both ways, so each pair is traced once per interval however many of the
/// two refresh in it (with staggered refreshes, half the player-to-player traces). Derived
/// from the state of the last ticks only (never hashed); the match replays it exactly.
#[derive(Clone, Debug, Default)]
pub struct SightPairs {
    players: usize,
    /// Per ordered index pair `a * players + b` (a < b): 0 = never traced, else
    /// `(tick + 1) << 1 | clear`.
    entries: Vec<u64>,
    /// Per pair, the static brush that blocked its last line of sight, tried first the
    /// next time ([`CollisionMap::line_clear_hinted`]), or [`NO_BLOCKER`].
    blockers: Vec<u32>,
}

impl SightPairs {
    fn slot(&self, a: usize, b: usize) -> usize {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        a * self.players + b
    }

    /// The line of sight between players `a` and `b` (indices) if traced in the ticks
    /// `tick - interval + 1 ..= tick`.
    fn get(&self, a: usize, b: usize, tick: u64, interval: u64) -> Option<bool> {
        let e = self.entries[self.slot(a, b)];
        (e != 0 && (e >> 1) - 1 + interval > tick).then_some(e & 1 == 1)
    }

    fn set(&mut self, a: usize, b: usize, tick: u64, clear: bool, blocker: u32) {
        let i = self.slot(a, b);
        self.entries[i] = ((tick + 1) << 1) | clear as u64;
        self.blockers[i] = blocker;
    }

    /// The brush that blocked the pair's last line of sight ([`NO_BLOCKER`] if none).
    fn blocker(&self, a: usize, b: usize) -> u32 {
        self.blockers[self.slot(a, b)]
    }

    fn resize(&mut self, players: usize) {
        if self.players != players {
            self.players = players;
            self.entries = vec![0; players * players];
            self.blockers = vec![NO_BLOCKER; players * players];
        }
    }
}

/// The centre of a player's box at `origin` (what others look at).
fn player_centre(origin: Vec3) -> Vec3 {
    origin + (PLAYER_MINS + PLAYER_MAXS) * 0.5
}

/// A player as the frozen view of the tick's start has it.
#[derive(Clone, Copy, Debug)]
struct PlayerView {
    id: EntId,
    origin: Vec3,
    alive: bool,
    eye: Vec3,
    /// Holds the ring of shadows and has not fired lately: seen only up close.
    hidden: bool,
}

impl PlayerView {
    /// Whether a bot whose eye is at `eye` could make this player out at all (before the
    /// field of view and the line of sight).
    fn noticeable_from(&self, eye: Vec3) -> bool {
        self.alive && (!self.hidden || player_centre(self.origin).distance(eye) <= HIDDEN_SIGHT)
    }
}

/// An available item as perception sees it.
#[derive(Clone, Copy, Debug)]
struct ItemView {
    /// Index in the level's items.
    index: usize,
    /// The centre of its pickup box (what a bot looks at).
    centre: Vec3,
    /// Where a standing player touches it (what reachability is tested to).
    touch: Vec3,
}

/// A line of sight traced between the players at indices `a` < `b`.
#[derive(Clone, Copy, Debug)]
struct SightLine {
    a: usize,
    b: usize,
    clear: bool,
    /// The static brush that blocks it, or [`NO_BLOCKER`].
    blocker: u32,
}

/// A living bot refreshing its lines of sight this tick: where it looks from, along which
/// direction, with which senses.
#[derive(Clone, Copy, Debug)]
struct Looker {
    eye: Vec3,
    forward: Vec3,
    senses: Senses,
}

/// The perception stage. It owns the lines of sight between players traced in the current
/// refresh interval ([`SightPairs`]), its scratch between ticks.
///
/// Reads [`Motion`], [`Vitals`], [`Senses`] and [`ItemSlot`]s; writes [`Percepts`]
/// (visible, reachable, traces) and the run's perception trace count.
#[derive(Clone, Debug, Default)]
pub struct PerceptionStage {
    pairs: SightPairs,
    /// Per sight cell, per item: 0 not asked yet, 1 a static brush blocks every line from
    /// the cell to the item ([`CollisionMap::box_blocked_from`]), 2 not proven. A proof
    /// holds for the whole match (static brushes never move), so the item's line of sight
    /// from that cell is never traced: the answer would be "blocked" anyway (same hashes).
    /// Only looked up, never iterated; a cell's row is made when a bot's eye is first in
    /// it, so the size follows where the bots have been, not the map's volume.
    blocked: rustc_hash::FxHashMap<usize, Vec<u8>>,
    /// Per player index, per item (level index): the static brush that blocked the
    /// player's last line of sight to it, tried first next time
    /// ([`CollisionMap::line_clear_hinted`]), or [`NO_BLOCKER`]. A guess only: answers
    /// never depend on it.
    item_blockers: Vec<Vec<u32>>,
}

impl PerceptionStage {
    /// Fills every living bot's visible list (each tick) and reachable list (10 Hz,
    /// staggered).
    pub fn run(&mut self, sim: &mut Sim) {
        let level = Arc::clone(&sim.level);
        // A frozen view: where everyone and everything is at the start of the tick.
        let players: Vec<PlayerView> = sim
            .players
            .iter()
            .map(|p| {
                let (origin, eye) = sim
                    .world
                    .get::<&Motion>(p.entity)
                    .map(|m| (m.0.origin, m.0.eye()))
                    .unwrap_or((Vec3::ZERO, Vec3::ZERO));
                let alive = sim
                    .world
                    .get::<&Vitals>(p.entity)
                    .map(|v| v.alive)
                    .unwrap_or(false);
                let hidden = sim
                    .world
                    .get::<&Inventory>(p.entity)
                    .is_ok_and(|inv| inv.hidden(sim.tick));
                PlayerView {
                    id: p.id,
                    origin,
                    alive,
                    eye,
                    hidden,
                }
            })
            .collect();
        let items: Vec<ItemView> = sim
            .items
            .iter()
            .filter_map(|&e| {
                let s = sim.world.get::<&ItemSlot>(e).ok()?;
                if !s.available {
                    return None;
                }
                let (mn, mx) = level.items[s.def].kind.bounds();
                Some(ItemView {
                    index: s.def,
                    centre: s.origin + (mn + mx) * 0.5,
                    touch: item_touch_point(s.origin, mn),
                })
            })
            .collect();
        let interval = ((1.0 / sim.dt) / REFRESH_HZ).round().max(1.0) as u64;
        let tick = sim.tick;
        // One job per bot: its state and its percepts, taken out of the world.
        struct Job {
            id: EntId,
            /// Index in `sim.players`.
            ix: usize,
            e: hecs::Entity,
            s: crate::physics::PlayerState,
            alive: bool,
            senses: Senses,
            /// Whether its reachability tests are made ([`Senses::reach_checks`]).
            reach_checks: bool,
            percepts: Percepts,
            /// Lines of sight this bot traced for everyone.
            sight: Vec<SightLine>,
            /// Items (by level index) that no line from its eye's cell can see, when it
            /// refreshes this tick.
            unseen: Vec<bool>,
            /// Its [`PerceptionStage::item_blockers`] row.
            item_hints: Vec<u32>,
        }
        let mut jobs: Vec<Job> = Vec::with_capacity(sim.players.len());
        let mut view = sim
            .world
            .view_mut::<(&Motion, &Vitals, &Senses, &mut Percepts)>();
        for (ix, p) in sim.players.iter().enumerate() {
            let Some((motion, vitals, senses, percepts)) = view.get_mut(p.entity) else {
                continue;
            };
            // Settled when the bot was spawned (for its controller) where not configured.
            let reach_checks = senses.reach_checks == Some(true);
            jobs.push(Job {
                id: p.id,
                ix,
                e: p.entity,
                s: motion.0,
                alive: vitals.alive,
                senses: *senses,
                reach_checks,
                percepts: std::mem::take(percepts),
                sight: Vec::new(),
                unseen: Vec::new(),
                item_hints: self
                    .item_blockers
                    .get_mut(ix)
                    .map(std::mem::take)
                    .unwrap_or_default(),
            });
        }
        // Items whose line of sight is proven blocked from the refreshing bots' eye cells
        // (each proof made once a match, on first need).
        let nitems = level.items.len();
        for job in &mut jobs {
            if !job.alive || !(tick + job.id.0 as u64).is_multiple_of(interval) {
                continue;
            }
            let Some((cell, lo, hi)) = sim.cmap.sight_cell(job.s.eye()) else {
                continue;
            };
            job.unseen = vec![false; nitems];
            let row = self.blocked.entry(cell).or_insert_with(|| vec![0; nitems]);
            for i in &items {
                let slot = &mut row[i.index];
                if *slot == 0 {
                    let proven = sim
                        .cmap
                        .box_blocked_from(lo, hi, i.centre, Contents::MASK_SIGHT);
                    *slot = if proven { 1 } else { 2 };
                }
                job.unseen[i.index] = *slot == 1;
            }
        }
        // Lines of sight between players that a refreshing bot needs and that were not traced
        // in this refresh interval, each pair traced once: by the lower-indexed of the bots
        // that need it, in that bot's job (who needs a pair is known from the frozen view
        // alone).
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.resize(players.len());
        // Per player index: the living bots refreshing this tick.
        let mut lookers: Vec<Option<Looker>> = vec![None; players.len()];
        for job in &jobs {
            if job.alive && (tick + job.id.0 as u64).is_multiple_of(interval) {
                let (forward, _) = angle_vectors(job.s.yaw, job.s.pitch);
                lookers[job.ix] = Some(Looker {
                    eye: job.s.eye(),
                    forward,
                    senses: job.senses,
                });
            }
        }
        // The frozen view both rounds of jobs share: the lines of sight between players, then
        // everything else.
        struct Frozen {
            cmap: Arc<crate::map::CollisionMap>,
            players: Vec<PlayerView>,
            lookers: Vec<Option<Looker>>,
            pairs: SightPairs,
            items: Vec<ItemView>,
            tick: u64,
            interval: u64,
            reach: ReachParams,
            nitems: usize,
        }
        let frozen = Frozen {
            cmap: Arc::clone(&sim.cmap),
            players,
            lookers,
            pairs,
            items,
            tick,
            interval,
            reach: ReachParams::default(),
            nitems,
        };
        let (mut frozen, mut jobs) = sim.run_jobs(JobSize::Bot, frozen, jobs, |look, job| {
            let Some(me) = look.lookers[job.ix] else {
                return;
            };
            let players = &look.players;
            // Whether the bot at index `i` (refreshing) needs its line of sight to `k`.
            let wants = |i: usize, k: usize, l: &Looker| {
                k != i
                    && players[k].noticeable_from(l.eye)
                    && in_view(
                        l.eye,
                        l.forward,
                        &l.senses,
                        player_centre(players[k].origin),
                    )
                    && look.pairs.get(i, k, look.tick, look.interval).is_none()
            };
            for k in 0..players.len() {
                if !wants(job.ix, k, &me) {
                    continue;
                }
                let lower_wants =
                    k < job.ix && look.lookers[k].is_some_and(|l| wants(k, job.ix, &l));
                if !lower_wants {
                    let (a, b) = (job.ix.min(k), job.ix.max(k));
                    let mut blocker = look.pairs.blocker(a, b);
                    let clear = look.cmap.line_clear_hinted(
                        players[a].eye,
                        players[b].eye,
                        Contents::MASK_SIGHT,
                        &mut blocker,
                    );
                    job.sight.push(SightLine {
                        a,
                        b,
                        clear,
                        blocker,
                    });
                }
            }
        });
        let mut pair_traces = 0;
        for job in &mut jobs {
            pair_traces += job.sight.len() as u64;
            for l in job.sight.drain(..) {
                frozen.pairs.set(l.a, l.b, tick, l.clear, l.blocker);
            }
        }
        let (frozen, jobs) = sim.run_jobs(JobSize::Bot, frozen, jobs, |ctx, job| {
            let (cmap, players, items) = (&*ctx.cmap, &ctx.players, &ctx.items);
            let (tick, interval, reach_params) = (ctx.tick, ctx.interval, ctx.reach);
            let (id, ix) = (job.id, job.ix);
            let senses = &job.senses;
            let percepts = &mut job.percepts;
            percepts.traces = 0;
            if !job.alive {
                percepts.visible.clear();
                percepts.reachable.clear();
                return;
            }
            let s = job.s;
            let eye = s.eye();
            let (forward, _) = angle_vectors(s.yaw, s.pitch);
            // About what it saw last time (a crowded match's lists run to a hundred).
            let mut seen = Vec::with_capacity(percepts.visible.len() + 4);
            let mut traces = 0u32;
            let refresh = (tick + id.0 as u64).is_multiple_of(interval);
            if refresh {
                // Every living other player (lines of sight traced above) and every
                // available item, in id order.
                for (k, p) in players.iter().enumerate() {
                    let centre = player_centre(p.origin);
                    if k != ix
                        && p.noticeable_from(eye)
                        && in_view(eye, forward, senses, centre)
                        && ctx.pairs.get(ix, k, tick, interval) == Some(true)
                    {
                        seen.push(Seen {
                            thing: Thing::Player(p.id),
                            pos: centre,
                            distance: (centre - eye).length(),
                        });
                    }
                }
                job.item_hints.resize(ctx.nitems, NO_BLOCKER);
                for i in items {
                    if job.unseen.get(i.index) == Some(&true) {
                        continue;
                    }
                    let hint = &mut job.item_hints[i.index];
                    let (vis, t) = visible_hinted(cmap, eye, forward, senses, i.centre, hint);
                    traces += t;
                    if vis {
                        seen.push(Seen {
                            thing: Thing::Item(i.index),
                            pos: i.centre,
                            distance: (i.centre - eye).length(),
                        });
                    }
                }
            } else {
                // Between refreshes: what was seen last time and is still there, followed to
                // where it is now (players keep moving; taken items and dead players drop
                // out).
                for v in &percepts.visible {
                    let now = match v.thing {
                        Thing::Player(pid) => players
                            .iter()
                            .find(|p| p.id == pid && p.noticeable_from(eye))
                            .map(|p| player_centre(p.origin)),
                        Thing::Item(def) => items.iter().find(|i| i.index == def).map(|i| i.centre),
                    };
                    if let Some(pos) = now {
                        seen.push(Seen {
                            thing: v.thing,
                            pos,
                            distance: (pos - eye).length(),
                        });
                    }
                }
            }
            seen.sort_by(|a, b| {
                a.distance
                    .total_cmp(&b.distance)
                    .then(a.thing.cmp(&b.thing))
            });
            if refresh && !job.reach_checks {
                percepts.reachable.clear();
            } else if refresh {
                let mut reached = Vec::new();
                for v in seen
                    .iter()
                    .filter(|v| v.distance <= REACH_RANGE)
                    .take(REACH_PER_REFRESH)
                {
                    let to = match v.thing {
                        Thing::Player(pid) => {
                            players.iter().find(|p| p.id == pid).map(|p| p.origin)
                        }
                        Thing::Item(def) => items.iter().find(|i| i.index == def).map(|i| i.touch),
                    };
                    let Some(to) = to else { continue };
                    let (how, t) = reachable_counted(cmap, s.origin, to, &reach_params);
                    traces += t;
                    if how.is_reachable() {
                        reached.push(Reached {
                            thing: v.thing,
                            how,
                        });
                    }
                }
                percepts.reachable = reached;
            }
            percepts.visible = seen;
            percepts.traces = traces;
        });
        self.pairs = frozen.pairs;
        // Results back in entity order.
        let mut total_traces = pair_traces;
        self.item_blockers.resize(sim.players.len(), Vec::new());
        for job in jobs {
            self.item_blockers[job.ix] = job.item_hints;
            total_traces += job.percepts.traces as u64;
            if let Ok(mut p) = sim.world.get::<&mut Percepts>(job.e) {
                *p = job.percepts;
            }
        }
        sim.stats.perception_traces += total_traces;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Brush;

    #[test]
    fn a_line_of_sight_is_shared_by_both_players_for_one_interval() {
        let mut p = SightPairs::default();
        p.resize(3);
        assert_eq!(p.get(0, 2, 10, 2), None, "never traced");
        p.set(2, 0, 10, true, NO_BLOCKER);
        // Either order, the tick it was traced and the next (interval 2), not after.
        assert_eq!(p.get(0, 2, 10, 2), Some(true));
        assert_eq!(p.get(2, 0, 11, 2), Some(true));
        assert_eq!(p.get(0, 2, 12, 2), None);
        p.set(0, 1, 0, false, 7);
        assert_eq!(p.get(1, 0, 0, 1), Some(false));
        assert_eq!(p.get(1, 0, 1, 1), None);
        // A new player count starts afresh.
        p.resize(4);
        assert_eq!(p.get(0, 1, 0, 2), None);
    }

    #[test]
    fn fov_and_distance_cull_before_tracing() {
        let floor = Brush::from_box(
            Vec3::new(-512., -512., -16.),
            Vec3::new(512., 512., 0.),
            Contents::SOLID,
        );
        let map = CollisionMap::new(vec![floor], vec![]);
        let eye = Vec3::new(0., 0., 46.);
        let s = Senses {
            fov: 90.0,
            sight: 300.0,
            ..Default::default()
        };
        // Ahead, in range: traced and visible.
        assert_eq!(
            visible(&map, eye, Vec3::X, &s, Vec3::new(200., 0., 46.)),
            (true, 1)
        );
        // 44° off the view axis: inside a 90° cone.
        let off = Vec3::new(200., 200.0 * 44f32.to_radians().tan(), 46.);
        assert_eq!(visible(&map, eye, Vec3::X, &s, off), (true, 1));
        // 46° off: culled without a trace.
        let off = Vec3::new(200., 200.0 * 46f32.to_radians().tan(), 46.);
        assert_eq!(visible(&map, eye, Vec3::X, &s, off), (false, 0));
        // Behind and beyond sight: culled.
        assert_eq!(
            visible(&map, eye, Vec3::X, &s, Vec3::new(-200., 0., 46.)),
            (false, 0)
        );
        assert_eq!(
            visible(&map, eye, Vec3::X, &s, Vec3::new(301., 0., 46.)),
            (false, 0)
        );
        // The default senses see all around.
        assert_eq!(
            visible(
                &map,
                eye,
                Vec3::X,
                &Senses::default(),
                Vec3::new(-200., 0., 46.)
            ),
            (true, 1)
        );
        // Below the floor: traced and blocked.
        assert_eq!(
            visible(
                &map,
                eye,
                Vec3::X,
                &Senses::default(),
                Vec3::new(100., 0., -8.)
            ),
            (false, 1)
        );
    }
}
