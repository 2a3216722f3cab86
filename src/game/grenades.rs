//! Bouncing grenades, simulated in rapier3d: the map's solid brushes become static convex
//! hulls and its movers kinematic bodies (built once, on the first grenade); a grenade is a
//! small dynamic ball with CCD, Quake's gravity of 800 u/s², restitution 0.5 (Quake's
//! MOVETYPE_BOUNCE reflects with a backoff of 1.5) and no friction against walls.
//!
//! A grenade comes to rest as in QuakeWorld's `SV_Physics_Toss` (sv_phys.c): when a bounce
//! off a floor (a plane whose normal points up more than 0.7) leaves it rising slower than
//! [`STOP_SPEED`], it stops dead, sideways speed and all, and stays until the floor under
//! it goes away (a plat moving off) or something pushes it ([`GrenadeWorld::push`]).
//!
//! Touching a player is not rapier's business: each step the grenade's path is traced
//! against player bodies through the one collision module, and a touch explodes it (as
//! Quake's GrenadeTouch does). The rapier world is stepped only on ticks with a grenade in
//! flight, so matches without grenades pay nothing.

use glam::Vec3;
use rapier3d::prelude::{
    CoefficientCombineRule, ColliderBuilder, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle,
    RigidBodyType,
};

use crate::map::{CollisionMap, Contents, EntId};

/// Radius of the grenade ball (Quake's grenade is a point; a small ball keeps rapier's
/// contacts well-conditioned).
pub const GRENADE_RADIUS: f32 = 2.0;
/// Quake's gravity.
pub const GRAVITY: f32 = 800.0;
/// Bounce restitution (Quake: backoff 1.5 keeps half the normal speed).
pub const RESTITUTION: f32 = 0.5;
/// A floor bounce leaving less upward speed than this stops the grenade (sv_phys.c
/// `SV_Physics_Toss`: `velocity[2] < 60`).
pub const STOP_SPEED: f32 = 60.0;
/// Steepest floor a grenade rests on: the plane normal's up component (sv_phys.c: `> 0.7`).
pub const FLOOR_NORMAL: f32 = 0.7;

/// A grenade in flight.
#[derive(Clone, Copy, Debug)]
pub struct Grenade {
    /// Stable id (launch order).
    pub id: u64,
    /// Who threw it.
    pub owner: EntId,
    /// Its rapier body.
    body: RigidBodyHandle,
    /// Tick at which the fuse runs out.
    pub explode_tick: u64,
    /// At rest on a floor (no gravity, no motion).
    pub resting: bool,
}

/// The rapier world and the grenades in it.
#[derive(Default)]
pub struct GrenadeWorld {
    world: Option<PhysicsWorld>,
    dt: f32,
    movers: Vec<(EntId, RigidBodyHandle)>,
    grenades: Vec<Grenade>,
}

/// Where a grenade went during one step.
#[derive(Clone, Copy, Debug)]
pub struct GrenadeStep {
    /// The grenade.
    pub grenade: Grenade,
    /// Position before the step.
    pub from: Vec3,
    /// Position after the step.
    pub to: Vec3,
}

impl GrenadeWorld {
    fn build(cmap: &CollisionMap, dt: f32) -> (PhysicsWorld, Vec<(EntId, RigidBodyHandle)>) {
        let mut w = PhysicsWorld::new();
        w.gravity = Vec3::new(0.0, 0.0, -GRAVITY);
        w.integration_parameters.dt = dt;
        // One metre is about 32 units; rapier's tolerances scale with this.
        w.integration_parameters.length_unit = 32.0;
        for b in cmap.brushes() {
            if !b.contents.intersects(Contents::SOLID) {
                continue;
            }
            if let Some(c) = ColliderBuilder::convex_hull(&b.vertices) {
                w.insert_collider(c.restitution(0.0).friction(0.0), None);
            }
        }
        let mut movers = Vec::new();
        for (id, brushes, offset) in cmap.mover_geometry() {
            let body =
                w.insert_body(RigidBodyBuilder::kinematic_position_based().translation(offset));
            for b in brushes {
                if b.contents.intersects(Contents::SOLID)
                    && let Some(c) = ColliderBuilder::convex_hull(&b.vertices)
                {
                    w.insert_collider(c.restitution(0.0).friction(0.0), Some(body));
                }
            }
            movers.push((id, body));
        }
        (w, movers)
    }

