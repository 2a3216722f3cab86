//! Sounds in the world: a list of sound events that each stay for their duration (reference
//! 002 §10.2). Everything that makes a noise — movement, weapons, items, teleports, movers —
//! goes through [`SoundList::emit`].
//!
//! Audible distances are Quake's (qw-qc: every `sound()` call's attenuation; the engine
//! fades a sound at attenuation `a` to silence at 1000 / `a` units): ATTN_NORM (1) for
//! nearly everything — weapons, pain, jumps, landings, pickups, respawns, teleports, movers,
//! and explosions (the client plays `r_exp3` at attenuation 1) — ATTN_IDLE (2) for the ring
//! of shadows' breathing, ATTN_NONE (0, heard everywhere) for deaths. Quake has no
//! footsteps; a scenario may ask for them (`footsteps = true`) at the seed's 333 units.
//!
//! | sound | Quake's sound, attenuation | audible in open space | lasts |
//! |---|---|---|---|
//! | footstep (optional) | — | 333 | 0.3 s |
//! | jump | `plyrjmp8`, NORM | 1000 | 0.4 s |
//! | land (falling faster than 300) | `land`, `land2`, `h2ojump`, NORM | 1000 | 0.4 s |
//! | pain | `pain1`–`6`, NORM | 1000 | 0.5 s |
//! | death | `death1`–`5`, `gib`, … NONE | everywhere | 1.0 s |
//! | shotgun, super shotgun | `guncock`, `shotgn2`, NORM | 1000 | 0.5 s |
//! | nailgun, super nailgun | `rocket1i`, `spike2`, NORM | 1000 | 0.5 s |
//! | grenade and rocket launchers | `grenade`, `sgun1`, NORM | 1000 | 0.5 s |
//! | lightning (at most every 0.6 s) | `lhit`, NORM | 1000 | 0.5 s |
//! | explosion | `r_exp3`, 1 | 1000 | 1.0 s |
//! | item pickup, respawn | item noises, `itembk2`, NORM | 1000 | 0.5 s |
//! | teleport | `r_tele1`–`5`, NORM | 1000 | 1.0 s |
//! | plat/door/button/train | their noises, NORM | 1000 | 1.0 s |
//! | ring of shadows' breath (every 1–4 s) | `inv3`, IDLE | 500 | 0.5 s |
//!
//! Left out: grenade bounces, water splashes, gasps, the powerups' warnings and the axe's
//! hits (sounds a bot could react to, not yet made by the simulation).

use glam::Vec3;
use serde::Serialize;

use crate::map::EntId;

/// What made a sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SoundKind {
    /// A running player's step.
    Footstep,
    /// A jump.
    Jump,
    /// A landing.
    Land,
    /// A player hurt.
    Pain,
    /// A player dying.
    Death,
    /// Shotgun fire.
    Shotgun,
    /// Super shotgun fire.
    SuperShotgun,
    /// Nailgun fire.
    Nailgun,
    /// Super nailgun fire.
    SuperNailgun,
    /// Grenade launcher fire.
    GrenadeLauncher,
    /// Rocket launcher fire.
    RocketLauncher,
    /// Lightning gun fire.
    Lightning,
    /// A grenade or rocket exploding.
    Explosion,
    /// An item taken.
    ItemPickup,
    /// An item coming back.
    ItemRespawn,
    /// A teleport (at both ends).
    Teleport,
    /// A plat, door, button or train starting to move.
    Mover,
    /// The ring of shadows' breathing (its holder, every 1–4 s).
    Breath,
}

/// Which kinds of entities can make a sound of a kind (for localisation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Producers {
    /// Players.
    Players,
    /// Items and players (a pickup) or items alone (a respawn).
    Items,
    /// Movers.
    Movers,
    /// Teleporters and players.
    Teleporters,
}

impl SoundKind {
    /// Every kind, for tables.
    pub const ALL: [SoundKind; 18] = [
        SoundKind::Footstep,
        SoundKind::Jump,
        SoundKind::Land,
        SoundKind::Pain,
        SoundKind::Death,
        SoundKind::Shotgun,
        SoundKind::SuperShotgun,
        SoundKind::Nailgun,
        SoundKind::SuperNailgun,
        SoundKind::GrenadeLauncher,
        SoundKind::RocketLauncher,
        SoundKind::Lightning,
        SoundKind::Explosion,
        SoundKind::ItemPickup,
        SoundKind::ItemRespawn,
        SoundKind::Teleport,
        SoundKind::Mover,
        SoundKind::Breath,
    ];

