//! World views: what the bot stages read of the world's buttons, plats, teleporters,
//! doorways, moving floors and shootable things, each gathered from the level and the
//! movers' state once a tick ([`buttons`], [`lifts`], [`teleporters`], [`doorways`],
//! [`moving_floors`], [`shootables`]).

use glam::Vec3;

use super::visits::VisitMap;
use crate::map::level::Level;
use crate::map::{CollisionMap, Contents, EntId, Trace};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, STEP_SIZE};

/// A button as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct ButtonView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces.
    pub id: EntId,
    /// Centre of its box where it stands now.
    pub centre: Vec3,
    /// Out and ready to be pressed (it fires its targets when pressed).
    pub ready: bool,
    /// The way it moves when pressed (unit length; zero for a button that does not move):
    /// a player presses it by touching the face on the other side.
    pub push: Vec3,
    /// Half its box's depth along `push`.
    pub depth: f32,
    /// Has health: pressed by a shot, not by touch (walked up to until the gun sees it,
    /// [`Explorer::secret_door`] shoots it).
    pub shot: bool,
}

impl ButtonView {
    /// Where a player's origin stands in front of it on the floor (for routing there):
    /// [`ButtonView::front`] at the button's height, dropped to the floor below. `None`
    /// where there is no such point (a button pressed from above, one inside a wall).
    pub(super) fn stand_point(&self, map: &CollisionMap, me: Option<EntId>) -> Option<Vec3> {
        let p = self.front(self.centre.z)?;
        let t = map.trace(
            p,
            p - Vec3::new(0.0, 0.0, BUTTON_FLOOR_BELOW),
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            me,
        );
        (!t.start_solid && t.fraction < 1.0).then_some(t.end_pos)
    }

    /// Where a player stands to press it by walking along `push`: in front of the face
    /// pressed, a box's half width and a little more out, at `z`. `None` for a button
    /// pressed from above or below (one stands on it) or one that does not move.
    pub(super) fn front(&self, z: f32) -> Option<Vec3> {
        if self.push.z.abs() > STEEP_PUSH || self.push == Vec3::ZERO {
            return None;
        }
        let flat = self.push.truncate().normalize_or_zero().extend(0.0);
        let p = self.centre - flat * (self.depth + BUTTON_FRONT);
        Some(Vec3::new(p.x, p.y, z))
    }
}

/// The buttons that fire something (for explorers, who press what they see, or walk up to
/// one with health until they can shoot it).
pub fn buttons(sim: &crate::sim::Sim) -> Vec<ButtonView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m.kind, MoverKind::Button { .. }) && m.target.is_some())
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let MoverKind::Button { pressed, shot } = m.kind else {
                return None;
            };
            let push = pressed.normalize_or_zero();
            Some(ButtonView {
                index,
                id: m.id,
                centre: (m.mins + m.maxs) * 0.5 + st.offset,
                ready: st.phase == Phase::AtA,
                push,
                depth: ((m.maxs - m.mins) * 0.5).dot(push.abs()),
                shot,
            })
        })
        .collect()
}

/// A plat as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct LiftView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces (what a rider stands on).
    pub id: EntId,
    /// The middle of its top where it stands now.
    pub top: Vec3,
    /// The middle of its top when up.
    pub high_top: Vec3,
    /// Down and waiting for a rider.
    pub waiting: bool,
    /// Up.
    pub up: bool,
    /// Half its size across (x, y; z 0).
    pub half: Vec3,
}

impl LiftView {
    /// Where a player standing on the middle of its top now has its origin.
    pub fn rider(&self) -> Vec3 {
        self.top + Vec3::new(0.0, 0.0, -PLAYER_MINS.z)
    }

    /// Whether a player at `origin` over the plat touches its field, with 2 units to
    /// spare: the plat's top inset by 25 units from its sides, or its middle line where it
    /// is 50 or less across (plats.qc), met by the player's box (16 each way).
    pub fn in_field(&self, origin: Vec3) -> bool {
        let off = (origin - self.top).abs();
        let reach = |half: f32| (half - 25.0 + 16.0 - 2.0).max(14.0);
        off.x < reach(self.half.x) && off.y < reach(self.half.y)
    }
}

