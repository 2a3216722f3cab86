//! The systems of a tick, each a plain function over the simulation. They walk the sorted
//! entity lists of [`Sim`] (never hecs iteration order), so their effects are applied in
//! id order and the run is deterministic.

use glam::Vec3;

use crate::map::collision::overlaps;
use crate::map::level::{MoverKind, TriggerKind};
use crate::map::{Contents, EntId};
use crate::physics::damage::environment_damage;
use crate::physics::movers::MoverEvent;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, UserCmd, pmove};

use super::components::*;
use super::sound::SoundKind;
use super::{LastMove, Sim, SimEvent};
use crate::bot::Percepts;
use crate::bot::movement::{MoveIntent, MoveRequest, MoveStatus, MoveTarget};
use crate::bot::routing::{RouteGoal, RouteState};
use crate::nav::routing::TravelFlags;

/// Seconds a dead player waits before respawning.
pub const RESPAWN_DELAY: f32 = 1.0;
/// Controllers turn their state into this tick's user command, or (goto) into a movement
/// request for the movement stage.
pub fn control_system(sim: &mut Sim) {
    let dt = sim.dt;
    let mut stuck = Vec::new();
    let doors = secret_doors(sim);
    // An explorer's step, for explorers and for route bots roaming where they have no route.
    let explore = |ex: &mut crate::bot::explore::Explorer,
                   s: &PlayerState,
                   percepts: &Percepts,
                   mstatus: &MoveStatus,
                   rng: &mut crate::sim::rng::SimRng,
                   planner: Option<EntId>| {
        ex.step(
            &sim.cmap,
            &sim.waypoints,
            &sim.visits,
            &sim.level,
            s,
            percepts,
            mstatus,
            rng,
            dt,
            planner,
        )
    };
    // One view for the loop: asking the world per player prepares the query every time.
    let mut view = sim.world.view_mut::<(
        &mut Controller,
        &mut Command,
        &Motion,
        &Vitals,
        &mut BotRng,
        &mut MoveIntent,
        &Percepts,
        &MoveStatus,
        &mut RouteState,
        &mut crate::game::Aim,
        &mut crate::bot::routing::Roam,
    )>();
    for (pi, &(me, e)) in sim.players.iter().enumerate() {
        let Some((ctrl, cmd, motion, vitals, rng, intent, percepts, mstatus, route, aim, roam)) =
            view.get_mut(e)
        else {
            continue;
        };
        if !matches!(ctrl, Controller::Brain) {
            *aim = Default::default();
        }
        let s = &motion.0;
        intent.0 = None;
        if !matches!(ctrl, Controller::Route { .. } | Controller::Brain) {
            route.goal = None;
        }
        if !vitals.alive {
            cmd.0 = UserCmd::default();
            continue;
        }
        cmd.0 = match ctrl {
            Controller::Idle => UserCmd {
                yaw: s.yaw,
                ..Default::default()
            },
            Controller::Wander { yaw, timer, stuck } => {
                let rng = &mut rng.0;
                *timer -= dt;
                let speed = s.velocity.truncate().length();
                if s.on_ground.is_some() && speed < 40.0 {
                    *stuck += dt;
                } else {
                    *stuck = 0.0;
                }
                if *timer <= 0.0 || *stuck > 0.5 {
                    *yaw = rng.range(0.0, 360.0);
                    *timer = rng.range(1.0, 3.0);
                    *stuck = 0.0;
                }
                let jump = s.on_ground.is_some() && rng.chance(0.03);
                UserCmd {
                    forward_move: 320.0,
                    yaw: *yaw,
                    // Swim up to breathe: wanderers keep their heads above the surface.
                    up_move: if s.water_level >= 2 { 200.0 } else { 0.0 },
                    jump: jump || s.water_level >= 2,
                    ..Default::default()
                }
            }
            Controller::Explore(ex) => {
                // A planned run toward an item plays its commands as they are.
                if let Some(c) = ex.planned_cmd(s) {
                    cmd.0 = c;
                    continue;
                }
                let (req, is_stuck) = explore(ex, s, percepts, mstatus, &mut rng.0, Some(me));
                if is_stuck {
                    stuck.push(pi);
                }
                intent.0 = Some(req);
                if !doors.is_empty() {
                    let (go, view) = ex.secret_door(&sim.cmap, &doors, s, dt);
                    if let Some(go) = go {
                        intent.0 = go;
                    }
                    if view.is_some() {
                        aim.view = view;
                        aim.fire = true;
                    }
                }
                UserCmd {
                    yaw: s.yaw,
                    ..Default::default()
                }
            }
            Controller::Brain => UserCmd {
                yaw: s.yaw,
                ..Default::default()
            },
            Controller::Route { goal } => {
                if route.goal.map(|g| g.point) != Some(*goal) {
                    *route = RouteState {
                        goal: Some(RouteGoal {
                            point: *goal,
                            flags: TravelFlags::ALL,
                        }),
                        ..Default::default()
                    };
                }
                route.hold = false;
                // Along a jump link an explorer made: a run planned over the physics, played
                // while the routing stage holds.
                let floor = sim.visits.floor(&sim.level, &sim.cmap);
                if let Some(c) = roam.planned_cmd(
                    &sim.cmap,
                    &sim.waypoints,
                    floor,
                    route,
                    s,
                    me,
                    &mut rng.0,
                    dt,
                ) {
                    route.hold = true;
                    cmd.0 = c;
                    continue;
                }
                // No waypoint around has a route (the routing stage said so last tick):
                // explore until one has; give up after a while where the goal has a route
                // from somewhere else.
                if route.no_route && route.next.is_none() {
                    let (req, is_stuck) =
                        explore(&mut roam.explorer, s, percepts, mstatus, &mut rng.0, None);
                    intent.0 = Some(req);
                    roam.seconds += dt;
                    if is_stuck
                        || (roam.seconds > crate::bot::routing::ROAM_SECONDS
                            && route.goal_waypoint.is_some())
                    {
                        roam.seconds = 0.0;
                        stuck.push(pi);
                    }
                } else {
                    roam.seconds = 0.0;
                }
                // Wedged (on a ledge's corner, in a pit the links do not leave): the same.
                if (s.origin - roam.anchor).length() > 64.0 || route.hold {
                    roam.anchor = s.origin;
                    roam.still = 0.0;
                } else {
                    roam.still += dt;
                    if roam.still > crate::bot::explore::STUCK_SECONDS {
                        roam.still = 0.0;
                        stuck.push(pi);
                    }
                }
                if !doors.is_empty()
                    && let Some(next) = route.next.and_then(|n| sim.waypoints.get(n))
                {
                    let (hold, view) = crate::bot::routing::secret_door_on_the_way(
                        &sim.cmap,
                        &doors,
                        s,
                        next.origin,
                    );
                    route.hold = hold;
                    if view.is_some() {
                        aim.view = view;
                        aim.fire = true;
                    }
                }
                UserCmd {
                    yaw: s.yaw,
                    ..Default::default()
                }
            }
            Controller::Goto { target } => {
                intent.0 = Some(MoveRequest {
                    target: MoveTarget::Point(*target),
                    speed: 320.0,
                });
                UserCmd {
                    yaw: s.yaw,
                    ..Default::default()
                }
            }
            Controller::Script { steps, index, done } => {
                while *index < steps.len() && *done >= steps[*index].ticks {
                    *index += 1;
                    *done = 0;
                }
                match steps.get(*index) {
                    Some(st) => {
                        *done += 1;
                        aim.fire = st.fire;
                        aim.weapon = st.weapon;
                        UserCmd {
                            forward_move: st.forward,
                            side_move: st.side,
                            up_move: st.up,
                            yaw: st.yaw,
                            pitch: st.pitch,
                            jump: st.jump,
                        }
                    }
                    None => UserCmd {
                        yaw: s.yaw,
                        ..Default::default()
                    },
                }
            }
        };
    }
    // A bot stuck somewhere gives up as a Quake player does (the `kill` command).
    for pi in stuck {
        kill(sim, pi, "stuck", None);
    }
}

