//! Flat route caches: for a goal area, every reachability's time to the goal and the one to
//! take after it ([`AreaCache`], filled backwards by the FIFO update), kept per (goal,
//! travel) under a memory cap ([`AreaCaches`]) and repaired, not rebuilt, when obstacles
//! block or free reachabilities ([`Blocked`], [`repair`]).

use super::NONE;
use crate::nav::lru::Lru;
use std::collections::VecDeque;

use glam::Vec3;
use serde::Serialize;

use super::{Travel, cross};
use crate::aas::mesh::{NavMesh, ReachKind};

/// The side of the default clusters' tiles, units.
pub const DEFAULT_TILE: f32 = 768.0;

/// Times to one goal area from the end of every reachability.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaCache {
    /// The goal area.
    pub goal: u32,
    /// What routes may use.
    pub travel: Travel,
    /// Per reachability: seconds from its end to the goal area's centre (`INFINITY`: none).
    pub time: Vec<f32>,
    /// Per reachability: the one to take after it (`u32::MAX`: it ends in the goal area,
    /// or there is no route).
    pub next: Vec<u32>,
    /// The [`Blocked`] revision it is up to date with.
    pub revision: u64,
}

impl AreaCache {
    /// Memory it takes, bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<AreaCache>() + self.time.len() * 8
    }
}

/// Fills the cache for `goal` by the FIFO update, backwards over the reachabilities
/// `travel` permits.
pub fn build_cache(mesh: &NavMesh, goal: u32, travel: Travel) -> AreaCache {
    build_cache_blocked(mesh, goal, travel, None)
}

/// [`build_cache`] leaving out the reachabilities `blocked` blocks.
pub fn build_cache_blocked(
    mesh: &NavMesh,
    goal: u32,
    travel: Travel,
    blocked: Option<&Blocked>,
) -> AreaCache {
    let n = mesh.reaches().len();
    let mut c = AreaCache {
        goal,
        travel,
        time: vec![f32::INFINITY; n],
        next: vec![NONE; n],
        revision: blocked.map_or(0, |b| b.revision),
    };
    if mesh.areas().get(goal as usize).is_none() {
        return c;
    }
    let usable = |i: u32| usable(mesh, travel, blocked, i);
    let mut queue = VecDeque::new();
    for &i in mesh.reach_ids_to(goal) {
        if usable(i) {
            c.time[i as usize] = best_step(mesh, &c, i).0;
            queue.push_back(i);
        }
    }
    relax(mesh, &mut c, queue, &usable);
    c
}

/// Whether reachability `i` may be taken: `travel` permits it and nothing blocks it.
pub(super) fn usable(mesh: &NavMesh, travel: Travel, blocked: Option<&Blocked>, i: u32) -> bool {
    travel.permits(mesh, &mesh.reaches()[i as usize])
        && !blocked.is_some_and(|b| b.blocked.get(i as usize).copied().unwrap_or(false))
}

/// The best way on from reachability `i`'s end over the cache's current entries: to the
/// goal area's centre if it ends there (next `NONE`), else through the best reachability
/// out of its end area. Returns (time, next); sets nothing.
pub(super) fn best_step(mesh: &NavMesh, c: &AreaCache, i: u32) -> (f32, u32) {
    let r = &mesh.reaches()[i as usize];
    let mut best = if r.to == c.goal {
        (
            cross(mesh, c.goal, r.end, mesh.areas()[c.goal as usize].center),
            NONE,
        )
    } else {
        (f32::INFINITY, NONE)
    };
    for &j in mesh.reach_ids_from(r.to) {
        let t = c.time[j as usize];
        if t.is_finite() {
            let q = &mesh.reaches()[j as usize];
            let d = cross(mesh, r.to, r.end, q.start) + q.seconds + t;
            if d < best.0 {
                best = (d, j);
            }
        }
    }
    best
}

