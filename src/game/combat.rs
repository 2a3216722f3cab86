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
/// Lightning damage per beam that hits.
pub const LIGHTNING_DAMAGE: f32 = 30.0;
/// Upward speed a player's lightning beam gives a player it hits (weapons.qc
/// LightningDamage).
pub const LIGHTNING_LIFT: f32 = 400.0;
/// Splash per cell of a lightning gun fired under water (weapons.qc W_FireLightning).
pub const DISCHARGE_PER_CELL: f32 = 35.0;
/// Seconds between the lightning gun's hit sounds (weapons.qc `t_width`).
pub const LIGHTNING_SOUND_EVERY: f32 = 0.6;
/// Seconds a shot's muzzle flash shows the shooter (Quake's EF_MUZZLEFLASH light lasts
/// about a tenth of a second; a watcher's eye keeps the place a little longer).
pub const FLASH_SECONDS: f32 = 0.5;
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
            h.u64(g.resting as u64);
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

/// Splash damage at `at` (Quake's T_RadiusDamage): every living player except `spare` whose
/// centre is within `damage + 40` (findradius) takes `damage − distance to its centre / 2`,
/// halved for `attacker` itself.
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
        // findradius: only entities whose box centre is within damage + 40 are considered.
        let dist = (at - c).length();
        if dist > damage + 40.0 {
            continue;
        }
        let mut points = damage - 0.5 * dist;
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
        let dist = (at - c).length();
        if dist > damage + 40.0 || damage - 0.5 * dist <= 0.0 {
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
    if w == Weapon::Lightning && s.water_level > 1 {
        discharge(sim, shooter, s.origin);
        return;
    }
    let sounds = w != Weapon::Lightning
        || sim.world.get::<&mut Inventory>(e).is_ok_and(|mut inv| {
            let now = tick >= inv.hum_ready;
            if now {
                inv.hum_ready = tick + (LIGHTNING_SOUND_EVERY * rate).round() as u64;
            }
            now
        });
    if let Some(k) = w.sound().filter(|_| sounds) {
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
        Weapon::Axe => {
            let t = sim.cmap.trace_ray(
                src,
                src + forward * AXE_RANGE,
                Contents::MASK_SHOT,
                Some(id),
            );
            if let Some(victim) = hit_player(sim, &t) {
                life::damage(sim, victim, shot(20.0, w, id, src));
            } else {
                hit_mover(sim, &t);
            }
        }
        Weapon::Lightning => lightning(sim, shooter, s.origin, forward),
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
            // weapons.qc W_FireGrenade: aimed up or down, 600 forward and 200 up with ±10
            // of noise; level, 600 along the aim and exactly 200 up.
            let vel = if s.pitch != 0.0 {
                forward * GRENADE_SPEED + up * 200.0 + right * cx + up * cy
            } else {
                forward * GRENADE_SPEED + Vec3::Z * 200.0
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

/// The lightning gun's beams (weapons.qc W_FireLightning, LightningDamage): a line from the
/// eyes (16 above the origin) 600 units along the aim finds where the beam ends in the
/// world; then three traces from the origin to 4 units past that end hurt what they meet
/// — the centre one, and two shifted sideways by `±16 × (−f.y, −f.y, 0)` where `f` is
/// the beam's vector *before* normalising (QuakeC discards `normalize`'s result and swaps
/// the components through an overwritten x). The shift is therefore 16 times the beam's
/// sideways length: only a beam aimed within a degree or so of the x axis has side beams
/// near the player; the others start far away, mostly outside the map (in Quake, in solid:
/// they hit nothing; here a side trace starting outside the map's bounds or in solid hits
/// nothing either). Each entity is hurt once (the side beams skip what an earlier beam
/// hit); a player hit by the centre beam is lifted by [`LIGHTNING_LIFT`] (QuakeC asks
/// whether the global `other` is a player, which in a QuakeWorld deathmatch it nearly
/// always is: read here as the one hit being a player).
fn lightning(sim: &mut Sim, shooter: Player, origin: Vec3, forward: Vec3) {
    let id = shooter.id;
    let eyes = origin + Vec3::new(0.0, 0.0, 16.0);
    let end = sim
        .cmap
        .trace_ray(
            eyes,
            eyes + forward * LIGHTNING_RANGE,
            Contents::SOLID,
            None,
        )
        .end_pos;
    let (p1, p2) = (origin, end + forward * 4.0);
    let f = p2 - p1;
    let side = Vec3::new(-f.y, -f.y, 0.0) * 16.0;
    let (lo, hi) = sim.cmap.bounds();
    let mut hit: Vec<Option<EntId>> = Vec::with_capacity(3);
    for (i, off) in [Vec3::ZERO, side, -side].into_iter().enumerate() {
        let a = p1 + off;
        if i > 0
            && (!crate::map::collision::touches(a, a, lo, hi)
                || sim.cmap.point_contents(a).intersects(Contents::SOLID))
        {
            hit.push(None);
            continue;
        }
        let t = sim
            .cmap
            .trace_ray(a, p2 + off, Contents::MASK_SHOT, Some(id));
        let ent = t.ent.filter(|_| t.fraction < 1.0);
        let fresh = ent.is_some() && !hit.contains(&ent);
        hit.push(ent);
        if !fresh {
            continue;
        }
        if let Some(victim) = hit_player(sim, &t) {
            if i == 0
                && let Ok(mut m) = sim.world.get::<&mut Motion>(victim.entity)
            {
                m.0.velocity.z += LIGHTNING_LIFT;
            }
            let d = shot(LIGHTNING_DAMAGE, Weapon::Lightning, id, origin);
            life::damage(sim, victim, d);
        } else {
            hit_mover(sim, &t);
        }
    }
}

/// A lightning gun fired with the water above the waist (weapons.qc W_FireLightning): every
/// cell goes at once as splash of [`DISCHARGE_PER_CELL`] per cell around the shooter, who
/// takes half of it like any splash on oneself.
fn discharge(sim: &mut Sim, shooter: Player, origin: Vec3) {
    let cells = match sim.world.get::<&mut Inventory>(shooter.entity) {
        Ok(mut inv) => {
            // The shot's cell is already spent; QuakeC counts it.
            let n = inv.ammo[super::weapons::Ammo::Cells as usize] + 1;
            inv.ammo[super::weapons::Ammo::Cells as usize] = 0;
            n
        }
        Err(_) => return,
    };
    radius_damage(
        sim,
        origin,
        DISCHARGE_PER_CELL * cells as f32,
        shooter.id,
        None,
        "discharge",
    );
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
        inv.flash_until = tick + ((FLASH_SECONDS * rate).round() as u64).max(1);
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
    let pushes = if steps.is_empty() {
        Vec::new()
    } else {
        crate::physics::push::pushes(&sim.level)
    };
    for st in steps {
        let g = st.grenade;
        // A push sets a grenade's velocity as it does a player's (triggers.qc), which
        // SV_Physics_Toss then clamps to sv_maxvelocity (2000) on each axis.
        if let Some(p) = pushes.iter().find(|p| {
            sim.triggers[p.trigger as usize].active
                && crate::map::collision::touches(st.to, st.to, p.mins, p.maxs)
        }) {
            let v = p.velocity.clamp(Vec3::splat(-2000.0), Vec3::splat(2000.0));
            combat.grenades.push(g.id, v);
            if p.once {
                sim.triggers[p.trigger as usize].active = false;
            }
        }
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
