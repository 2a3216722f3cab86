//! Door openers: for each door a route may need open, what opens it (a button to press, a
//! plate to stand on or a ceiling button to jump at, a trigger to walk into, a face to
//! shoot) and where a player stands to fire it. Read when
//! [`super::CompiledNav`] is made; the follower walks to the opener a shut door needs.
//! Entry points: [`Opener`], [`firing_triggers`], [`fired_by_anything`].

use glam::{Vec2, Vec3};

use crate::aas::NavMesh;
use crate::map::{CollisionMap, EntId};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams};

/// What fires a door that does not open by approach (its targetname is the opener's
/// target): a button pressed by walking into its face, a floor plate stood on, a ceiling
/// button jumped into, a trigger walked into, or a button or trigger with health, which a
/// shot fires.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opener {
    /// A button (mover index): the point in front of its face a player stands on to press
    /// it, and the button's centre it runs at.
    Button {
        /// Mover index.
        index: usize,
        /// Where a player stands to press it (its face's front, on the floor below).
        front: Vec3,
        /// The centre of its box.
        centre: Vec3,
    },
    /// A trigger (index into the level's triggers): a standing point inside it.
    Touch {
        /// Trigger index.
        index: usize,
        /// A standing point in its box.
        at: Vec3,
    },
    /// A button pushed down or up (mover index): pressed by standing on it (a floor
    /// plate), or by jumping into it from the floor below (a ceiling button).
    Plate {
        /// Mover index.
        index: usize,
        /// Where a player stands: on the plate, or under the ceiling button.
        at: Vec3,
        /// Whether the player jumps there (a ceiling button).
        jump: bool,
    },
    /// A button or trigger with health (mover index): shot at its centre.
    Shot {
        /// Mover index.
        index: usize,
        /// The centre of its box.
        centre: Vec3,
        /// A standing point out from its face, where it is shot from.
        place: Vec3,
    },
}

/// A door a reachability needs open that does not open when a player comes near (a secret
/// door, a door opened by a button or trigger): by mover index, its open offset, the
/// reachabilities through it, and what fires it.
#[derive(Clone, Debug)]
pub(super) struct NeededDoor {
    pub(super) mover: usize,
    pub(super) open: Vec3,
    pub(super) reaches: Vec<u32>,
    pub(super) openers: Vec<Opener>,
}

/// What fires door `mover` (its targetname is their target), with where a player goes to
/// fire each: buttons and triggers with that target whose place is on a floor of `mesh`
/// (a trigger's standing point nearest its centre; a button's front, its face's way out a
/// box's half width and more, on the floor below it; for one pushed down or up, a point
/// standing on it or jumping into it, [`plate_place`]; for one with health, the nearest
/// standing point `cmap` shows it from, [`shot_place`]); and for a door that opens as a
/// player comes near, a standing point in its trigger field ([`door_fields`]).
pub(super) fn openers(
    mesh: &NavMesh,
    cmap: &CollisionMap,
    level: &crate::map::Level,
    mover: usize,
) -> Vec<Opener> {
    use crate::map::level::MoverKind;
    let names = group_names(level, mover);
    let fires_group = |target: Option<&str>| target.is_some_and(|t| names.contains(&t));
    let mut out = Vec::new();
    for (index, m) in level.movers.iter().enumerate() {
        if !fires_group(m.target.as_deref()) {
            continue;
        }
        let centre = (m.mins + m.maxs) * 0.5;
        match m.kind {
            MoverKind::Button { shot: true, .. } | MoverKind::ShotTrigger => {
                if let Some(place) = shot_place(mesh, cmap, m.id, centre) {
                    out.push(Opener::Shot {
                        index,
                        centre,
                        place,
                    });
                }
            }
            MoverKind::Button { pressed, .. } => {
                let push = pressed.normalize_or_zero();
                if push.z.abs() > 0.7 {
                    if let Some((at, jump)) = plate_place(mesh, m.mins, m.maxs, push.z < 0.0) {
                        out.push(Opener::Plate { index, at, jump });
                    }
                    continue;
                }
                if push == Vec3::ZERO {
                    continue;
                }
                let depth = ((m.maxs - m.mins) * 0.5).dot(push.abs());
                let flat = push.truncate().normalize_or_zero().extend(0.0);
                let out_front = centre - flat * (depth + crate::bot::explore::BUTTON_FRONT);
                if let Some((front, _)) = mesh.area_under(out_front) {
                    let z = mesh.area_at(front).map_or(front.z, |a| {
                        mesh.areas()[a as usize].floor_z(front.truncate())
                    });
                    out.push(Opener::Button {
                        index,
                        front: front.truncate().extend(z),
                        centre,
                    });
                }
            }
            _ => {}
        }
    }
    // A door that opens when a player comes near: its trigger field walked into.
    for index in door_fields(level, mover) {
        let t = &level.triggers[index];
        if let Some(at) = touch_point(mesh, t.mins, t.maxs) {
            out.push(Opener::Touch { index, at });
        }
    }
    for index in firing_triggers(level, mover) {
        let t = &level.triggers[index];
        if let Some(at) = touch_point(mesh, t.mins, t.maxs) {
            out.push(Opener::Touch { index, at });
        }
    }
    out
}

