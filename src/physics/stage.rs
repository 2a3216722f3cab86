//! The physics stage: every living player moves by its command through [`pmove()`], in id
//! order, and its body in the collision map follows. Its jumps and hard landings make
//! sounds (footsteps too where the match asks for them: Quake has none); the run's movement counters (distance, jumps, time in liquid and on movers,
//! longest time in one spot) are kept here.
//!
//! This is the one module of `physics/` that imports from a layer above it (`sim`, for the
//! components it reads and writes): it is the short system wrapper of the pure function
//! beside it, as `bot/movement.rs` wraps `steer`.
//!
//! Reads [`Command`] and [`Vitals`]; writes [`Motion`], [`LastMove`], [`PlayerStats`],
//! [`Still`], player bodies, sounds and [`SimEvent::Jump`].

use glam::Vec3;

use crate::map::EntId;
use crate::sim::components::{Command, LastMove, Motion, PlayerStats, Still, Vitals};
use crate::sim::sound::SoundKind;
use crate::sim::{Sim, SimEvent};

use super::pmove::{PLAYER_MAXS, PLAYER_MINS, pmove};

/// Seconds between a running player's footsteps (staggered by id).
pub const FOOTSTEP_SECONDS: f32 = 0.4;

/// Player physics: every living player moves by its command, in id order, and its body in
/// the collision map follows.
pub fn physics_system(sim: &mut Sim) {
    let dt = sim.dt;
    let params = sim.params;
    let step_ticks = ((FOOTSTEP_SECONDS / dt).round() as u64).max(1);
    let mut sounds = Vec::new();
    let mut view = sim.world.view_mut::<(
        &mut Motion,
        &Command,
        &Vitals,
        &mut PlayerStats,
        &mut LastMove,
        &mut Still,
    )>();
    for p in &sim.players {
        let id = p.id;
        let Some((m, cmd, v, st, last, still)) = view.get_mut(p.entity) else {
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
        if sim.footsteps
            && next.on_ground.is_some()
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
