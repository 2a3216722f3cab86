//! The world a compile sees and replays run in: the level with its movers where navigation
//! assumes them and its teleporters (named ones too: they work once fired); and the
//! fixed-chunk worker split the compile runs its columns and candidates on. Entry point:
//! [`NavWorld`].

use glam::Vec3;

use crate::map::level::{MoverKind, TriggerKind};
use crate::map::{CollisionMap, Level};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};

/// A `trigger_teleport` as navigation uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Teleporter {
    /// Trigger box minimum.
    pub mins: Vec3,
    /// Trigger box maximum.
    pub maxs: Vec3,
    /// Where it sends a player.
    pub dest: Vec3,
    /// Facing after arrival, degrees.
    pub yaw: f32,
    /// Its index in the level's triggers.
    pub trigger: u32,
}

/// The world a compile sees: the level, and its collision map with every door open, plats
/// at rest and trains at their first corner.
pub struct NavWorld<'a> {
    /// The level.
    pub level: &'a Level,
    /// Movers where navigation assumes them.
    pub cmap: CollisionMap,
    /// Its teleporters.
    pub teleports: Vec<Teleporter>,
}

impl<'a> NavWorld<'a> {
    /// Puts the movers where navigation assumes them (doors open — locked ones too, their
    /// reachabilities recording the key — plats at rest, trains at their first corner,
    /// secret doors open).
    pub fn new(level: &'a Level, cmap: &CollisionMap) -> NavWorld<'a> {
        let mut cmap = cmap.clone();
        crate::physics::movers::place_at_spawn(level, &mut cmap);
        for m in &level.movers {
            match &m.kind {
                MoverKind::Door { open, .. } => cmap.set_mover_offset(m.id, *open),
                MoverKind::SecretDoor { open, .. } => cmap.set_mover_offset(m.id, *open),
                _ => {}
            }
        }
        let teleports = level
            .triggers
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t.kind {
                // Named ones too: they work once fired, which their reachabilities record
                // (as doors are taken open).
                TriggerKind::Teleport { dest: Some(d) } => {
                    let d = &level.teleport_dests[d];
                    Some(Teleporter {
                        mins: t.mins,
                        maxs: t.maxs,
                        dest: d.origin,
                        yaw: d.yaw,
                        trigger: i as u32,
                    })
                }
                _ => None,
            })
            .collect();
        NavWorld {
            level,
            cmap,
            teleports,
        }
    }

    /// The teleporter trigger a player box at `origin` touches, if any.
    pub fn teleporter_at(&self, origin: Vec3) -> Option<&Teleporter> {
        self.teleports.iter().find(|t| {
            crate::map::collision::overlaps(
                origin + PLAYER_MINS,
                origin + PLAYER_MAXS,
                t.mins,
                t.maxs,
            )
        })
    }
}

/// Runs `f` over `items` on `threads` workers in fixed chunks, results in item order;
/// `progress` hears how many are done after each round.
pub(crate) fn par_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
    mut progress: impl FnMut(usize),
) -> Vec<R> {
    const CHUNK: usize = 64;
    let threads = threads.max(1);
    let mut out = Vec::with_capacity(items.len());
    for round in items.chunks(CHUNK * threads) {
        if threads == 1 {
            out.extend(round.iter().map(&f));
        } else {
            let parts: Vec<Vec<R>> = std::thread::scope(|s| {
                let handles: Vec<_> = round
                    .chunks(CHUNK)
                    .map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>()))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("compile worker panicked"))
                    .collect()
            });
            out.extend(parts.into_iter().flatten());
        }
        progress(out.len());
    }
    out
}

/// The worker threads to use for `asked` (0: the machine's).
pub(crate) fn threads_for(asked: usize) -> usize {
    if asked > 0 {
        asked
    } else {
        crate::sim::parallel::default_threads()
    }
}