/// The plats that wait down for riders (for explorers, who ride what they see). A named
/// plat waits up until something fires it and then works as any other (plats.qc), so it is
/// one of them once down.
pub fn lifts(sim: &crate::sim::Sim) -> Vec<LiftView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m.kind, MoverKind::Plat { .. }))
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let high_top = Vec3::new(
                (m.mins.x + m.maxs.x) * 0.5,
                (m.mins.y + m.maxs.y) * 0.5,
                m.maxs.z,
            );
            Some(LiftView {
                index,
                id: m.id,
                top: high_top + st.offset,
                high_top,
                waiting: st.phase == Phase::AtA,
                up: st.phase == Phase::AtB,
                half: ((m.maxs - m.mins) * 0.5).with_z(0.0),
            })
        })
        .collect()
}

/// A working teleporter as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct TeleporterView {
    /// Index in the level's triggers.
    pub index: usize,
    /// Centre of its volume.
    pub centre: Vec3,
    /// Where it sends a player.
    pub dest: Vec3,
    /// The way a player faces on arrival (degrees).
    pub yaw: f32,
    /// Where a player touches it and no other teleporter, where another lies so close that
    /// a player walking in from the wrong side touches that one first (a pair of thin
    /// triggers, one for each way): a horizontal direction out of the volume and the point
    /// to walk to from that side, a player's box there overlapping this trigger's face
    /// alone. `None`: any side does.
    pub entry: Option<(Vec3, Vec3)>,
    /// Its volume's lower corner.
    pub mins: Vec3,
    /// Its volume's upper corner.
    pub maxs: Vec3,
}

impl TeleporterView {
    /// Whether the team has been where it sends a player ([`stood_where_it_leads`]).
    pub fn leads_where_known(&self, visits: &VisitMap) -> bool {
        stood_where_it_leads(visits, self.dest, self.yaw)
    }

    /// The point an explorer at `from` walks to, to step in (at its own height): the
    /// entry point where the teleporter has one, else the centre.
    pub fn walk_point(&self, from: Vec3) -> Vec3 {
        let p = self.entry.map_or(self.centre, |e| e.1);
        Vec3::new(p.x, p.y, from.z)
    }
}

/// The teleporters that work now (for explorers, who step into those they see).
pub fn teleporters(sim: &crate::sim::Sim) -> Vec<TeleporterView> {
    use crate::map::level::TriggerKind;
    let level = &sim.level;
    let boxes: Vec<(usize, Vec3, Vec3)> = level
        .triggers
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            sim.triggers[*i].active && matches!(t.kind, TriggerKind::Teleport { dest: Some(_) })
        })
        .map(|(i, t)| (i, t.mins, t.maxs))
        .collect();
    level
        .triggers
        .iter()
        .enumerate()
        .filter(|(i, _)| sim.triggers[*i].active)
        .filter_map(|(index, t)| match t.kind {
            TriggerKind::Teleport { dest: Some(d) } => Some(TeleporterView {
                index,
                centre: (t.mins + t.maxs) * 0.5,
                dest: level.teleport_dests[d].origin,
                yaw: level.teleport_dests[d].yaw,
                entry: entry_side(index, t.mins, t.maxs, &boxes),
                mins: t.mins,
                maxs: t.maxs,
            }),
            _ => None,
        })
        .collect()
}

/// A closed door that opens when a player comes near, as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct DoorwayView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces.
    pub id: EntId,
    /// Centre of its box where the map has it (closed): the opening.
    pub centre: Vec3,
    /// Player origins on the floor just beyond each face across its thin side: where a
    /// player who walks through it stands after.
    pub sides: [Vec3; 2],
    /// Open (moved out of the way, for good or for a while), not closed.
    pub open: bool,
}

/// The closed doors that open when a player comes near (for explorers, who walk into those
/// they see: their feel for the way on stops at a closed door as at a wall), and the doors
/// in a wall (at most [`DOORWAY_THICK`] thick) that stand open now, whatever opened them
/// (a button somewhere fired a secret door: the opening is a way on nobody has taken).
/// Closed doors that start open, need a key or open only when triggered or shot are not
/// among them, nor slabs lower than a player.
pub fn doorways(sim: &crate::sim::Sim) -> Vec<DoorwayView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter_map(|(index, m)| {
            let (touch, door) = match m.kind {
                MoverKind::Door {
                    touch_opens,
                    start_open: false,
                    locked,
                    ..
                } => (touch_opens && !locked, true),
                MoverKind::SecretDoor { .. } => (false, true),
                _ => (false, false),
            };
            if !door {
                return None;
            }
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let open = st.phase == Phase::AtB;
            let centre = (m.mins + m.maxs) * 0.5;
            let half = (m.maxs - m.mins) * 0.5;
            if !(touch && st.phase == Phase::AtA
                || open && 2.0 * half.x.min(half.y) <= DOORWAY_THICK)
            {
                return None;
            }
            // A doorway stands at least as tall as a player: a low slab (sliding floors and
            // steps) is walked over or along, not through.
            if 2.0 * half.z < PLAYER_MAXS.z - PLAYER_MINS.z {
                return None;
            }
            // Walked through across its thinner horizontal side, from floor level (the
            // door's foot; a player's origin stands 24 units above the floor).
            let across = if half.x <= half.y { Vec3::X } else { Vec3::Y };
            let reach = half.dot(across) + DOORWAY_BEYOND;
            let foot = Vec3::new(centre.x, centre.y, m.mins.z - PLAYER_MINS.z);
            Some(DoorwayView {
                index,
                id: m.id,
                centre,
                sides: [foot - across * reach, foot + across * reach],
                open,
            })
        })
        .collect()
}