/// The shootable secret doors and where they stand (for explorers, who open them).
fn secret_doors(sim: &Sim) -> Vec<crate::bot::explore::SecretDoorView> {
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| m.kind.is_shootable())
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let home_centre = (m.mins + m.maxs) * 0.5;
            Some(crate::bot::explore::SecretDoorView {
                index,
                id: m.id,
                centre: home_centre + st.offset,
                home_centre,
                home: (m.mins, m.maxs),
                closed: st.phase == crate::physics::movers::Phase::AtA,
                open: st.phase == crate::physics::movers::Phase::AtB,
            })
        })
        .collect()
}

/// Applies damage through armour (Quake's T_Damage: armour takes its type's share, rounded
/// up, while it lasts). Returns the health taken.
pub fn apply_damage(v: &mut Vitals, dmg: f32) -> f32 {
    if !v.alive || dmg <= 0.0 {
        return 0.0;
    }
    let mut save = (v.armor_type * dmg).ceil();
    if save >= v.armor {
        save = v.armor;
        v.armor_type = 0.0;
    }
    v.armor -= save;
    let take = (dmg - save).ceil();
    v.health -= take;
    take
}

/// Kills player `index`. Frags follow Quake: +1 to a killer other than the victim, −1 to
/// the victim for its own weapon, the world or the `kill` command.
pub fn kill(sim: &mut Sim, index: usize, cause: &'static str, attacker: Option<EntId>) {
    let (id, e) = sim.players[index];
    let mut at = None;
    let killer = attacker.filter(|&a| a != id);
    if let Ok((v, st, m)) = sim
        .world
        .query_one_mut::<(&mut Vitals, &mut PlayerStats, &mut Motion)>(e)
    {
        if !v.alive {
            return;
        }
        v.alive = false;
        v.health = v.health.min(0.0);
        v.respawn_in = RESPAWN_DELAY;
        st.0.deaths += 1;
        if killer.is_none() {
            st.0.frags -= 1;
            st.0.suicides += 1;
        }
        m.0.velocity = Vec3::ZERO;
        at = Some(m.0.origin);
    }
    if at.is_none() {
        return;
    }
    if let Some(k) = killer
        && let Ok(ki) = sim.players.binary_search_by_key(&k, |p| p.0)
        && let Ok(mut st) = sim.world.get::<&mut PlayerStats>(sim.players[ki].1)
    {
        st.0.frags += 1;
        st.0.kills += 1;
    }
    if let Some(p) = at {
        sim.sound(SoundKind::Death, p, Some(id));
    }
    std::sync::Arc::make_mut(&mut sim.cmap).remove_body(id);
    sim.events.push(SimEvent::Death {
        player: id.0,
        cause,
        killer: killer.map(|k| k.0),
    });
}