/// The FIFO update from the entries in `queue` (their times set): each one's predecessors
/// take the time through it when that is shorter, and are queued in turn.
pub(super) fn relax(
    mesh: &NavMesh,
    c: &mut AreaCache,
    mut queue: VecDeque<u32>,
    usable: &dyn Fn(u32) -> bool,
) {
    let reaches = mesh.reaches();
    let mut queued = vec![false; reaches.len()];
    for &q in &queue {
        queued[q as usize] = true;
    }
    while let Some(i) = queue.pop_front() {
        queued[i as usize] = false;
        let r = &reaches[i as usize];
        let after = c.time[i as usize] + r.seconds;
        for &j in mesh.reach_ids_to(r.from) {
            if !usable(j) {
                continue;
            }
            let p = &reaches[j as usize];
            let d = after + cross(mesh, r.from, p.end, r.start);
            if d < c.time[j as usize] {
                c.time[j as usize] = d;
                c.next[j as usize] = i;
                if !queued[j as usize] {
                    queued[j as usize] = true;
                    queue.push_back(j);
                }
            }
        }
    }
}

/// Reachabilities that cannot be taken now — blocked by an obstacle — with a revision
/// that counts the changes, so that caches are repaired with exactly the changes since
/// they were last brought up to date.
#[derive(Clone, Debug, Default)]
pub struct Blocked {
    /// Per reachability.
    pub blocked: Vec<bool>,
    /// Changes so far.
    pub revision: u64,
    /// (revision, reachability) of each change, in order.
    pub(super) log: Vec<(u64, u32)>,
}

impl Blocked {
    /// Nothing blocked, for `mesh`.
    pub fn new(mesh: &NavMesh) -> Blocked {
        Blocked {
            blocked: vec![false; mesh.reaches().len()],
            revision: 0,
            log: Vec::new(),
        }
    }

    /// Blocks (or frees) reachability `i`; true when that changed it.
    pub fn set(&mut self, i: u32, blocked: bool) -> bool {
        match self.blocked.get_mut(i as usize) {
            Some(b) if *b != blocked => {
                *b = blocked;
                self.revision += 1;
                self.log.push((self.revision, i));
                true
            }
            _ => false,
        }
    }

    /// Blocks (or frees) every reachability whose straight path from start to end, swept by
    /// the player's box (and 48 units above it, for a jump's arc), touches the box
    /// `mins..maxs` (a teleport: where it starts or arrives); returns them.
    pub fn set_box(&mut self, mesh: &NavMesh, mins: Vec3, maxs: Vec3, blocked: bool) -> Vec<u32> {
        let mut out = Vec::new();
        let touches = |a: Vec3, b: Vec3| crate::nav::waypoints::segment_hits_box(a, b, mins, maxs);
        for (i, r) in mesh.reaches().iter().enumerate() {
            let hit = if r.kind == ReachKind::Teleport {
                // Start and arrival: the line between them is not travelled.
                touches(r.start, r.start) || touches(r.end, r.end)
            } else {
                touches(r.start, r.end) || touches(r.start + Vec3::Z * 48.0, r.end + Vec3::Z * 48.0)
            };
            if hit {
                self.set(i as u32, blocked);
                out.push(i as u32);
            }
        }
        out
    }