/// A door that is a floor (a slab lower than a player, wide enough to stand on: it slides
/// or sinks away from under whoever is on it) as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct FloorView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id (what a player standing on it has for ground).
    pub id: EntId,
    /// Its box where the map has it (closed: the floor is there).
    pub home: (Vec3, Vec3),
    /// Closed now (at rest where the map has it).
    pub home_now: bool,
}

impl FloorView {
    /// Whether a player standing at `p` (an origin) stands on its top where the map has it.
    pub fn under(&self, p: Vec3) -> bool {
        let (lo, hi) = self.home;
        p.x >= lo.x
            && p.x <= hi.x
            && p.y >= lo.y
            && p.y <= hi.y
            && (p.z + PLAYER_MINS.z - hi.z).abs() <= STEP_SIZE
    }
}

/// Whether a mover is a door whose closed box is a floor a player stands on
/// ([`FloorView`]): lower than a player and at least a player's width both ways, fired by
/// something (one that opens as a player comes near stays open while one waits by it) and
/// coming back on its own (`wait` not -1, not a toggle door: a trap floor that stays open
/// until fired again is not waited for). Such a floor over a pit may slide away when a
/// pressure plate before it or a trigger over it fires it; a player already on it is
/// carried against the wall, which stops it, and crosses.
pub fn floor_door(m: &crate::map::level::MoverDef) -> bool {
    use crate::map::level::MoverKind;
    let size = m.maxs - m.mins;
    let wide = PLAYER_MAXS.x - PLAYER_MINS.x;
    matches!(
        m.kind,
        MoverKind::Door {
            start_open: false,
            touch_opens: false,
            toggle: false,
            ..
        }
    ) && m.wait >= 0.0
        && size.z < PLAYER_MAXS.z - PLAYER_MINS.z
        && size.x >= wide
        && size.y >= wide
}

/// The level's [`floor_door`]s as explorers see them this tick.
pub fn moving_floors(sim: &crate::sim::Sim) -> Vec<FloorView> {
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| floor_door(m))
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            Some(FloorView {
                index,
                id: m.id,
                home: (m.mins, m.maxs),
                home_now: st.phase == Phase::AtA && st.offset == Vec3::ZERO,
            })
        })
        .collect()
}

/// A shootable mover (a secret door, a door, button or trigger with health) as explorers
/// and route bots see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct ShootableView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces.
    pub id: crate::map::EntId,
    /// Centre of its box where it stands now.
    pub centre: Vec3,
    /// Centre of its box when closed: the opening a player goes through.
    pub home_centre: Vec3,
    /// Its box when closed (minimum, maximum corner).
    pub home: (Vec3, Vec3),
    /// Closed (at home, so a shot opens it).
    pub closed: bool,
    /// Fully open (waiting before it closes).
    pub open: bool,
    /// A door (secret, or with health) that opens a way: a button or trigger with health is
    /// only shot, and nobody walks into it or waits for it on the way.
    pub opening: bool,
}