/// Uses mover `index` (a touch or a trigger), recording when that starts it moving.
fn use_mover(sim: &mut Sim, index: usize) {
    let level = sim.level.clone();
    let def = &level.movers[index];
    if let Ok(slot) = sim.world.query_one_mut::<&mut MoverSlot>(sim.movers[index])
        && slot.state.use_mover(def) == Some(MoverEvent::Started)
    {
        sim.events.push(SimEvent::MoverStart { mover: def.id.0 });
        let (mn, mx) = sim
            .cmap
            .mover_bounds(def.id)
            .unwrap_or((def.mins, def.maxs));
        sim.sound(SoundKind::Mover, (mn + mx) * 0.5, Some(def.id));
        // A secret door fires its targets as it starts to open (a door that targets itself
        // is away from home by then, so this ends).
        if let (MoverKind::SecretDoor { .. }, Some(t)) = (&def.kind, &def.target) {
            fire_targets(sim, t);
        }
    }
}

/// Damage reached the mover with trace id `id`: a shootable secret door opens (Quake gives
/// it 10,000 health and opens it from its pain function, so any hit does).
pub(crate) fn damage_mover(sim: &mut Sim, id: EntId) {
    let Some(index) = sim.level.movers.iter().position(|m| m.id == id) else {
        return;
    };
    if sim.level.movers[index].kind.is_shootable() {
        use_mover(sim, index);
    }
}

/// Fires every mover and trigger named `target` (Quake's SUB_UseTargets).
fn fire_targets(sim: &mut Sim, target: &str) {
    let level = sim.level.clone();
    for (i, def) in level.movers.iter().enumerate() {
        if def.targetname.as_deref() == Some(target) {
            use_mover(sim, i);
        }
    }
    for (i, t) in level.triggers.iter().enumerate() {
        if t.targetname.as_deref() == Some(target) {
            sim.triggers[i].active = true;
        }
    }
}

