//! Reachabilities that need movers: teleporters, plat rides and trains, what a reachability
//! needs of the movers on its way ([`needs`]), and the doors and plats it must find
//! where they were when it was measured.

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};

use crate::map::level::MoverKind;
use crate::physics::movers::MoverState;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, UserCmd};

use super::ctx::STEP_DROP;
use super::ctx::{Ctx, Job};
use super::replay::{
    Carrier, carry_state, cut, in_area, off_plat_trigger, on_plat_trigger, run_cmd, settle,
    simulate,
};
use crate::aas::mesh::{CmdRun, MoverNeed, NavMesh, Reach, ReachKind};
use crate::aas::world::NavWorld;

impl Ctx<'_> {
    pub(super) fn teleport(&self, from: u32, ticks: &mut u64) -> Option<Reach> {
        let start = self.start_in(from, self.mesh.areas()[from as usize].center.truncate())?;
        self.world.teleporter_at(start.origin)?;
        let idle = UserCmd {
            yaw: start.yaw,
            ..Default::default()
        };
        let commands = vec![CmdRun {
            ticks: self.max_ticks(3.0),
            cmd: idle,
        }];
        // Where it comes down is the target.
        let (arr, cmds) = self.run(start, commands, None, None, ticks)?;
        self.make((from, from, ReachKind::Teleport), &start, &arr, cmds)
    }

    /// Standing still where area `from` touches push `push` until the push has thrown the
    /// player and it comes down on the ground in another area, out of every push.
    pub(super) fn push(&self, from: u32, push: u32, ticks: &mut u64) -> Option<Reach> {
        let p = &self.world.pushes[push as usize];
        let area = &self.mesh.areas()[from as usize];
        let centre = ((p.mins + p.maxs) * 0.5).truncate();
        let xy = centre.clamp(area.mins.truncate(), area.maxs.truncate());
        let start = self.start_in(from, xy)?;
        crate::physics::push::push_at(std::slice::from_ref(p), start.origin)?;
        let commands = vec![CmdRun {
            ticks: self.max_ticks(4.0),
            cmd: UserCmd {
                yaw: start.yaw,
                ..Default::default()
            },
        }];
        let pushes = &self.world.pushes;
        let a = simulate(
            (self.world, self.cmap()),
            start,
            &commands,
            None,
            self.dt,
            |s, _| {
                s.on_ground.is_some()
                    && crate::physics::push::push_at(pushes, s.origin).is_none()
                    && self
                        .mesh
                        .area_at(s.origin)
                        .is_some_and(|l| l != from && in_area(self.mesh, s, l))
            },
            ticks,
        )?;
        let to = self.mesh.area_at(a.state.origin)?;
        let cmds = cut(&commands, a.ticks);
        self.make((from, to, ReachKind::JumpPad), &start, &a, cmds)
    }

    /// Standing on a plat or door while it moves to its other end (or back), until the
    /// player is in `to`, the area on it there.
    pub(super) fn carry(
        &self,
        from: u32,
        to: u32,
        mover: usize,
        leg: Option<(usize, usize)>,
        ticks: &mut u64,
    ) -> Option<Reach> {
        let (fa, ta) = (
            &self.mesh.areas()[from as usize],
            &self.mesh.areas()[to as usize],
        );
        let def = &self.world.level.movers[mover];
        let (st, start_xy, distance) = match leg {
            Some((c0, c1)) => {
                // A train from one stop to the next: standing at the from area's middle.
                let corners = &self.world.level.path_corners;
                let st = MoverState::train_travelling(def, corners, c0, c1);
                let d = (corners[c1].origin - corners[c0].origin).length();
                (st, fa.center.truncate(), d)
            }
            None => {
                let st = carry_state(self.world, mover, ta.moved.is_some())?;
                // Over where the two areas overlap, nearest the middle of the overlap.
                let lo = fa.mins.truncate().max(ta.mins.truncate());
                let hi = fa.maxs.truncate().min(ta.maxs.truncate());
                if lo.cmpgt(hi).any() {
                    return None;
                }
                let (a, b) = MoverState::ends(def);
                let mut xy = (lo + hi) * 0.5;
                if fa.moved.is_some()
                    && matches!(def.kind, MoverKind::Plat { .. })
                    && def.targetname.is_none()
                {
                    // Down from a raised plat: a player in its trigger keeps it up
                    // (plats.qc's `plat_center_touch`), so the ride starts off it, on the
                    // plat's edge, waiting for it to go down.
                    xy = off_plat_trigger(self.world.level, mover, (lo, hi), xy)?;
                } else if fa.moved.is_none()
                    && matches!(def.kind, MoverKind::Plat { .. })
                    && def.targetname.is_none()
                {
                    // Up from a plat at rest: it rises only once a player touches its
                    // trigger, so the ride starts in it (a ride started on the plat's edge,
                    // just off it, stood there until given up).
                    xy = on_plat_trigger(self.world.level, mover, (lo, hi), xy)?;
                }
                (st, xy, (b - a).length())
            }
        };
        let start = self.start_in(from, start_xy)?;
        if start.on_ground != Some(def.id) {
            return None;
        }
        let seconds = distance / def.speed.max(1.0) + 2.0;
        let commands = vec![CmdRun {
            ticks: self.max_ticks(seconds),
            cmd: UserCmd {
                yaw: start.yaw,
                ..Default::default()
            },
        }];
        self.ride_run((from, to), start, commands, (mover, st), ticks)
    }

    /// Runs a ride on a mover (`carrier`) into `to`: an elevator reachability needing the
    /// mover where it waits (or fired), or `None` when it does not arrive or a teleporter
    /// takes it.
    pub(super) fn ride_run(
        &self,
        (from, to): (u32, u32),
        start: PlayerState,
        commands: Vec<CmdRun>,
        carrier: Carrier,
        ticks: &mut u64,
    ) -> Option<Reach> {
        let def = &self.world.level.movers[carrier.0];
        let (arr, cmds) = self.run(start, commands, Some(carrier), Some(to), ticks)?;
        if arr.teleported.is_some() {
            return None;
        }
        let mut r = self.make((from, to, ReachKind::Elevator), &start, &arr, cmds)?;
        // Where it waits — unless it starts from another position, which `Moved` names.
        if self.mesh.areas()[from as usize].moved.is_none() {
            r.needs.push(rest_need(def.id.0, def.targetname.is_some()));
        }
        Some(r)
    }

    pub(super) fn ride(
        &self,
        from: u32,
        to: u32,
        plat: usize,
        cell: u32,
        ticks: &mut u64,
    ) -> Option<Reach> {
        let def = &self.world.level.movers[plat];
        let (rest, other) = plat_ends(def)?;
        let mut st = MoverState::spawn(def, &self.world.level.path_corners);
        st.use_mover(def);
        let used = st;
        let travel = other - rest;
        // Where on the plat to stand: the cell nearest the middle whose box rides clear of
        // the shaft all the way (a pillar may stand in a corner of the plat).
        let area = &self.mesh.areas()[from as usize];
        let f = &self.mesh.frame;
        let mut cells: Vec<(f32, Vec2)> = Vec::new();
        for y in area.cell_min[1]..=area.cell_max[1] {
            for x in area.cell_min[0]..=area.cell_max[0] {
                let xy = f.center(x, y);
                cells.push(((xy - area.center.truncate()).length_squared(), xy));
            }
        }
        cells.sort_by(|a, b| a.0.total_cmp(&b.0));
        let steps = (travel.length() / 16.0).ceil().max(1.0) as usize;
        let mask = crate::map::Contents::MASK_PLAYER_NO_BODIES;
        let clear = |p: Vec3| {
            (1..=steps).all(|k| {
                let q = p + travel * (k as f32 / steps as f32);
                !self
                    .world
                    .cmap
                    .trace(q, q, PLAYER_MINS, PLAYER_MAXS, mask, Some(def.id))
                    .start_solid
            })
        };
        let start = cells
            .iter()
            .filter(|(_, xy)| clear(self.point_in(from, *xy)))
            .find_map(|(_, xy)| self.start_in(from, *xy))?;
        if start.on_ground != Some(def.id) {
            return None;
        }
        // How long the plat takes to reach its other end, by the mover code.
        let mut moving = 0u32;
        while (st.offset - other).length() > 0.01 && moving < self.max_ticks(30.0) {
            st = st.step(def, &self.world.level.path_corners, self.dt).0;
            moving += 1;
        }
        let there = start.origin + travel;
        let aim = self.point_in(to, self.cell_xy(cell));
        let commands = vec![
            CmdRun {
                ticks: moving,
                cmd: UserCmd::default(),
            },
            CmdRun {
                ticks: self.max_ticks(3.0),
                cmd: run_cmd(there, aim, false, false),
            },
        ];
        self.ride_run((from, to), start, commands, (plat, used), ticks)
    }
}