impl ShootableView {
    /// Whether a player at `origin` can walk into the door's opening once it is open. A
    /// hatch (a door thinner than a player is tall: in a floor) is dropped through from
    /// above, from anywhere. A door in a wall is walked through on the floor under its
    /// opening (found with the door out of the way: its brushes may reach into the floor):
    /// from that floor ([`DOOR_LEVEL`]), or from anywhere where the floor in front of it on
    /// the player's side ([`DOOR_FRONT`] out from its face) is that floor too — a player
    /// gets there by some way. A door high over the hall in front of it, its foot reached
    /// only along a narrow ledge, seen from a balcony above and from the hall below, drew
    /// every explorer there, which shot it, walked at it off the balcony into the hall and
    /// stood below it.
    pub fn walked_through_from(&self, map: &CollisionMap, origin: Vec3) -> bool {
        let Some(floor) = self.opening_floor(map) else {
            return true;
        };
        if (origin.z - floor).abs() <= DOOR_LEVEL {
            return true;
        }
        let (out, half) = self.out_toward(origin);
        let down = self.down_beside(
            map,
            out * (half + PLAYER_MAXS.x + DOOR_FRONT),
            floor,
            DOOR_FLOOR_BELOW,
        );
        down.start_solid || (down.fraction < 1.0 && (down.end_pos.z - floor).abs() <= DOOR_LEVEL)
    }

    /// A player's box swept `depth` down from [`DOOR_LEVEL`] over the opening's `floor`, at
    /// `off` from the door's middle across the floor, the door out of the way.
    pub(super) fn down_beside(
        &self,
        map: &CollisionMap,
        off: Vec3,
        floor: f32,
        depth: f32,
    ) -> Trace {
        let at = self.home_centre + off;
        let top = Vec3::new(at.x, at.y, floor + DOOR_LEVEL);
        map.trace(
            top,
            top - Vec3::new(0.0, 0.0, depth),
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            Some(self.id),
        )
    }

    /// A standing origin on the floor of the door's opening (found with the door out of
    /// the way: its brushes may reach into the floor); `None` for a hatch (a door thinner
    /// than a player is tall: in a floor) or where no floor is found under its middle
    /// (inside a wall).
    pub(super) fn opening_floor(&self, map: &CollisionMap) -> Option<f32> {
        let (lo, hi) = self.home;
        if hi.z - lo.z < PLAYER_MAXS.z - PLAYER_MINS.z {
            return None;
        }
        // A line, not a player's box: most doors are thinner than a player, and a box at
        // the door's middle would stand in the wall beside it.
        let c = self.home_centre;
        let t = map.trace_ray(
            c,
            Vec3::new(c.x, c.y, lo.z - PLAYER_MAXS.z),
            Contents::SOLID,
            Some(self.id),
        );
        (!t.start_solid && t.fraction < 1.0).then_some(t.end_pos.z - PLAYER_MINS.z)
    }

    /// The way out of the door's face on `origin`'s side (across its thin side, a unit
    /// vector) and the face's distance from its middle (half its thickness).
    pub(super) fn out_toward(&self, origin: Vec3) -> (Vec3, f32) {
        let (lo, hi) = self.home;
        let half = (hi - lo) * 0.5;
        let across = if half.x <= half.y { Vec3::X } else { Vec3::Y };
        let side = if (origin - self.home_centre).dot(across) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        (across * side, half.dot(across))
    }

    /// Whether the team has been beyond the door from `origin`'s side (in the visit cell
    /// [`DOOR_FRONT`] past its far face, on its opening's floor): a room entered through a
    /// door may be left by a teleporter to where the door is seen from, and the door shuts
    /// again.
    pub fn leads_where_known(&self, map: &CollisionMap, visits: &VisitMap, origin: Vec3) -> bool {
        let Some(floor) = self.opening_floor(map) else {
            return false;
        };
        let (out, half) = self.out_toward(origin);
        let beyond = self.home_centre - out * (half + PLAYER_MAXS.x + DOOR_FRONT);
        visits.visits(Vec3::new(beyond.x, beyond.y, floor)) > 0
    }

    /// Where a player stands on the floor of a wall door's opening right in front of its
    /// face on `origin`'s side ([`DOOR_GAP`] off it): the place it is shot from and walked
    /// into from. `None` for a hatch, where no floor is found under the opening, or where
    /// the floor there is not the opening's ([`DOOR_LEVEL`]).
    pub fn front_stand(&self, map: &CollisionMap, origin: Vec3) -> Option<Vec3> {
        let (out, half) = self.out_toward(origin);
        self.stand_off(map, out, half)
    }

    /// As [`ShootableView::front_stand`], past its other face: where a player who walked
    /// through from `origin`'s side stands.
    pub fn beyond_stand(&self, map: &CollisionMap, origin: Vec3) -> Option<Vec3> {
        let (out, half) = self.out_toward(origin);
        self.stand_off(map, -out, half)
    }