/// Movers advance; players standing on one, or in its way, are carried with it. When a
/// carried player would end inside something the mover is blocked: it stays put, takes its
/// blocked action (plats and doors turn back) and hurts the player.
pub fn movers_system(sim: &mut Sim) {
    let level = sim.level.clone();
    let dt = sim.dt;
    for mi in 0..sim.movers.len() {
        let def = &level.movers[mi];
        let me = sim.movers[mi];
        let Ok(old) = sim.world.get::<&MoverSlot>(me).map(|m| m.state) else {
            continue;
        };
        let (new, event) = old.step(def, &level.path_corners, dt);
        let delta = new.offset - old.offset;
        let mut blocker = None;
        if delta != Vec3::ZERO {
            std::sync::Arc::make_mut(&mut sim.cmap).set_mover_offset(def.id, new.offset);
            let mut moved: Vec<(usize, Vec3)> = Vec::new();
            for (pi, &(pid, pe)) in sim.players.iter().enumerate() {
                let Ok((m, v)) = sim.world.query_one_mut::<(&mut Motion, &Vitals)>(pe) else {
                    continue;
                };
                if !v.alive {
                    continue;
                }
                let riding = m.0.on_ground == Some(def.id);
                if !riding
                    && !sim
                        .cmap
                        .box_in_mover(def.id, m.0.origin, PLAYER_MINS, PLAYER_MAXS)
                {
                    continue;
                }
                let to = m.0.origin + delta;
                let tr = sim.cmap.trace(
                    to,
                    to,
                    PLAYER_MINS,
                    PLAYER_MAXS,
                    Contents::MASK_PLAYER_NO_BODIES,
                    Some(pid),
                );
                if tr.start_solid {
                    blocker = Some(pi);
                    break;
                }
                moved.push((pi, m.0.origin));
                m.0.origin = to;
                std::sync::Arc::make_mut(&mut sim.cmap).set_body(pid, to, PLAYER_MINS, PLAYER_MAXS);
            }
            if let Some(bi) = blocker {
                // Undo: the mover and everyone it pushed go back.
                std::sync::Arc::make_mut(&mut sim.cmap).set_mover_offset(def.id, old.offset);
                for (pi, origin) in moved {
                    let (pid, pe) = sim.players[pi];
                    if let Ok(mut m) = sim.world.get::<&mut Motion>(pe) {
                        m.0.origin = origin;
                    }
                    std::sync::Arc::make_mut(&mut sim.cmap).set_body(
                        pid,
                        origin,
                        PLAYER_MINS,
                        PLAYER_MAXS,
                    );
                }
                if let Ok(mut slot) = sim.world.get::<&mut MoverSlot>(me) {
                    slot.state.blocked(def);
                }
                hurt(sim, bi, def.dmg, "crushed");
                continue;
            }
        }
        if let Ok(mut slot) = sim.world.get::<&mut MoverSlot>(me) {
            slot.state = new;
        }
        if event == Some(MoverEvent::ReachedB)
            && let (MoverKind::Button { .. }, Some(t)) = (&def.kind, def.target.as_deref())
        {
            fire_targets(sim, t);
        }
    }
}

/// Player physics: every living player moves by its command, in id order, and its body in
/// the collision map follows.
pub fn physics_system(sim: &mut Sim) {
    let dt = sim.dt;
    let params = sim.params;
    // A running player makes a footstep every 0.4 s (staggered by id).
    let step_ticks = ((0.4 / dt).round() as u64).max(1);
    let mut sounds = Vec::new();
    let mut view = sim.world.view_mut::<(
        &mut Motion,
        &Command,
        &Vitals,
        &mut PlayerStats,
        &mut LastMove,
        &mut Still,
    )>();
    for &(id, e) in &sim.players {
        let Some((m, cmd, v, st, last, still)) = view.get_mut(e) else {
            continue;
        };
        if !v.alive {
            last.0 = Default::default();
            continue;
        }
        let (next, ev) = pmove(&m.0, &cmd.0, &sim.cmap, &params, dt, Some(id));
        st.0.distance += (next.origin - m.0.origin).length();
        if ev.jumped {
            st.0.jumps += 1;
            sim.events.push(SimEvent::Jump { player: id.0 });
            sounds.push((SoundKind::Jump, next.origin, id));
        }
        if ev.landed.is_some_and(|v| v > 300.0) {
            sounds.push((SoundKind::Land, next.origin, id));
        }
        if next.on_ground.is_some()
            && next.velocity.truncate().length() > 200.0
            && (sim.tick + id.0 as u64).is_multiple_of(step_ticks)
        {
            sounds.push((
                SoundKind::Footstep,
                next.origin + PLAYER_MINS.z * Vec3::Z,
                id,
            ));
        }
        if next.water_level > 0 {
            st.0.ticks_in_liquid += 1;
        }
        if next.on_ground.is_some_and(|g| g != EntId::WORLD) {
            st.0.ticks_on_mover += 1;
        }
        if (next.origin - still.anchor).length() > 64.0 {
            *still = Still {
                anchor: next.origin,
                seconds: 0.0,
            };
        } else {
            still.seconds += dt;
            st.0.longest_still = st.0.longest_still.max(still.seconds);
        }
        m.0 = next;
        last.0 = ev;
        std::sync::Arc::make_mut(&mut sim.cmap).set_body(id, next.origin, PLAYER_MINS, PLAYER_MAXS);
    }
    for (kind, pos, id) in sounds {
        sim.sound(kind, pos, Some(id));
    }
}

