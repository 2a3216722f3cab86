//! Shooting: the weapons stage (players pull triggers, nails and rockets fly and hit,
//! grenades bounce and explode) and Quake's radius damage. What a hit does to a player
//! (quad, pentagram, armour, knockback, death and frags) is [`super::life`]'s; every
//! geometry question goes through the one collision module; grenades alone fly in rapier3d
//! ([`super::grenades`]).
//!
//! Quake 1 rules kept here (weapons.qc, combat.qc): pellets of one shot add up before they
//! hurt (multi-damage); splash does `damage − distance / 2` to a player's centre, halved for
//! the shooter, only where a line from the blast reaches the player's centre or a corner;
//! a rocket's direct hit does 100–120 and its splash spares the player it hit.
//!
//! The stage reads [`Aim`], [`Motion`] and [`Vitals`]; writes [`Inventory`] (weapon, ammo,
//! refire), [`PlayerStats`] (shots), the missiles and grenades in flight ([`Combat`]), the
//! players' random streams (spread), sounds, and damage.

use glam::Vec3;

use super::weapons::{Inventory, Weapon};
use crate::map::{Contents, EntId};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, angle_vectors};
use crate::sim::components::{Motion, PlayerRng, PlayerStats, Vitals};
use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::sound::SoundKind;
use crate::sim::{Player, Sim};

use super::life::{self, Damage};
use super::movers::damage_mover;

/// Nail and rocket speed, u/s.
pub const MISSILE_SPEED: f32 = 1000.0;
/// Grenade launch speed forward, plus 200 up.
pub const GRENADE_SPEED: f32 = 600.0;
/// Grenade fuse, seconds.
pub const GRENADE_FUSE: f32 = 2.5;
/// Splash damage of rockets and grenades at the blast.
pub const SPLASH: f32 = 120.0;
/// Lightning reach.
pub const LIGHTNING_RANGE: f32 = 600.0;
/// Axe reach.
pub const AXE_RANGE: f32 = 64.0;
/// Seconds a nail or rocket flies before it is removed.
pub const MISSILE_LIFE: f32 = 6.0;

/// A flying nail or rocket.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Missile {
    /// Stable id (launch order).
    pub id: u64,
    /// Nail damage, or a rocket.
    pub kind: MissileKind,
    /// Who fired it (it never touches its owner).
    pub owner: EntId,
    /// Where it is.
    pub pos: Vec3,
    /// Its velocity.
    pub vel: Vec3,
    /// Tick at which it is removed unhit.
    pub expires: u64,
}

/// What a missile is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MissileKind {
    /// A nail doing this much damage.
    Nail(f32),
    /// A rocket.
    Rocket,
}

/// Everything in flight.
#[derive(Default)]
pub struct Combat {
    /// Next projectile id.
    pub next_id: u64,
    /// Nails and rockets in launch order.
    pub missiles: Vec<Missile>,
    /// Grenades (rapier3d).
    pub grenades: super::grenades::GrenadeWorld,
}

/// Nails, rockets and grenades in flight, in launch order.
impl StateHash for Combat {
    fn hash_state(&self, h: &mut StateHasher) {
        for m in &self.missiles {
            h.u64(m.id);
            h.u64(m.owner.0 as u64);
            h.vec3(m.pos);
            h.vec3(m.vel);
            h.u64(m.expires);
        }
        for g in self.grenades.grenades() {
            let (p, v) = self.grenades.motion(g);
            h.u64(g.id);
            h.vec3(p);
            h.vec3(v);
            h.u64(g.explode_tick);
        }
    }
}

/// What a player wants its weapon to do this tick (written by the brain or a script).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Aim {
    /// View yaw and pitch to look along while moving where the movement stage says
    /// (`None`: look where it runs).
    pub view: Option<(f32, f32)>,
    /// Pull the trigger.
    pub fire: bool,
    /// Switch to this weapon first (when carried, with ammunition).
    pub weapon: Option<Weapon>,
}

