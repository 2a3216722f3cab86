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
    /// Each plat, door and secret door at its other end (a plat up — or low when it waits
    /// high —, a door closed), by mover id: the world of the areas that are there only
    /// then ([`super::Area::moved`]). The collision maps share their static brushes.
    pub moved: Vec<Moved>,
}

/// One mover at the other end from where navigation assumes it (a door with the doors
/// linked to it).
pub struct Moved {
    /// The mover's id.
    pub id: u32,
    /// Its index in the level's movers.
    pub index: usize,
    /// Its offset there.
    pub offset: Vec3,
    /// The movers moved with it (indices, itself first; linked doors).
    pub group: Vec<usize>,
    /// The world with it there.
    pub cmap: CollisionMap,
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
        let moved = level
            .movers
            .iter()
            .enumerate()
            .filter_map(|(index, m)| {
                let here = cmap.mover_offset(m.id)?;
                let offset = match &m.kind {
                    MoverKind::Plat { low } => {
                        if (here - *low).length() < 0.01 {
                            Vec3::ZERO
                        } else {
                            *low
                        }
                    }
                    // Doors and secret doors are taken open; closed is where the map has them.
                    MoverKind::Door { .. } | MoverKind::SecretDoor { .. } => Vec3::ZERO,
                    _ => return None,
                };
                if (offset - here).length() < 0.01 {
                    return None;
                }
                // Linked doors move as one: the group is moved with its first door.
                let group: &[usize] = match &m.kind {
                    MoverKind::Door { .. } => &m.linked,
                    _ => &[],
                };
                if group.iter().any(|&g| g < index) {
                    return None;
                }
                let mut c = cmap.clone();
                c.set_mover_offset(m.id, offset);
                for &g in group {
                    c.set_mover_offset(level.movers[g].id, Vec3::ZERO);
                }
                let mut all = vec![index];
                all.extend(group.iter().copied().filter(|&g| g != index));
                Some(Moved {
                    id: m.id.0,
                    index,
                    offset,
                    group: all,
                    cmap: c,
                })
            })
            .collect();
        NavWorld {
            level,
            cmap,
            teleports,
            moved,
        }
    }

    /// The collision world of areas that need mover `moved` at its other end (`None`: the
    /// world as navigation assumes it).
    pub fn cmap_for(&self, moved: Option<u32>) -> &CollisionMap {
        moved
            .and_then(|id| self.moved.iter().find(|m| m.id == id))
            .map_or(&self.cmap, |m| &m.cmap)
    }

    /// The teleporter trigger a player box at `origin` touches, if any.
    pub fn teleporter_at(&self, origin: Vec3) -> Option<&Teleporter> {
        self.teleports.iter().find(|t| {
            crate::map::collision::touches(
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