fn player_box(s: &PlayerState) -> (Vec3, Vec3) {
    (s.origin + PLAYER_MINS, s.origin + PLAYER_MAXS)
}

/// Trigger volumes touched by living players, players in id order and triggers in map order:
/// teleporters, plat and door fields, buttons, trigger_once/multiple, trigger_hurt.
pub fn triggers_system(sim: &mut Sim) {
    let level = sim.level.clone();
    let dt = sim.dt;
    for t in &mut sim.triggers {
        t.rearm = (t.rearm - dt).max(0.0);
    }
    for pi in 0..sim.players.len() {
        let (pid, pe) = sim.players[pi];
        let state = match sim.world.query_one_mut::<(&Motion, &Vitals)>(pe) {
            Ok((m, v)) if v.alive => m.0,
            _ => continue,
        };
        let (mn, mx) = player_box(&state);
        for (ti, t) in level.triggers.iter().enumerate() {
            if !overlaps(mn, mx, t.mins, t.maxs) || !sim.triggers[ti].active {
                continue;
            }
            match &t.kind {
                TriggerKind::Teleport { dest: Some(d) } => {
                    let dest = &level.teleport_dests[*d];
                    teleport(sim, pi, dest.origin, dest.yaw);
                    sim.events.push(SimEvent::Teleport {
                        player: pid.0,
                        trigger: ti,
                        dest: dest.name.clone(),
                    });
                    // The player is elsewhere now; other volumes wait for the next tick.
                    break;
                }
                TriggerKind::PlatRaise { mover } => {
                    use_mover(sim, *mover);
                }
                TriggerKind::DoorField { mover } => {
                    if sim.triggers[ti].rearm > 0.0 {
                        continue;
                    }
                    sim.triggers[ti].rearm = 1.0;
                    for &d in &level.movers[*mover].linked {
                        use_mover(sim, d);
                    }
                }
                TriggerKind::Multiple { wait } => {
                    if sim.triggers[ti].rearm <= 0.0 {
                        sim.triggers[ti].rearm = *wait;
                        if let Some(target) = &t.target {
                            fire_targets(sim, target);
                        }
                    }
                }
                TriggerKind::Once => {
                    if !sim.triggers[ti].spent {
                        sim.triggers[ti].spent = true;
                        if let Some(target) = &t.target {
                            fire_targets(sim, target);
                        }
                    }
                }
                TriggerKind::Hurt { dmg } => {
                    if sim.triggers[ti].rearm <= 0.0 {
                        sim.triggers[ti].rearm = 1.0;
                        if hurt(sim, pi, *dmg, "trigger_hurt") {
                            break;
                        }
                    }
                }
                TriggerKind::Teleport { dest: None } | TriggerKind::Inert => {}
            }
        }
        // Buttons are pressed by touching their brushes (the box grown by a unit).
        for (mi, def) in level.movers.iter().enumerate() {
            if !matches!(def.kind, MoverKind::Button { .. }) {
                continue;
            }
            let Some((bmn, bmx)) = sim.cmap.mover_bounds(def.id) else {
                continue;
            };
            if overlaps(mn - Vec3::ONE, mx + Vec3::ONE, bmn, bmx) {
                use_mover(sim, mi);
            }
        }
    }
}

