//! The world a compile sees and replays run in: the level with its movers where navigation
//! assumes them and its teleporters (named ones too: they work once fired); and the
//! fixed-chunk worker split the compile runs its columns and candidates on. Entry point:
//! [`NavWorld`].

use glam::Vec3;

use crate::map::level::{MoverKind, TriggerKind};
use crate::map::{CollisionMap, Level};
use crate::physics::movers::MoverState;
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

/// The level's teleporters as navigation uses them: every `trigger_teleport` with a
/// destination, named ones too (they work once fired, which their reachabilities record, as
/// doors are taken open).
pub fn teleporters(level: &Level) -> Vec<Teleporter> {
    level
        .triggers
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t.kind {
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
        .collect()
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
    /// Its push volumes (`trigger_push`).
    pub pushes: Vec<crate::physics::push::Push>,
    /// Each plat, door and secret door at its other end (a plat up — or low when it waits
    /// high —, a door closed), and each train at each of its stops but the first: the
    /// worlds of the areas that are there only then ([`super::Area::moved`] is an index
    /// into this list, as are the mesh's [`super::NavMesh::positions`]). The collision
    /// maps share their static brushes.
    pub moved: Vec<Moved>,
}

/// One mover somewhere else than where navigation assumes it (a door with the doors linked
/// to it).
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
    /// A train's stop there (index into the level's path corners).
    pub corner: Option<usize>,
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
        let teleports = teleporters(level);
        let pushes = crate::physics::push::pushes(level);
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
                    corner: None,
                })
            })
            .collect::<Vec<_>>();
        // Trains at each stop but the first (where navigation has them), each place once.
        let mut moved = moved;
        for (index, m) in level.movers.iter().enumerate() {
            let stops = MoverState::train_stops(m, &level.path_corners);
            let Some(&(_, first)) = stops.first() else {
                continue;
            };
            let mut seen = vec![first];
            for &(corner, offset) in &stops[1..] {
                if seen.iter().any(|o| (*o - offset).length() < 0.01) {
                    continue;
                }
                seen.push(offset);
                let mut c = cmap.clone();
                c.set_mover_offset(m.id, offset);
                moved.push(Moved {
                    id: m.id.0,
                    index,
                    offset,
                    group: vec![index],
                    cmap: c,
                    corner: Some(corner),
                });
            }
        }
        NavWorld {
            level,
            cmap,
            teleports,
            pushes,
            moved,
        }
    }

    /// The collision world of areas that need the mover position `moved` (an index into
    /// [`NavWorld::moved`]; `None`: the world as navigation assumes it).
    pub fn cmap_for(&self, moved: Option<u32>) -> &CollisionMap {
        moved
            .and_then(|i| self.moved.get(i as usize))
            .map_or(&self.cmap, |m| &m.cmap)
    }

    /// The mover positions, as the mesh stores them.
    pub fn positions(&self) -> Vec<super::MoverPosition> {
        self.moved
            .iter()
            .map(|m| super::MoverPosition {
                mover: m.id,
                offset: m.offset,
                corner: m.corner.map(|c| c as u32),
            })
            .collect()
    }

    /// The door or secret door whose shut place a player standing at `origin` would be in
    /// (its box overlaps the mover's bounds where the map has it, by more than a hair): a
    /// doorway, which navigation takes open. Its id.
    pub fn doorway_at(&self, origin: Vec3) -> Option<u32> {
        const HAIR: f32 = 0.5;
        let (lo, hi) = (origin + PLAYER_MINS, origin + PLAYER_MAXS);
        self.level
            .movers
            .iter()
            .find(|m| {
                matches!(
                    m.kind,
                    MoverKind::Door { .. } | MoverKind::SecretDoor { .. }
                ) && (lo + HAIR).cmplt(m.maxs).all()
                    && (hi - HAIR).cmpgt(m.mins).all()
            })
            .map(|m| m.id.0)
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
