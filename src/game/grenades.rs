//! Bouncing grenades, simulated in rapier3d: the map's solid brushes become static convex
//! hulls and its movers kinematic bodies (built once, on the first grenade); a grenade is a
//! small dynamic ball with CCD, Quake's gravity of 800 u/s², restitution 0.5 (Quake's
//! MOVETYPE_BOUNCE reflects with a backoff of 1.5) and no friction against walls.
//!
//! Touching a player is not rapier's business: each step the grenade's path is traced
//! against player bodies through the one collision module, and a touch explodes it (as
//! Quake's GrenadeTouch does). The rapier world is stepped only on ticks with a grenade in
//! flight, so matches without grenades pay nothing.

use glam::Vec3;
use rapier3d::prelude::{
    CoefficientCombineRule, ColliderBuilder, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle,
};

use crate::map::{CollisionMap, Contents, EntId};

/// Radius of the grenade ball (Quake's grenade is a point; a small ball keeps rapier's
/// contacts well-conditioned).
pub const GRENADE_RADIUS: f32 = 2.0;
/// Quake's gravity.
pub const GRAVITY: f32 = 800.0;
/// Bounce restitution (Quake: backoff 1.5 keeps half the normal speed).
pub const RESTITUTION: f32 = 0.5;

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
}

/// The rapier world and the grenades in it.
#[derive(Default)]
pub struct GrenadeWorld {
    world: Option<PhysicsWorld>,
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
        });
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
        let from: Vec<Vec3> = self
            .grenades
            .iter()
            .map(|g| w.bodies[g.body].translation())
            .collect();
        w.step();
        self.grenades
            .iter()
            .zip(from)
            .map(|(g, from)| GrenadeStep {
                grenade: *g,
                from,
                to: w.bodies[g.body].translation(),
            })
            .collect()
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