/// Moves player `index` to `origin` facing `yaw` with Quake's teleport push, killing anyone
/// standing there (telefrag).
pub fn teleport(sim: &mut Sim, index: usize, origin: Vec3, yaw: f32) {
    let (pid, pe) = sim.players[index];
    let mut from = None;
    if let Ok((m, st)) = sim
        .world
        .query_one_mut::<(&mut Motion, &mut PlayerStats)>(pe)
    {
        from = Some(m.0.origin);
        m.0 = crate::physics::teleport::teleported(&m.0, origin, yaw);
        st.0.teleports += 1;
    }
    if let Some(f) = from {
        sim.sound(SoundKind::Teleport, f, Some(pid));
        sim.sound(SoundKind::Teleport, origin, Some(pid));
    }
    let victims: Vec<EntId> = sim
        .cmap
        .bodies_in_box(origin + PLAYER_MINS, origin + PLAYER_MAXS)
        .filter(|&b| b != pid)
        .collect();
    for v in victims {
        if let Some(vi) = sim.players.iter().position(|p| p.0 == v) {
            kill(sim, vi, "telefrag", Some(pid));
        }
    }
    std::sync::Arc::make_mut(&mut sim.cmap).set_body(pid, origin, PLAYER_MINS, PLAYER_MAXS);
}

/// Items: respawn timers run; a living player overlapping an available item's box picks it
/// up (lowest id first). Health is only taken when it heals.
pub fn items_system(sim: &mut Sim) {
    let level = sim.level.clone();
    let dt = sim.dt;
    let respawn_scale = sim.rules.respawn_scale;
    let (tick, rate) = (sim.tick, sim.tick_rate());
    // Living players' boxes, read once: nothing here moves or kills a player, and asking the
    // world for every item and player pair cost more than the rest of the stage.
    let boxes: Vec<(EntId, hecs::Entity, Vec3, Vec3)> = sim
        .players
        .iter()
        .filter_map(|&(pid, pe)| {
            let mut q = sim.world.query_one::<(&Motion, &Vitals)>(pe);
            let (m, v) = q.get().ok()?;
            let (mn, mx) = player_box(&m.0);
            v.alive.then_some((pid, pe, mn, mx))
        })
        .collect();
    // The slots, read once and written back once (a world lookup per item cost as much as
    // the stage's work on small matches).
    let mut slots: Vec<Option<ItemSlot>> = {
        let view = sim.world.view::<&ItemSlot>();
        sim.items.iter().map(|&e| view.get(e).copied()).collect()
    };
    for slot in slots.iter_mut() {
        let Some(slot) = slot else {
            continue;
        };
        let def = &level.items[slot.def];
        if !slot.available {
            slot.respawn_ticks = slot.respawn_ticks.saturating_sub(1);
            if slot.respawn_ticks == 0 {
                slot.available = true;
                sim.sounds
                    .emit(SoundKind::ItemRespawn, slot.origin, None, tick, rate);
            }
        } else {
            let (imn, imx) = def.kind.bounds();
            // Quake grows item boxes by a unit sideways when linking them.
            let grow = Vec3::new(1.0, 1.0, 0.0);
            let (imn, imx) = (slot.origin + imn - grow, slot.origin + imx + grow);
            for &(pid, pe, mn, mx) in &boxes {
                if !overlaps(mn, mx, imn, imx) {
                    continue;
                }
                let Ok((v, st, inv)) = sim.world.query_one_mut::<(
                    &mut Vitals,
                    &mut PlayerStats,
                    &mut crate::game::Inventory,
                )>(pe) else {
                    continue;
                };
                use crate::map::level::ItemKind;
                let taken = match def.kind {
                    ItemKind::Health => {
                        if v.health >= 100.0 {
                            false
                        } else {
                            v.health = (v.health + 25.0).min(100.0);
                            true
                        }
                    }
                    ItemKind::MegaHealth => {
                        if v.health >= 250.0 {
                            false
                        } else {
                            v.health = (v.health + 100.0).min(250.0);
                            true
                        }
                    }
                    ItemKind::Armor => {
                        let (ty, val) = match def.classname.as_str() {
                            "item_armor1" => (0.3, 100.0),
                            "item_armor2" => (0.6, 150.0),
                            _ => (0.8, 200.0),
                        };
                        // Quake: take it only when it is better than what is worn.
                        if v.armor_type * v.armor >= ty * val {
                            false
                        } else {
                            v.armor_type = ty;
                            v.armor = val;
                            true
                        }
                    }
                    _ => inv.pickup(&def.classname, def.spawnflags, tick, rate),
                };
                if taken {
                    st.0.pickups += 1;
                    slot.available = false;
                    slot.respawn_ticks = def
                        .respawn
                        .map(|secs| ((secs * respawn_scale / dt).round() as u64).max(1))
                        .unwrap_or(u64::MAX);
                    sim.events.push(SimEvent::Pickup {
                        player: pid.0,
                        item: def.classname.clone(),
                    });
                    sim.sounds
                        .emit(SoundKind::ItemPickup, slot.origin, Some(pid), tick, rate);
                    break;
                }
            }
        }
    }
    let mut view = sim.world.view_mut::<&mut ItemSlot>();
    for (&e, slot) in sim.items.iter().zip(slots) {
        if let (Some(s), Some(slot)) = (view.get_mut(e), slot) {
            *s = slot;
        }
    }
}