/// What a mover (by id) must be for a reachability on it: where it waits, or fired when a
/// trigger moves it (`targeted`).
pub(super) fn rest_need(id: u32, targeted: bool) -> MoverNeed {
    if targeted {
        MoverNeed::Fired(id)
    } else {
        MoverNeed::Down(id)
    }
}

/// A plat's offsets where it waits (low, or high when a trigger sends it down) and at its
/// other end.
pub(super) fn plat_ends(def: &crate::map::level::MoverDef) -> Option<(Vec3, Vec3)> {
    let MoverKind::Plat { low } = def.kind else {
        return None;
    };
    let rest = MoverState::spawn(def, &[]).offset;
    let other = if (rest - low).length() < 0.01 {
        Vec3::ZERO
    } else {
        low
    };
    Some((rest, other))
}

/// Plat rides: from each area lying on a plat to each floor beside the plat's top.
pub(super) fn rides(world: &NavWorld, mesh: &NavMesh) -> Vec<Job> {
    let f = &mesh.frame;
    let mut out = Vec::new();
    for (i, def) in world.level.movers.iter().enumerate() {
        let Some((_, other)) = plat_ends(def) else {
            continue;
        };
        let top_z = def.maxs.z + other.z - PLAYER_MINS.z;
        let lo = def.mins.truncate() + PLAYER_MINS.truncate() - Vec2::splat(48.0);
        let hi = def.maxs.truncate() + PLAYER_MAXS.truncate() + Vec2::splat(48.0);
        let mut near: BTreeMap<u32, (f32, u32)> = BTreeMap::new();
        let centre = (def.mins.truncate() + def.maxs.truncate()) * 0.5;
        // The ring around the plat, clipped to the grid.
        let clamp = |v: Vec2| {
            let c = ((v - f.origin) / f.cell).floor();
            (
                (c.x.max(0.0) as u32).min(f.nx - 1),
                (c.y.max(0.0) as u32).min(f.ny - 1),
            )
        };
        let (c0, c1) = (clamp(lo), clamp(hi));
        for y in c0.1..=c1.1 {
            for x in c0.0..=c1.0 {
                let xy = f.center(x, y);
                for &b in mesh.areas_in_cell(x, y) {
                    let area = &mesh.areas()[b as usize];
                    if area.is_swim() || area.mover.is_some() || area.moved.is_some() {
                        continue;
                    }
                    if (area.floor_z(xy) - top_z).abs() > STEP_DROP {
                        continue;
                    }
                    let d = (xy - centre).length();
                    let e = near.entry(b).or_insert((d, y * f.nx + x));
                    if d < e.0 {
                        *e = (d, y * f.nx + x);
                    }
                }
            }
        }
        // The nearest few floors beside the other end are enough to leave the plat by.
        let mut near: Vec<(u32, (f32, u32))> = near.into_iter().collect();
        near.sort_by(|a, b| a.1.0.total_cmp(&b.1.0).then(a.0.cmp(&b.0)));
        near.truncate(6);
        for a in mesh
            .areas()
            .iter()
            .filter(|a| a.mover == Some(def.id.0) && a.moved.is_none())
        {
            for &(b, (_, cell)) in &near {
                out.push(Job::Ride {
                    from: a.id,
                    to: b,
                    plat: i,
                    cell,
                });
            }
        }
    }
    out
}