    /// A standing origin on the opening's floor [`DOOR_GAP`] off the face `out` of the
    /// door's middle (`half` its thickness).
    pub(super) fn stand_off(&self, map: &CollisionMap, out: Vec3, half: f32) -> Option<Vec3> {
        let floor = self.opening_floor(map)?;
        let off = out * (half + PLAYER_MAXS.x + DOOR_GAP);
        let down = self.down_beside(map, off, floor, 2.0 * DOOR_LEVEL);
        (!down.start_solid && down.fraction < 1.0 && (down.end_pos.z - floor).abs() <= DOOR_LEVEL)
            .then_some(down.end_pos)
    }
}

/// The shootable movers and where they stand (for explorers and route bots, who shoot
/// them: doors to open them, buttons and triggers to fire them).
pub fn shootables(sim: &crate::sim::Sim) -> Vec<ShootableView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| m.kind.is_shootable())
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let home_centre = (m.mins + m.maxs) * 0.5;
            Some(ShootableView {
                index,
                id: m.id,
                centre: home_centre + st.offset,
                home_centre,
                home: (m.mins, m.maxs),
                closed: st.phase == Phase::AtA,
                open: st.phase == Phase::AtB,
                opening: matches!(
                    m.kind,
                    MoverKind::SecretDoor { .. } | MoverKind::Door { .. }
                ),
            })
        })
        .collect()
}

/// How near a walk chosen by [`choose_target`] comes to a teleporter's volume at most
/// (its player box, across the floor), unless it starts nearer: a walk brushing past one
/// is taken by it (a player turning away from a wall still drifts on toward it).
pub(super) const TELEPORTER_BERTH: f32 = 16.0;

/// The volumes of the level's teleporters that lead where the team has stood (at the
/// destination or where an arrival comes down, [`stood_where_it_leads`]).
pub fn teleporter_boxes(level: &Level, visits: &VisitMap) -> Vec<(Vec3, Vec3)> {
    use crate::map::level::TriggerKind;
    level
        .triggers
        .iter()
        .filter(|t| match t.kind {
            TriggerKind::Teleport { dest: Some(d) } => {
                let d = &level.teleport_dests[d];
                stood_where_it_leads(visits, d.origin, d.yaw)
            }
            _ => false,
        })
        .map(|t| (t.mins, t.maxs))
        .collect()
}

/// Whether the team has stood where a teleporter to `dest`, facing `yaw` (degrees), sends a
/// player: at the destination, or where an arrival comes down. A teleporter sends players
/// on at 300 units/s the way the destination faces, and visits count only standing: an
/// arrival comes down [`ARRIVAL_RUN`] on, often in the next cell, and nobody stands in its
/// destination's own, so every explorer took such a teleporter twice for somewhere new.
pub fn stood_where_it_leads(visits: &VisitMap, dest: Vec3, yaw: f32) -> bool {
    let (sin, cos) = yaw.to_radians().sin_cos();
    let on = dest + Vec3::new(cos, sin, 0.0) * ARRIVAL_RUN;
    visits.visits(dest) > 0 || visits.visits(on) > 0
}

/// Whether a player walking straight from `from` to `to` comes nearer a teleporter of
/// `boxes` than [`TELEPORTER_BERTH`] (or than it starts, where it starts nearer): walks are
/// felt for where they lead, and one that leads where the team has been sends a player back
/// there (a teleporter back may stand beside the arrival, and explorers that walked along
/// its face were sent back before seeing what lay beyond; nobody went again, the arrival
/// being known). Teleporters to places nobody has stood at are left out
/// ([`teleporter_boxes`]): brushing one is a way somewhere new (in a hall of teleporters,
/// kept off them all, explorers marked every item on half as many runs).
pub fn nears_teleporter(boxes: &[(Vec3, Vec3)], from: Vec3, to: Vec3) -> bool {
    // The gap across the floor between the player's box at `p` and the volume (at
    // heights where they overlap, a step's play either way for stairs walked).
    let gap = |p: Vec3, (lo, hi): (Vec3, Vec3)| -> Option<f32> {
        let (bl, bh) = (p + PLAYER_MINS, p + PLAYER_MAXS);
        if bl.z >= hi.z + STEP_SIZE || bh.z <= lo.z - STEP_SIZE {
            return None;
        }
        let dx = (lo.x - bh.x).max(bl.x - hi.x).max(0.0);
        let dy = (lo.y - bh.y).max(bl.y - hi.y).max(0.0);
        Some(dx.hypot(dy))
    };
    let steps = ((to - from).length() / 8.0).ceil().max(1.0) as usize;
    boxes.iter().any(|&b| {
        let near = gap(from, b).map_or(TELEPORTER_BERTH, |g| g.min(TELEPORTER_BERTH));
        (1..=steps)
            .any(|k| gap(from.lerp(to, k as f32 / steps as f32), b).is_some_and(|g| g < near))
    })
}