/// Environment damage (lava, slime, drowning, hard landings) and deaths.
pub fn damage_system(sim: &mut Sim) {
    let dt = sim.dt;
    let tick = sim.tick;
    for pi in 0..sim.players.len() {
        let pe = sim.players[pi].1;
        let Ok((m, v, last, inv)) =
            sim.world
                .query_one_mut::<(&Motion, &mut Vitals, &LastMove, &crate::game::Inventory)>(pe)
        else {
            continue;
        };
        if !v.alive {
            continue;
        }
        let mut dmg = environment_damage(&m.0, last.0.landed, &mut v.env, dt);
        // The biosuit: no slime or drowning, a fifth of lava's damage (Quake hurts once a
        // second instead of five times).
        if tick < inv.suit_until {
            match m.0.water_type {
                Contents::LAVA => dmg *= 0.2,
                Contents::SLIME | Contents::WATER if last.0.landed.is_none() => dmg = 0.0,
                _ => {}
            }
        }
        let cause = match m.0.water_type {
            Contents::LAVA => "lava",
            Contents::SLIME => "slime",
            Contents::WATER => "drowned",
            _ => "fall",
        };
        if dmg > 0.0 {
            hurt(sim, pi, dmg, cause);
        }
    }
}

/// Damages player `index` (through armour): a pain sound, or death with `cause`. Returns
/// whether it died.
pub fn hurt(sim: &mut Sim, index: usize, dmg: f32, cause: &'static str) -> bool {
    crate::game::combat::deal_damage(sim, index, dmg, cause, None, None)
}

/// Dead players wait [`RESPAWN_DELAY`] and come back at a free spawn point.
pub fn respawn_system(sim: &mut Sim) {
    let dt = sim.dt;
    for pi in 0..sim.players.len() {
        let (pid, pe) = sim.players[pi];
        let ready = match sim.world.get::<&mut Vitals>(pe) {
            Ok(mut v) if !v.alive => {
                v.respawn_in -= dt;
                v.respawn_in <= 1e-4
            }
            _ => false,
        };
        if !ready {
            continue;
        }
        let Some(spot) = sim.choose_spawn() else {
            continue;
        };
        let sp = sim.level.spawns[spot];
        if let Ok((m, v, inv, still)) = sim.world.query_one_mut::<(
            &mut Motion,
            &mut Vitals,
            &mut crate::game::Inventory,
            &mut Still,
        )>(pe)
        {
            m.0 = PlayerState::at(sp.origin, sp.yaw);
            *v = Vitals::spawned();
            *inv = crate::game::Inventory::spawned();
            *still = Still {
                anchor: sp.origin,
                seconds: 0.0,
            };
        }
        let victims: Vec<EntId> = sim
            .cmap
            .bodies_in_box(sp.origin + PLAYER_MINS, sp.origin + PLAYER_MAXS)
            .filter(|&b| b != pid)
            .collect();
        for v in victims {
            if let Some(vi) = sim.players.iter().position(|p| p.0 == v) {
                kill(sim, vi, "telefrag", Some(pid));
            }
        }
        std::sync::Arc::make_mut(&mut sim.cmap).set_body(pid, sp.origin, PLAYER_MINS, PLAYER_MAXS);
        sim.events.push(SimEvent::Spawn {
            player: pid.0,
            spot,
        });
    }
}