/// The triggers (indices into the level's triggers) that fire door `mover` (a mover index)
/// when a player touches them: `trigger_multiple` and `trigger_once` that nothing else
/// fires, whose target names the door or a door linked with it — wherever they are (one
/// passed through riding a plat fires the door on the way).
pub fn firing_triggers(level: &crate::map::Level, mover: usize) -> Vec<usize> {
    use crate::map::level::TriggerKind;
    let names = group_names(level, mover);
    (level.triggers.iter().enumerate())
        .filter(|(_, t)| {
            matches!(t.kind, TriggerKind::Multiple { .. } | TriggerKind::Once)
                && t.targetname.is_none()
                && t.target.as_deref().is_some_and(|n| names.contains(&n))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Where a player stands to press a button that moves down or up (its box `mins`..`maxs`):
/// for one pushed `down` (a floor plate), a standing point whose box rests on it; else one
/// from which a jump brings the player's head into it (a ceiling button), with `true` for
/// the jump ([`touch_point`] over the box grown down by a jump's rise).
pub(super) fn plate_place(
    mesh: &NavMesh,
    mins: Vec3,
    maxs: Vec3,
    down: bool,
) -> Option<(Vec3, bool)> {
    if down {
        // Standing on it, the box's bottom is level with its top.
        return touch_point(mesh, mins, maxs + Vec3::Z).map(|at| (at, false));
    }
    let rise = crate::physics::pmove::JUMP_SPEED.powi(2) / (2.0 * PhysicsParams::default().gravity);
    touch_point(mesh, mins - Vec3::Z * (rise - 1.0), maxs).map(|at| (at, true))
}

/// The trigger fields (indices into the level's triggers) that open door `mover` (a mover
/// index) when a player comes near: the field its linked group spawns (Quake's
/// `spawn_field`, the group's box grown by 60 units across).
pub fn door_fields(level: &crate::map::Level, mover: usize) -> Vec<usize> {
    use crate::map::level::TriggerKind;
    let group = &level.movers[mover].linked;
    (level.triggers.iter().enumerate())
        .filter(|(_, t)| {
            matches!(t.kind, TriggerKind::DoorField { mover: m } if m == mover || group.contains(&m))
        })
        .map(|(i, _)| i)
        .collect()
}

/// How far (units) from a button or trigger with health a bot looks for a place to shoot it
/// from.
pub(super) const SHOT_RANGE: f32 = 512.0;

/// Spacing (units) of the standing points tried as places to shoot from.
pub(super) const SHOT_STRIDE: f32 = 16.0;

/// Where a player stands to shoot the button or trigger `id` whose box's centre is
/// `centre`: the standing point nearest it, within [`SHOT_RANGE`], on an area's floor out
/// of the liquids, from which a ray at the height a bot shoots from ([`SHOT_HEIGHT`] over
/// the floor) hits it first. Points are tried about [`SHOT_STRIDE`] apart over each area's
/// box, nearest first, so the first seen is the answer. The floors may be a mover's at
/// another position (a bridge slid out): a trigger may be seen only from such a bridge.
pub(super) fn shot_place(
    mesh: &NavMesh,
    cmap: &CollisionMap,
    id: EntId,
    centre: Vec3,
) -> Option<Vec3> {
    // Points in the middles of strides across the area (one, in its middle, where it is
    // narrower than a stride): off its edges, where a bot on a narrow bridge falls off.
    let axis = |lo: f32, hi: f32| {
        let n = ((hi - lo) / SHOT_STRIDE).round().max(1.0);
        (0..n as u32).map(move |k| lo + (k as f32 + 0.5) * (hi - lo) / n)
    };
    let mut points: Vec<(f32, Vec3)> = Vec::new();
    for area in mesh.areas() {
        if area.is_swim() {
            continue;
        }
        let near = (centre
            .truncate()
            .clamp(area.mins.truncate(), area.maxs.truncate())
            - centre.truncate())
        .length();
        if near > SHOT_RANGE {
            continue;
        }
        for y in axis(area.mins.y, area.maxs.y) {
            for x in axis(area.mins.x, area.maxs.x) {
                let xy = Vec2::new(x, y);
                let p = xy.extend(area.floor_z(xy));
                let d = (p - centre).length();
                if d <= SHOT_RANGE && mesh.area_at(p) == Some(area.id) {
                    points.push((d, p));
                }
            }
        }
    }
    points.sort_by(|a, b| {
        (a.0.total_cmp(&b.0))
            .then(a.1.x.total_cmp(&b.1.x))
            .then(a.1.y.total_cmp(&b.1.y))
            .then(a.1.z.total_cmp(&b.1.z))
    });
    points.into_iter().map(|(_, p)| p).find(|&p| {
        cmap.trace_ray(
            p + Vec3::Z * SHOT_HEIGHT,
            centre,
            crate::map::Contents::SOLID,
            None,
        )
        .ent == Some(id)
    })
}

/// Height over the floor a bot's shot leaves from (its origin, 24 over the floor, and 16
/// more: where [`detour`] aims from).
pub(super) const SHOT_HEIGHT: f32 = 40.0;

/// The targetnames that fire door `mover` (a mover index): a door opens when any door
/// linked with it is fired (doors.qc `door_fire`); `linked` holds the door itself, and is
/// empty for a secret door (never linked).
pub(super) fn group_names(level: &crate::map::Level, mover: usize) -> Vec<&str> {
    std::iter::once(mover)
        .chain(level.movers[mover].linked.iter().copied())
        .filter_map(|j| level.movers[j].targetname.as_deref())
        .collect()
}

/// Whether something in `sim` can still fire door `mover` (a mover index), wherever it is
/// (one a player only passes through riding a plat has no standing point, so no
/// [`Opener`]): a button or door that targets it or a door linked with it, a trigger not
/// yet spent (a `trigger_once` that has fired) nor removed, or a relay not removed that
/// such a thing fires in turn. A door only a spent trigger led to (a firing waiting out a
/// relay's delay, or none) opens at no time a route can count on.
pub fn fired_by_anything(sim: &crate::sim::Sim, mover: usize) -> bool {
    fired_now(sim, &group_names(&sim.level, mover), 0)
}

/// Whether a live source fires any of `names`, following relays up to a few links back.
fn fired_now(sim: &crate::sim::Sim, names: &[&str], depth: u32) -> bool {
    let level = &sim.level;
    let fires = |target: &Option<String>| target.as_deref().is_some_and(|t| names.contains(&t));
    let live_trigger = |k: usize| sim.triggers.get(k).is_none_or(|t| !t.spent && !t.removed);
    let live_relay = |k: usize| sim.relays.get(k).is_none_or(|r| !r.removed);
    level.movers.iter().any(|m| fires(&m.target))
        || (level.triggers.iter().enumerate()).any(|(k, t)| fires(&t.target) && live_trigger(k))
        || (depth < 8
            && (level.relays.iter().enumerate()).any(|(k, r)| {
                fires(&r.target)
                    && live_relay(k)
                    && r.targetname
                        .as_deref()
                        .is_some_and(|n| fired_now(sim, &[n], depth + 1))
            }))
}

/// A standing point from which a player touches the trigger box `mins`..`maxs`: over a
/// cell whose centre is inside the box (or, for a box thinner than a cell, within a
/// player's half width of it), on an area's floor at a height where the player's box
/// overlaps the trigger's — the one nearest the box's centre. The floor may be a mover's
/// at another position (a trigger over a raised plat is touched riding it up).
pub(super) fn touch_point(mesh: &NavMesh, mins: Vec3, maxs: Vec3) -> Option<Vec3> {
    let centre = (mins + maxs) * 0.5;
    let f = &mesh.frame;
    let mut best: Option<(f32, Vec3)> = None;
    for grow in [0.0, PLAYER_MAXS.x] {
        let (lo, hi) = (
            mins.truncate() - Vec2::splat(grow),
            maxs.truncate() + Vec2::splat(grow),
        );
        let far = f.origin + Vec2::new(f.nx as f32, f.ny as f32) * f.cell - Vec2::splat(0.01);
        let (Some(c0), Some(c1)) = (
            f.cell_of(lo.clamp(f.origin, far)),
            f.cell_of(hi.clamp(f.origin, far)),
        ) else {
            continue;
        };
        for iy in c0.1..=c1.1 {
            for ix in c0.0..=c1.0 {
                let xy = f.center(ix, iy);
                if xy.cmplt(lo).any() || xy.cmpgt(hi).any() {
                    continue;
                }
                for &a in mesh.areas_in_cell(ix, iy) {
                    let area = &mesh.areas()[a as usize];
                    let z = area.floor_z(xy);
                    let p = xy.extend(z);
                    if p.z + PLAYER_MAXS.z <= mins.z || p.z + PLAYER_MINS.z >= maxs.z {
                        continue;
                    }
                    let d = (p - centre).length_squared();
                    if best.is_none_or(|b| d < b.0) {
                        best = Some((d, p));
                    }
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.map(|b| b.1)
}

impl Opener {
    /// Seconds from where a player stands to fire it ([`Opener::place`]) to the moment it
    /// fires its targets: for a button, the run from its front into its face and the
    /// button's travel in (it fires when pressed home), run through the mover code at `dt`;
    /// a trigger fires as it is walked into and a shot flies at once, so no time.
    pub fn fire_seconds(&self, level: &crate::map::Level, dt: f32) -> f32 {
        use crate::physics::movers::{MoverEvent, MoverState};
        let Opener::Button { index, .. } = *self else {
            return 0.0;
        };
        let def = &level.movers[index];
        let mut s = MoverState::spawn(def, &level.path_corners);
        let mut t = (crate::bot::explore::BUTTON_FRONT - PLAYER_MAXS.x).max(0.0)
            / PhysicsParams::default().max_speed;
        if s.use_mover(def) == Some(MoverEvent::ReachedB) {
            return t;
        }
        while t < 10.0 {
            let (next, event) = s.step(def, &level.path_corners, dt);
            s = next;
            t += dt;
            if event == Some(MoverEvent::ReachedB) {
                break;
            }
        }
        t
    }

    /// Where a player goes to fire it.
    pub fn place(&self) -> Vec3 {
        match *self {
            Opener::Button { front, .. } => front,
            Opener::Touch { at, .. } | Opener::Plate { at, .. } => at,
            Opener::Shot { place, .. } => place,
        }
    }
}