    /// Grenades in flight, in launch order.
    pub fn grenades(&self) -> &[Grenade] {
        &self.grenades
    }

    /// Position and velocity of a grenade.
    pub fn motion(&self, g: &Grenade) -> (Vec3, Vec3) {
        let w = self.world.as_ref().expect("a grenade implies a world");
        let b = &w.bodies[g.body];
        (b.translation(), b.linvel())
    }

    /// Launches a grenade at `pos` with velocity `vel` (building the rapier world on first
    /// use).
    pub fn launch(
        &mut self,
        cmap: &CollisionMap,
        dt: f32,
        id: u64,
        owner: EntId,
        (pos, vel): (Vec3, Vec3),
        explode_tick: u64,
    ) {
        if self.world.is_none() {
            let (w, m) = Self::build(cmap, dt);
            self.world = Some(w);
            self.movers = m;
            self.dt = dt;
        }
        let w = self.world.as_mut().expect("just built");
        let body = w.insert_body(
            RigidBodyBuilder::dynamic()
                .translation(pos)
                .linvel(vel)
                .ccd_enabled(true)
                .can_sleep(false),
        );
        w.insert_collider(
            ColliderBuilder::ball(GRENADE_RADIUS)
                .restitution(RESTITUTION)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .friction(0.0)
                .friction_combine_rule(CoefficientCombineRule::Min)
                .density(1.0),
            Some(body),
        );
        self.grenades.push(Grenade {
            id,
            owner,
            body,
            explode_tick,
            resting: false,
        });
    }

    /// Sets a grenade's velocity (a `trigger_push`: triggers.qc sets a grenade's velocity
    /// as it does a player's); a resting grenade flies again.
    pub fn push(&mut self, id: u64, vel: Vec3) {
        let Some(w) = self.world.as_mut() else {
            return;
        };
        if let Some(g) = self.grenades.iter_mut().find(|g| g.id == id) {
            let b = &mut w.bodies[g.body];
            b.set_body_type(RigidBodyType::Dynamic, true);
            b.set_linvel(vel, true);
            g.resting = false;
        }
    }

    /// Advances every grenade by one tick (movers first follow the collision map's
    /// offsets); returns each grenade's path. Does nothing without grenades.
    pub fn step(&mut self, cmap: &CollisionMap) -> Vec<GrenadeStep> {
        if self.grenades.is_empty() {
            return Vec::new();
        }
        let w = self.world.as_mut().expect("a grenade implies a world");
        for &(id, body) in &self.movers {
            let off = cmap.mover_offset(id).unwrap_or(Vec3::ZERO);
            w.bodies[body].set_next_kinematic_translation(off);
        }
        let before: Vec<(Vec3, Vec3)> = self
            .grenades
            .iter()
            .map(|g| (w.bodies[g.body].translation(), w.bodies[g.body].linvel()))
            .collect();
        w.step();
        let dt = self.dt;
        let mut out = Vec::with_capacity(self.grenades.len());
        for (g, (from, v0)) in self.grenades.iter_mut().zip(before) {
            let b = &mut w.bodies[g.body];
            let (to, v) = (b.translation(), b.linvel());
            let floor = floor_normal(cmap, to);
            if g.resting {
                if floor.is_none() {
                    // Its floor moved away: it falls again.
                    g.resting = false;
                    b.set_body_type(RigidBodyType::Dynamic, true);
                }
            } else if floor.is_some_and(|n| n.z > FLOOR_NORMAL) {
                // On a floor: SV_Physics_Toss stops it when the bounce leaves it rising
                // slower than STOP_SPEED. Rapier reflects a touch on the next step, so a
                // touch ending this step is judged by the speed the reflection will leave
                // (half the fall speed), a reflection made this step by the speed it left.
                let bounced = v.z > v0.z - GRAVITY * dt + 1.0;
                let rising = if bounced { v.z } else { -v.z * RESTITUTION };
                if (bounced || v.z <= 0.0) && rising < STOP_SPEED {
                    g.resting = true;
                    b.set_linvel(Vec3::ZERO, false);
                    b.set_body_type(RigidBodyType::Fixed, true);
                }
            }
            out.push(GrenadeStep {
                grenade: *g,
                from,
                to,
            });
        }
        out
    }