impl Aim {
    /// Looks along `view` and pulls the trigger, when there is a view to shoot along.
    pub fn shoot_along(&mut self, view: Option<(f32, f32)>) {
        if view.is_some() {
            self.view = view;
            self.fire = true;
        }
    }
}

/// Quake's CanDamage: a line from the blast reaches the player's centre or one of four
/// corners of its box's middle.
fn can_damage(sim: &Sim, from: Vec3, centre: Vec3) -> bool {
    [
        Vec3::ZERO,
        Vec3::new(15.0, 15.0, 0.0),
        Vec3::new(-15.0, -15.0, 0.0),
        Vec3::new(-15.0, 15.0, 0.0),
        Vec3::new(15.0, -15.0, 0.0),
    ]
    .iter()
    .any(|o| {
        sim.cmap
            .trace_ray(from, centre + *o, Contents::SOLID, None)
            .fraction
            >= 1.0
    })
}

/// Splash damage at `at` (Quake's T_RadiusDamage): every living player except `spare` takes
/// `damage − distance to its centre / 2`, halved for `attacker` itself.
pub fn radius_damage(
    sim: &mut Sim,
    at: Vec3,
    damage: f32,
    attacker: EntId,
    spare: Option<EntId>,
    cause: &'static str,
) {
    let centre_off = (PLAYER_MINS + PLAYER_MAXS) * 0.5;
    let mut hits = Vec::new();
    for &p in &sim.players {
        let id = p.id;
        if Some(id) == spare {
            continue;
        }
        let (Ok(m), Ok(v)) = (
            sim.world.get::<&Motion>(p.entity),
            sim.world.get::<&Vitals>(p.entity),
        ) else {
            continue;
        };
        if !v.alive {
            continue;
        }
        let m = m.0;
        let c = m.origin + centre_off;
        let mut points = damage - 0.5 * (at - c).length();
        if id == attacker {
            points *= 0.5;
        }
        if points > 0.0 && can_damage(sim, at, c) {
            hits.push((p, points));
        }
    }
    for (p, points) in hits {
        let d = Damage {
            amount: points,
            cause,
            attacker: Some(attacker),
            from: Some(at),
        };
        life::damage(sim, p, d);
    }
    // Shootable movers: Quake measures to the centre of the mover's box and lets the blast
    // through when the line reaches that centre or ends on the mover itself.
    let doors: Vec<EntId> = sim
        .level
        .movers
        .iter()
        .filter(|m| m.kind.is_shootable())
        .map(|m| m.id)
        .collect();
    for id in doors {
        let Some((mn, mx)) = sim.cmap.mover_bounds(id) else {
            continue;
        };
        let c = (mn + mx) * 0.5;
        if damage - 0.5 * (at - c).length() <= 0.0 {
            continue;
        }
        let t = sim.cmap.trace_ray(at, c, Contents::SOLID, None);
        if t.fraction >= 1.0 || t.ent == Some(id) {
            damage_mover(sim, id);
        }
    }
}

/// A shot of `w` by `shooter` from `src` doing `amount`.
fn shot(amount: f32, w: Weapon, shooter: EntId, src: Vec3) -> Damage {
    Damage {
        amount,
        cause: w.name(),
        attacker: Some(shooter),
        from: Some(src),
    }
}

fn explode(sim: &mut Sim, at: Vec3, owner: EntId, spare: Option<EntId>, cause: &'static str) {
    sim.sound(SoundKind::Explosion, at, Some(owner));
    radius_damage(sim, at, SPLASH, owner, spare, cause);
}

/// A shot that ended on a mover damages it (see [`damage_mover`]).
fn hit_mover(sim: &mut Sim, t: &crate::map::Trace) {
    if let Some(id) = t.ent
        && t.contents != Contents::BODY
        && t.fraction < 1.0
    {
        damage_mover(sim, id);
    }
}

/// The player a trace hit, if it hit one.
fn hit_player(sim: &Sim, t: &crate::map::Trace) -> Option<Player> {
    let id = t.ent?;
    if t.contents != Contents::BODY {
        return None;
    }
    sim.player_by_id(id)
}