/// Carries: between each area on a plat or door where navigation has it and each area on
/// it at its other end above or below, both ways.
pub(super) fn carries(world: &NavWorld, mesh: &NavMesh) -> Vec<Job> {
    let mut out = Vec::new();
    let on = |mover: u32, moved: Option<u32>| {
        mesh.areas()
            .iter()
            .filter(move |a| a.mover == Some(mover) && a.moved == moved)
    };
    for (position, m) in world.moved.iter().enumerate() {
        if m.corner.is_some() {
            continue;
        }
        for a in on(m.id, None) {
            for b in on(m.id, Some(position as u32)) {
                let lo = a.mins.truncate().max(b.mins.truncate());
                let hi = a.maxs.truncate().min(b.maxs.truncate());
                if lo.cmpgt(hi).any() {
                    continue;
                }
                for (from, to) in [(a.id, b.id), (b.id, a.id)] {
                    out.push(Job::Carry {
                        from,
                        to,
                        mover: m.index,
                        leg: None,
                    });
                }
            }
        }
    }
    // Trains: from each stop to the next, from the area on the train there to the one the
    // same spot on the train is in at the next stop.
    let corners = &world.level.path_corners;
    for (index, def) in world.level.movers.iter().enumerate() {
        let stops = MoverState::train_stops(def, corners);
        let position = |corner: usize| -> Option<Option<u32>> {
            if stops.first().map(|s| s.0) == Some(corner) {
                return Some(None);
            }
            world
                .moved
                .iter()
                .position(|m| m.index == index && m.corner == Some(corner))
                .map(|p| Some(p as u32))
        };
        for &(corner, offset) in &stops {
            let next = corners[corner]
                .target
                .as_deref()
                .and_then(|t| stops.iter().find(|s| corners[s.0].name == t));
            let Some(&(next, next_offset)) = next else {
                continue;
            };
            if next == corner {
                continue;
            }
            let (Some(here), Some(there)) = (position(corner), position(next)) else {
                continue;
            };
            let delta = (next_offset - offset).truncate();
            for a in on(def.id.0, here) {
                let p = a.center.truncate() + delta;
                for b in on(def.id.0, there) {
                    if p.cmpge(b.mins.truncate()).all() && p.cmple(b.maxs.truncate()).all() {
                        out.push(Job::Carry {
                            from: a.id,
                            to: b.id,
                            mover: index,
                            leg: Some((corner, next)),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The mover the world it runs in has moved, doors whose closed brushes a reachability's
/// path crosses, and the plat of an area it ends on.
pub(super) fn needs(world: &NavWorld, mesh: &NavMesh, moved: Option<u32>, r: &mut Reach) {
    let span = |a: Vec3, b: Vec3| (a.min(b) + PLAYER_MINS, a.max(b) + PLAYER_MAXS);
    // The path's boxes: start to end; a teleport's path is broken, from the start into the
    // trigger and from the destination down to the end (one box over both took a teleport
    // as passing a door between its trigger and its destination).
    let boxes: Vec<(Vec3, Vec3)> = match teleporter_taken(world, r) {
        Some(t) if r.kind == ReachKind::Teleport => vec![
            span(r.start, r.start.clamp(t.mins, t.maxs)),
            span(t.dest, r.end),
        ],
        _ => vec![span(r.start, r.end)],
    };
    // The world it was verified in (and a replay runs in).
    if let Some(id) = moved {
        r.needs.push(MoverNeed::Moved(id));
    }
    let moved_mover = moved
        .and_then(|p| world.moved.get(p as usize))
        .map(|m| m.id);
    let (fa, ta) = (&mesh.areas()[r.from as usize], &mesh.areas()[r.to as usize]);
    for (index, m) in world.level.movers.iter().enumerate() {
        let across = |mins: Vec3, maxs: Vec3| {
            boxes
                .iter()
                .any(|&(lo, hi)| crate::map::collision::overlaps(lo, hi, mins, maxs))
        };
        let crossed = across(m.mins, m.maxs);
        // Verified with the door open, a run may also lean on it there: come down against
        // it, or on it, where it stands open (a fall stopped by a lowered hatch's side).
        // Unless it arrives as well with the door shut, it needs the door open. (Runs onto
        // or off the door's own top need it fired; see below.)
        let open_at = match m.kind {
            MoverKind::Door { open, .. } => Some(open),
            _ => None,
        };
        let leans = !crossed
            && moved.is_none()
            && r.kind != ReachKind::Elevator
            && fa.mover != Some(m.id.0)
            && ta.mover != Some(m.id.0)
            && open_at.is_some_and(|o| {
                // Grown a unit: a box stopped against a face only touches it.
                o != Vec3::ZERO && across(m.mins + o - Vec3::ONE, m.maxs + o + Vec3::ONE)
            })
            && !runs_shut(world, mesh, r, index);
        if !(crossed || leans) || moved_mover == Some(m.id.0) {
            continue;
        }
        match m.kind {
            MoverKind::Door { locked: true, .. } => r.needs.push(MoverNeed::Key(m.id.0)),
            MoverKind::Door { .. } | MoverKind::SecretDoor { .. } => {
                if !leans && moved.is_none() && runs_shut(world, mesh, r, index) {
                    continue;
                }
                r.needs.push(MoverNeed::Open(m.id.0))
            }
            _ => {}
        }
    }
    // A carry (on one mover from one of its positions to another) needs the mover where
    // it starts; where it ends is its doing.
    let carry = r.kind == ReachKind::Elevator && fa.mover.is_some() && fa.mover == ta.mover;
    let ends: &[u32] = if carry { &[r.from] } else { &[r.from, r.to] };
    for &a in ends {
        let area = &mesh.areas()[a as usize];
        if let Some(id) = area.mover {
            let Some(def) = world.level.movers.iter().find(|m| m.id.0 == id) else {
                continue;
            };
            // On the mover at another position (a raised plat's top, a train at a later
            // stop): the position (`Moved`) alone names what it needs.
            if area
                .moved
                .and_then(|p| world.moved.get(p as usize))
                .is_some_and(|m| m.id == id)
            {
                continue;
            }
            let targeted = def.targetname.is_some();
            let need = rest_need(id, targeted);
            if !r.needs.contains(&need) {
                r.needs.push(need);
            }
        }
    }
}

/// Whether reachability `r` (verified with every door open) arrives as well with door
/// `index` (and the doors linked to it) shut: a path whose box only overlaps a door's — a
/// fall from a ledge past the top of a door below, which a bot up there cannot open by
/// touch — does not wait for it (a teleporter's exit over doors). Rides are left needing it
/// (their carrier's motion is part of the run).
pub(super) fn runs_shut(world: &NavWorld, mesh: &NavMesh, r: &Reach, index: usize) -> bool {
    if r.kind == ReachKind::Elevator {
        return false;
    }
    let Some(shut) = world
        .moved
        .iter()
        .find(|m| m.corner.is_none() && m.group.contains(&index))
    else {
        return false;
    };
    let dt = 1.0 / mesh.params.tick_rate as f32;
    let start = settle(&shut.cmap, r.start, mesh.areas()[r.from as usize].is_swim());
    simulate(
        (world, &shut.cmap),
        start,
        &r.commands,
        None,
        dt,
        |s, sent| {
            in_area(mesh, s, r.to)
                && (r.kind != ReachKind::Teleport || (sent.is_some() && s.on_ground.is_some()))
        },
        &mut 0,
    )
    .is_some()
}

/// The teleporter a teleport reachability takes: the named one it records, else the one
/// nearest its start whose destination is nearest where it ends (triggers can share a
/// destination; a teleported player slides a little before it lands).
pub(super) fn teleporter_taken<'w>(
    world: &'w NavWorld,
    r: &Reach,
) -> Option<&'w crate::aas::Teleporter> {
    if let Some(t) = r.needs.iter().find_map(|n| match n {
        MoverNeed::Teleporter(t) => Some(*t),
        _ => None,
    }) {
        return world.teleports.iter().find(|x| x.trigger == t);
    }
    let cost = |t: &crate::aas::Teleporter| {
        (r.start.clamp(t.mins, t.maxs) - r.start).length()
            + (t.dest.truncate() - r.end.truncate()).length()
    };
    world
        .teleports
        .iter()
        .min_by(|a, b| cost(a).total_cmp(&cost(b)))
}

/// How far (units) above its end a reachability onto a plat at rest may enter the plat's
/// trigger: stepping or dropping a little onto a plat is how a ride starts.
pub(super) const PLAT_DROP: f32 = 48.0;

/// Whether reachability `r` comes down onto a plat waiting low (one nothing targets) from
/// well above it, through its trigger: Quake sends such a plat up as soon as a player is in
/// its trigger, which spans the shaft over it (plats.qc's `plat_center_touch`), so the
/// player comes down onto it on its way up and is carried back to the top — no way down
/// (verified with the plat standing still, such a fall looked like one, and a bot waited on
/// the raised plat for good).
pub(super) fn onto_held_plat(world: &NavWorld, mesh: &NavMesh, r: &Reach) -> bool {
    use crate::map::level::TriggerKind;
    if r.kind == ReachKind::Elevator {
        return false;
    }
    let to = &mesh.areas()[r.to as usize];
    let (Some(id), None) = (to.mover, to.moved) else {
        return false;
    };
    world.level.triggers.iter().any(|t| {
        let TriggerKind::PlatRaise { mover } = t.kind else {
            return false;
        };
        let def = &world.level.movers[mover];
        def.id.0 == id
            && def.targetname.is_none()
            && crate::nav::waypoints::segment_enters_box(r.start, r.end, t.mins, t.maxs)
                .is_some_and(|f| r.start.z + f * (r.end.z - r.start.z) > r.end.z + PLAT_DROP)
    })
}