    /// Removes a grenade (it exploded).
    pub fn remove(&mut self, id: u64) {
        if let Some(i) = self.grenades.iter().position(|g| g.id == id) {
            let g = self.grenades.remove(i);
            if let Some(w) = self.world.as_mut() {
                w.remove_body(g.body);
            }
        }
    }
}

/// The normal of the solid just under a grenade at `pos` (within a unit of its ball), if
/// any: what it bounced off or rests on.
fn floor_normal(cmap: &CollisionMap, pos: Vec3) -> Option<Vec3> {
    let t = cmap.trace_ray(
        pos,
        pos - Vec3::Z * (GRENADE_RADIUS + 1.0),
        Contents::SOLID,
        None,
    );
    (t.fraction < 1.0 || t.start_solid).then_some(t.normal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::builder::MapBuilder;

    fn floor_map() -> CollisionMap {
        let mut b = MapBuilder::new();
        b.solid(
            Vec3::new(-512.0, -512.0, -16.0),
            Vec3::new(512.0, 512.0, 0.0),
            "F",
        );
        b.solid(
            Vec3::new(256.0, -512.0, 0.0),
            Vec3::new(272.0, 512.0, 256.0),
            "W",
        );
        b.build().1
    }

    #[test]
    fn a_grenade_falls_bounces_lower_and_stays_on_the_floor() {
        let map = floor_map();
        let mut gw = GrenadeWorld::default();
        gw.launch(
            &map,
            0.05,
            1,
            EntId(9),
            (Vec3::new(0.0, 0.0, 100.0), Vec3::ZERO),
            1000,
        );
        let mut lowest = f32::MAX;
        let mut peak_after_bounce = f32::MIN;
        let mut bounced = false;
        for _ in 0..80 {
            let s = gw.step(&map)[0];
            lowest = lowest.min(s.to.z);
            if s.to.z > s.from.z {
                bounced = true;
            }
            if bounced {
                peak_after_bounce = peak_after_bounce.max(s.to.z);
            }
        }
        assert!(bounced, "it bounces");
        assert!(lowest > -1.0, "never through the floor: {lowest}");
        assert!(
            peak_after_bounce < 60.0,
            "restitution 0.5 keeps about a quarter of the height: {peak_after_bounce}"
        );
        let (p, _) = gw.motion(&gw.grenades()[0]);
        assert!(p.z < 8.0, "at rest on the floor: {p}");
    }

    #[test]
    fn a_grenade_bounces_off_a_wall_and_is_deterministic() {
        let map = floor_map();
        let run = || {
            let mut gw = GrenadeWorld::default();
            gw.launch(
                &map,
                0.05,
                1,
                EntId(9),
                (Vec3::new(100.0, 0.0, 40.0), Vec3::new(600.0, 0.0, 200.0)),
                1000,
            );
            let mut xs = Vec::new();
            for _ in 0..30 {
                xs.push(gw.step(&map)[0].to);
            }
            xs
        };
        let a = run();
        assert!(a.iter().all(|p| p.x < 256.0), "never through the wall");
        assert!(a.last().unwrap().x < 240.0, "came back off the wall");
        assert_eq!(a, run(), "same launch, same path");
    }
}