/// Fires `w` from `shooter` along its view. Ammunition is already spent.
fn fire(sim: &mut Sim, combat: &mut Combat, shooter: Player, w: Weapon) {
    let (id, e) = (shooter.id, shooter.entity);
    let Ok(s) = sim.world.get::<&Motion>(e).map(|m| m.0) else {
        return;
    };
    let (forward, right) = angle_vectors(s.yaw, s.pitch);
    let up = right.cross(forward);
    let tick = sim.tick;
    let rate = sim.tick_rate();
    if let Some(k) = w.sound() {
        sim.sound(k, s.origin, Some(id));
    }
    let src = s.origin + Vec3::new(0.0, 0.0, 16.0);
    match w {
        Weapon::Shotgun | Weapon::SuperShotgun => {
            let (pellets, spread) = if w == Weapon::Shotgun {
                (6, (0.04, 0.04))
            } else {
                (14, (0.14, 0.08))
            };
            let dirs: Vec<Vec3> = {
                let Ok(mut r) = sim.world.get::<&mut PlayerRng>(e) else {
                    return;
                };
                (0..pellets)
                    .map(|_| {
                        let cx = r.0.range(-1.0, 1.0) * spread.0;
                        let cy = r.0.range(-1.0, 1.0) * spread.1;
                        (forward + right * cx + up * cy).normalize()
                    })
                    .collect()
            };
            // Multi-damage: every pellet first, then each player hurt once.
            let mut acc: Vec<(Player, f32)> = Vec::new();
            for d in dirs {
                let t = sim
                    .cmap
                    .trace_ray(src, src + d * 2048.0, Contents::MASK_SHOT, Some(id));
                if let Some(victim) = hit_player(sim, &t) {
                    match acc.iter_mut().find(|a| a.0 == victim) {
                        Some(a) => a.1 += 4.0,
                        None => acc.push((victim, 4.0)),
                    }
                } else {
                    hit_mover(sim, &t);
                }
            }
            acc.sort_by_key(|a| a.0.id);
            for (victim, amount) in acc {
                life::damage(sim, victim, shot(amount, w, id, src));
            }
        }
        Weapon::Axe | Weapon::Lightning => {
            let (range, dmg) = if w == Weapon::Axe {
                (AXE_RANGE, 20.0)
            } else {
                (LIGHTNING_RANGE, 30.0)
            };
            let t = sim
                .cmap
                .trace_ray(src, src + forward * range, Contents::MASK_SHOT, Some(id));
            if let Some(victim) = hit_player(sim, &t) {
                life::damage(sim, victim, shot(dmg, w, id, src));
            } else {
                hit_mover(sim, &t);
            }
        }
        Weapon::Nailgun | Weapon::SuperNailgun | Weapon::RocketLauncher => {
            let kind = match w {
                Weapon::Nailgun => MissileKind::Nail(9.0),
                Weapon::SuperNailgun => MissileKind::Nail(18.0),
                _ => MissileKind::Rocket,
            };
            let pos = if kind == MissileKind::Rocket {
                src + forward * 8.0
            } else {
                src
            };
            let mid = combat.next_id;
            combat.next_id += 1;
            combat.missiles.push(Missile {
                id: mid,
                kind,
                owner: id,
                pos,
                vel: forward * MISSILE_SPEED,
                expires: tick + (MISSILE_LIFE * rate).round() as u64,
            });
        }
        Weapon::GrenadeLauncher => {
            let (cx, cy) = {
                let Ok(mut r) = sim.world.get::<&mut PlayerRng>(e) else {
                    return;
                };
                (r.0.range(-10.0, 10.0), r.0.range(-10.0, 10.0))
            };
            let vel = if s.pitch != 0.0 {
                forward * GRENADE_SPEED + up * 200.0 + right * cx + up * cy
            } else {
                forward * GRENADE_SPEED + Vec3::Z * 200.0 + right * cx + up * cy
            };
            let gid = combat.next_id;
            combat.next_id += 1;
            let dt = sim.dt;
            combat.grenades.launch(
                &sim.cmap,
                dt,
                gid,
                id,
                (s.origin, vel),
                tick + (GRENADE_FUSE * rate).round() as u64,
            );
        }
    }
}