/// How far on from a teleporter's destination an arrival comes down, about (sent on at 300
/// units/s, an arrival stands again about 90 units on).
pub(super) const ARRIVAL_RUN: f32 = 96.0;

/// How far a player's box reaches into a teleporter's face at its entry point.
pub(super) const ENTRY_OVERLAP: f32 = 2.0;

/// The teleporter a player walking in a straight line from `from` to `to` touches first,
/// if any (the path sampled every 4 units): from the wrong side of a teleporter beside
/// another, the other one.
pub fn touched_first(teleporters: &[TeleporterView], from: Vec3, to: Vec3) -> Option<usize> {
    let steps = ((to - from).length() / 4.0).ceil().max(1.0) as usize;
    (0..=steps).find_map(|k| {
        let p = from.lerp(to, k as f32 / steps as f32);
        teleporters
            .iter()
            .find(|t| {
                crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, t.mins, t.maxs)
            })
            .map(|t| t.index)
    })
}

/// The side a teleporter (trigger `index`, its box) is entered from, where a player's box
/// at the middle of one of its four vertical faces, just overlapping it, would touch
/// another of the `boxes` too (see [`TeleporterView::entry`]): the first face, in the
/// order +x, −x, +y, −y, where the box touches this one alone. `None` where every face
/// touches it alone, or none does.
pub(super) fn entry_side(
    index: usize,
    mins: Vec3,
    maxs: Vec3,
    boxes: &[(usize, Vec3, Vec3)],
) -> Option<(Vec3, Vec3)> {
    let centre = (mins + maxs) * 0.5;
    let half = PLAYER_MAXS.x;
    let faces = [
        (
            Vec3::X,
            Vec3::new(maxs.x + half - ENTRY_OVERLAP, centre.y, centre.z),
        ),
        (
            Vec3::NEG_X,
            Vec3::new(mins.x - half + ENTRY_OVERLAP, centre.y, centre.z),
        ),
        (
            Vec3::Y,
            Vec3::new(centre.x, maxs.y + half - ENTRY_OVERLAP, centre.z),
        ),
        (
            Vec3::NEG_Y,
            Vec3::new(centre.x, mins.y - half + ENTRY_OVERLAP, centre.z),
        ),
    ];
    let alone = |p: Vec3| {
        !boxes.iter().any(|&(i, lo, hi)| {
            i != index && crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, lo, hi)
        })
    };
    let clean: Vec<bool> = faces.iter().map(|f| alone(f.1)).collect();
    if clean.iter().all(|c| *c) {
        return None;
    }
    faces.iter().zip(&clean).find(|(_, c)| **c).map(|(f, _)| *f)
}

/// How far in front of a button's face (beyond a player's half width) an explorer stands
/// before running into it: close enough that nothing comes between.
pub const BUTTON_FRONT: f32 = 24.0;

/// How far below a button's centre the floor in front of it is looked for.
pub(super) const BUTTON_FLOOR_BELOW: f32 = 128.0;

/// How far past a door's face (flat) a bot walking through it heads.
pub(super) const DOORWAY_BEYOND: f32 = 48.0;

/// The thickest open door that explorers take for a doorway in a wall (a slab that sinks
/// into a pool as a lift is no doorway).
pub(super) const DOORWAY_THICK: f32 = 64.0;

/// How far above or below the floor of a door's opening (a standing origin there) a floor
/// counts as that floor ([`ShootableView::walked_through_from`]).
pub(super) const DOOR_LEVEL: f32 = 32.0;

/// How far out from a door's face its floor in front is looked for
/// ([`ShootableView::walked_through_from`]).
pub(super) const DOOR_FRONT: f32 = 48.0;

/// How far off a door's face a player stands in front of it ([`ShootableView::front_stand`]):
/// a box touching a wall reads as inside it.
pub const DOOR_GAP: f32 = 4.0;

/// A button whose push is steeper than this (its z share) is pressed from above or below.
const STEEP_PUSH: f32 = 0.7;

/// How far below a door's floor (units) the floor in front of it is felt for.
const DOOR_FLOOR_BELOW: f32 = 1024.0;