    /// The reachabilities changed after revision `since` (each once, ascending).
    pub(super) fn changed_since(&self, since: u64) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .log
            .iter()
            .filter(|(rev, _)| *rev > since)
            .map(|(_, i)| *i)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// Brings `c` up to date with `blocked`, touching only what the changes since its revision
/// affect: entries whose chain runs through a newly blocked reachability are cleared and
/// refilled from their neighbours, newly freed ones are filled, and the FIFO update runs
/// from all of those. The result is what [`build_cache_blocked`] gives (same times).
pub fn repair(mesh: &NavMesh, c: &mut AreaCache, blocked: &Blocked) {
    if c.revision == blocked.revision {
        return;
    }
    let changed = blocked.changed_since(c.revision);
    c.revision = blocked.revision;
    let travel = c.travel;
    let usable = |i: u32| usable(mesh, travel, Some(blocked), i);
    // Entries depending on a newly blocked reachability: it, and everything whose chain of
    // `next` runs through it (found through the reversed `next` links).
    let n = c.time.len();
    let cut: Vec<u32> = changed
        .iter()
        .copied()
        .filter(|&i| blocked.blocked[i as usize] && c.time[i as usize].is_finite())
        .collect();
    let mut stale = vec![false; n];
    if !cut.is_empty() {
        let mut before: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (p, &q) in c.next.iter().enumerate() {
            if q != NONE {
                before[q as usize].push(p as u32);
            }
        }
        let mut stack = cut.clone();
        for &i in &cut {
            stale[i as usize] = true;
        }
        while let Some(i) = stack.pop() {
            for &p in &before[i as usize] {
                if !stale[p as usize] {
                    stale[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        for (i, s) in stale.iter().enumerate() {
            if *s {
                c.time[i] = f32::INFINITY;
                c.next[i] = NONE;
            }
        }
    }
    // Refill the cleared and the freed from what is still known, then update from them.
    let mut seeds: Vec<u32> = (0..n as u32).filter(|&i| stale[i as usize]).collect();
    seeds.extend(
        changed
            .iter()
            .copied()
            .filter(|&i| !blocked.blocked[i as usize] && !stale[i as usize]),
    );
    seeds.sort_unstable();
    seeds.dedup();
    let mut queue = VecDeque::new();
    for i in seeds {
        if !usable(i) {
            continue;
        }
        let (t, next) = best_step(mesh, c, i);
        if t < c.time[i as usize] {
            c.time[i as usize] = t;
            c.next[i as usize] = next;
            queue.push_back(i);
        }
    }
    relax(mesh, c, queue, &usable);
}

/// How cache requests went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// Served from a cache held.
    pub hits: u64,
    /// Built.
    pub builds: u64,
    /// Brought up to date with obstacles by repair.
    pub repairs: u64,
    /// Evicted to stay under the memory cap.
    pub evictions: u64,
}

/// Caches per (goal area, travel), least recently used evicted above a memory cap.
#[derive(Clone, Debug)]
pub struct AreaCaches {
    pub(super) caches: Lru<(u32, Travel), AreaCache>,
    /// Memory cap, bytes.
    pub cap_bytes: usize,
    /// Counters.
    pub stats: CacheStats,
}

impl AreaCaches {
    /// Empty, with a memory cap.
    pub fn new(cap_bytes: usize) -> AreaCaches {
        AreaCaches {
            caches: Lru::new(),
            cap_bytes,
            stats: CacheStats::default(),
        }
    }

    /// Number held.
    pub fn len(&self) -> usize {
        self.caches.len()
    }

    /// True when none is held.
    pub fn is_empty(&self) -> bool {
        self.caches.is_empty()
    }

    /// Memory held, bytes.
    pub fn bytes(&self) -> usize {
        self.caches.values().map(AreaCache::bytes).sum()
    }

    /// The cache for `goal` under `travel`, built on first use and repaired (not rebuilt)
    /// when `blocked` has changed since.
    pub fn get(
        &mut self,
        mesh: &NavMesh,
        goal: u32,
        travel: Travel,
        blocked: Option<&Blocked>,
    ) -> &AreaCache {
        let key = (goal, travel);
        match self.caches.get_mut(&key) {
            Some(c) => match blocked {
                Some(b) if b.revision != c.revision => {
                    repair(mesh, c, b);
                    self.stats.repairs += 1;
                }
                _ => self.stats.hits += 1,
            },
            None => {
                let c = build_cache_blocked(mesh, goal, travel, blocked);
                self.stats.builds += 1;
                self.caches.insert(key, c);
            }
        }
        // Stay under the cap, oldest first, never evicting the one just asked for.
        self.stats.evictions += self
            .caches
            .evict_to_bytes(key, self.cap_bytes, AreaCache::bytes);
        self.caches.peek(&key).expect("held: just asked for")
    }
}