/// The weapons stage: players pull triggers (id order), then nails and rockets fly and hit,
/// then grenades bounce and explode.
pub fn weapons_system(sim: &mut Sim, combat: &mut Combat) {
    let tick = sim.tick;
    let rate = sim.tick_rate();
    let mut shots = Vec::new();
    let mut view = sim
        .world
        .view_mut::<(&Aim, &mut Inventory, &Vitals, &mut PlayerStats)>();
    for &p in &sim.players {
        let Some((aim, inv, v, st)) = view.get_mut(p.entity) else {
            continue;
        };
        if !v.alive {
            continue;
        }
        if let Some(w) = aim.weapon
            && inv.can_fire(w)
        {
            inv.current = w;
        }
        if !inv.can_fire(inv.current) {
            inv.current = inv.best();
        }
        if !aim.fire || tick < inv.attack_ready {
            continue;
        }
        let w = inv.current;
        if !inv.spend(w) {
            continue;
        }
        inv.attack_ready = tick + ((w.refire() * rate).round() as u64).max(1);
        st.0.shots += 1;
        shots.push((p, w));
    }
    for (p, w) in shots {
        fire(sim, combat, p, w);
    }
    fly_missiles(sim, combat);
    fly_grenades(sim, combat);
}

/// Nails and rockets fly a tick; those that hit something hurt and explode and are gone, as
/// are those past their life. The others keep launch order.
fn fly_missiles(sim: &mut Sim, combat: &mut Combat) {
    let dt = sim.dt;
    let tick = sim.tick;
    combat.missiles.retain_mut(|m| {
        if tick >= m.expires {
            return false;
        }
        let to = m.pos + m.vel * dt;
        let t = sim
            .cmap
            .trace_ray(m.pos, to, Contents::MASK_SHOT, Some(m.owner));
        if t.fraction >= 1.0 && !t.start_solid {
            m.pos = to;
            return true;
        }
        let victim = hit_player(sim, &t);
        if victim.is_none() {
            hit_mover(sim, &t);
        }
        match m.kind {
            MissileKind::Nail(amount) => {
                if let Some(v) = victim {
                    let d = Damage {
                        amount,
                        cause: "nail",
                        attacker: Some(m.owner),
                        from: Some(m.pos),
                    };
                    life::damage(sim, v, d);
                }
            }
            MissileKind::Rocket => {
                let spare = victim.map(|v| v.id);
                if let Some(v) = victim {
                    let bonus = match sim.world.get::<&mut PlayerRng>(v.entity) {
                        Ok(mut r) => r.0.range(0.0, 20.0),
                        Err(_) => 0.0,
                    };
                    let d = Damage {
                        amount: 100.0 + bonus,
                        cause: "rocket",
                        attacker: Some(m.owner),
                        from: Some(t.end_pos),
                    };
                    life::damage(sim, v, d);
                }
                // Quake pulls the blast 8 units back out of the wall.
                let at = t.end_pos - m.vel.normalize_or_zero() * 8.0;
                explode(sim, at, m.owner, spare, "rocket");
            }
        }
        false
    });
}

/// Grenades bounce a tick; one that touches a player (not its thrower) or whose fuse is out
/// explodes.
fn fly_grenades(sim: &mut Sim, combat: &mut Combat) {
    let tick = sim.tick;
    let steps = combat.grenades.step(&sim.cmap);
    for st in steps {
        let g = st.grenade;
        // Touching a player (not its thrower) explodes it at once.
        let t = sim
            .cmap
            .trace_ray(st.from, st.to, Contents::BODY, Some(g.owner));
        let touched = hit_player(sim, &t).is_some();
        if touched || tick >= g.explode_tick {
            let at = if touched { t.end_pos } else { st.to };
            combat.grenades.remove(g.id);
            explode(sim, at, g.owner, None, "grenade");
        }
    }
}