    /// Farthest distance at which it is heard in open space (infinite: everywhere).
    pub fn audible_distance(self) -> f32 {
        use SoundKind::*;
        match self {
            Footstep => 333.0,
            Breath => 500.0,
            Death => f32::INFINITY,
            Jump | Land | Pain | Shotgun | SuperShotgun | Nailgun | SuperNailgun
            | GrenadeLauncher | RocketLauncher | Lightning | Explosion | ItemPickup
            | ItemRespawn | Teleport | Mover => 1000.0,
        }
    }

    /// How long it stays in the list, seconds.
    pub fn duration(self) -> f32 {
        use SoundKind::*;
        match self {
            Footstep => 0.3,
            Jump | Land => 0.4,
            Death | Explosion | Teleport | Mover => 1.0,
            _ => 0.5,
        }
    }

    /// What could have made it.
    pub fn producers(self) -> Producers {
        use SoundKind::*;
        match self {
            ItemPickup | ItemRespawn => Producers::Items,
            Mover => Producers::Movers,
            Teleport => Producers::Teleporters,
            _ => Producers::Players,
        }
    }
}

/// One sound in the world.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sound {
    /// Unique, increasing id.
    pub id: u64,
    /// What it is.
    pub kind: SoundKind,
    /// Where it was made.
    pub pos: Vec3,
    /// Who made it, if anyone.
    pub source: Option<EntId>,
    /// Tick it was made.
    pub tick: u64,
    /// First tick it is gone.
    pub expires: u64,
}

/// The sounds currently in the world, oldest first.
#[derive(Clone, Debug, Default)]
pub struct SoundList {
    sounds: Vec<Sound>,
    next_id: u64,
}

impl SoundList {
    /// Adds a sound made at `tick`; it stays for its kind's duration at `tick_rate`.
    pub fn emit(
        &mut self,
        kind: SoundKind,
        pos: Vec3,
        source: Option<EntId>,
        tick: u64,
        tick_rate: f32,
    ) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let ticks = ((kind.duration() * tick_rate).round() as u64).max(1);
        self.sounds.push(Sound {
            id,
            kind,
            pos,
            source,
            tick,
            expires: tick + ticks,
        });
        id
    }

    /// Drops the sounds whose time is over at `tick`.
    pub fn expire(&mut self, tick: u64) {
        self.sounds.retain(|s| s.expires > tick);
    }

    /// The sounds now in the list.
    pub fn sounds(&self) -> &[Sound] {
        &self.sounds
    }

    /// Number of sounds ever made.
    pub fn total(&self) -> u64 {
        self.next_id
    }
}

impl super::hash::StateHash for SoundList {
    fn hash_state(&self, h: &mut super::hash::StateHasher) {
        for s in &self.sounds {
            h.u64(s.id);
            h.u64(s.kind as u64);
            h.vec3(s.pos);
            h.u64(s.source.map(|e| e.0 as u64 + 1).unwrap_or(0));
            h.u64(s.expires);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sounds_stay_for_their_duration() {
        let mut l = SoundList::default();
        l.emit(SoundKind::Teleport, Vec3::ZERO, None, 10, 20.0);
        l.emit(SoundKind::Footstep, Vec3::ZERO, None, 10, 20.0);
        l.expire(15);
        assert_eq!(l.sounds().len(), 2);
        l.expire(16); // footstep: 0.3 s = 6 ticks, made at 10, gone at 16
        assert_eq!(l.sounds().len(), 1);
        l.expire(29);
        assert_eq!(l.sounds().len(), 1);
        l.expire(30); // teleport: 1 s = 20 ticks
        assert!(l.sounds().is_empty());
        assert_eq!(l.total(), 2);
    }

    #[test]
    fn every_kind_has_a_distance_and_a_duration() {
        for k in SoundKind::ALL {
            assert!(k.audible_distance() >= 333.0 && k.duration() > 0.0, "{k:?}");
        }
    }
}
