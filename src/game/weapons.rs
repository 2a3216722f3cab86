//! Weapons, ammunition, powerups and what picking items up gives, with Quake 1's values
//! (weapons.qc, items.qc, client.qc).
//!
//! | weapon | ammo per shot | refire s | damage |
//! |---|---|---|---|
//! | axe | – | 0.5 | 20, reach 64 |
//! | shotgun | 1 shell | 0.5 | 6 pellets × 4, spread 0.04 |
//! | super shotgun | 2 shells | 0.7 | 14 pellets × 4, spread 0.14 × 0.08 |
//! | nailgun | 1 nail | 0.1 | nail 9 at 1000 u/s |
//! | super nailgun | 2 nails | 0.1 | nail 18 at 1000 u/s |
//! | grenade launcher | 1 rocket | 0.6 | 120 splash, 2.5 s fuse, bounces |
//! | rocket launcher | 1 rocket | 0.8 | 100–120 direct + 120 splash, 1000 u/s |
//! | lightning gun | 1 cell | 0.1 | 30, reach 600 |
//!
//! A player spawns with the axe, the shotgun and 25 shells. Ammo caps: 100 shells, 200 nails,
//! 100 rockets, 100 cells. Powerups last 30 s: quad damage (×4), pentagram (no damage),
//! ring (invisible to bots' eyes beyond 128 units is *not* modelled: the ring is only timed),
//! biosuit (no slime or lava damage, no drowning).

use serde::{Deserialize, Serialize};

use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::sound::SoundKind;

/// A weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// The axe (always carried).
    Axe,
    /// The shotgun (carried from spawn).
    Shotgun,
    /// The double-barrelled shotgun.
    SuperShotgun,
    /// The nailgun.
    Nailgun,
    /// The perforator.
    SuperNailgun,
    /// The grenade launcher.
    GrenadeLauncher,
    /// The rocket launcher.
    RocketLauncher,
    /// The thunderbolt.
    Lightning,
}

/// Every weapon, weakest first.
pub const WEAPONS: [Weapon; 8] = [
    Weapon::Axe,
    Weapon::Shotgun,
    Weapon::SuperShotgun,
    Weapon::Nailgun,
    Weapon::SuperNailgun,
    Weapon::GrenadeLauncher,
    Weapon::RocketLauncher,
    Weapon::Lightning,
];

/// Kinds of ammunition (index into [`Inventory::ammo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Ammo {
    /// Shells.
    Shells = 0,
    /// Nails.
    Nails = 1,
    /// Rockets (and grenades).
    Rockets = 2,
    /// Cells.
    Cells = 3,
}

/// Most ammunition of each kind a player carries.
pub const MAX_AMMO: [u32; 4] = [100, 200, 100, 100];

/// Seconds a powerup lasts.
pub const POWERUP_SECONDS: f32 = 30.0;

impl Weapon {
    /// Its bit in [`Inventory::weapons`].
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    /// Ammunition used and how much per shot (`None` for the axe).
    pub fn ammo(self) -> Option<(Ammo, u32)> {
        Some(match self {
            Weapon::Axe => return None,
            Weapon::Shotgun => (Ammo::Shells, 1),
            Weapon::SuperShotgun => (Ammo::Shells, 2),
            Weapon::Nailgun => (Ammo::Nails, 1),
            Weapon::SuperNailgun => (Ammo::Nails, 2),
            Weapon::GrenadeLauncher | Weapon::RocketLauncher => (Ammo::Rockets, 1),
            Weapon::Lightning => (Ammo::Cells, 1),
        })
    }

    /// Seconds between shots.
    pub fn refire(self) -> f32 {
        match self {
            Weapon::Axe | Weapon::Shotgun => 0.5,
            Weapon::SuperShotgun => 0.7,
            Weapon::Nailgun | Weapon::SuperNailgun | Weapon::Lightning => 0.1,
            Weapon::GrenadeLauncher => 0.6,
            Weapon::RocketLauncher => 0.8,
        }
    }

    /// The sound its shot makes (`None`: the axe's swing is not heard).
    pub fn sound(self) -> Option<SoundKind> {
        Some(match self {
            Weapon::Axe => return None,
            Weapon::Shotgun => SoundKind::Shotgun,
            Weapon::SuperShotgun => SoundKind::SuperShotgun,
            Weapon::Nailgun => SoundKind::Nailgun,
            Weapon::SuperNailgun => SoundKind::SuperNailgun,
            Weapon::GrenadeLauncher => SoundKind::GrenadeLauncher,
            Weapon::RocketLauncher => SoundKind::RocketLauncher,
            Weapon::Lightning => SoundKind::Lightning,
        })
    }

    /// The weapon a `weapon_*` class gives, and the ammunition that comes with it.
    pub fn from_classname(class: &str) -> Option<(Weapon, Ammo, u32)> {
        Some(match class {
            "weapon_supershotgun" => (Weapon::SuperShotgun, Ammo::Shells, 5),
            "weapon_nailgun" => (Weapon::Nailgun, Ammo::Nails, 30),
            "weapon_supernailgun" => (Weapon::SuperNailgun, Ammo::Nails, 30),
            "weapon_grenadelauncher" => (Weapon::GrenadeLauncher, Ammo::Rockets, 5),
            "weapon_rocketlauncher" => (Weapon::RocketLauncher, Ammo::Rockets, 5),
            "weapon_lightning" => (Weapon::Lightning, Ammo::Cells, 15),
            _ => return None,
        })
    }

    /// Lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Weapon::Axe => "axe",
            Weapon::Shotgun => "shotgun",
            Weapon::SuperShotgun => "super_shotgun",
            Weapon::Nailgun => "nailgun",
            Weapon::SuperNailgun => "super_nailgun",
            Weapon::GrenadeLauncher => "grenade_launcher",
            Weapon::RocketLauncher => "rocket_launcher",
            Weapon::Lightning => "lightning",
        }
    }
}

/// The ammunition an `item_*` ammo box gives.
pub fn ammo_box(class: &str, spawnflags: u32) -> Option<(Ammo, u32)> {
    let big = spawnflags & 1 != 0;
    Some(match class {
        "item_shells" => (Ammo::Shells, if big { 40 } else { 20 }),
        "item_spikes" => (Ammo::Nails, if big { 50 } else { 25 }),
        "item_rockets" => (Ammo::Rockets, if big { 10 } else { 5 }),
        "item_cells" => (Ammo::Cells, if big { 12 } else { 6 }),
        _ => return None,
    })
}

/// A player's weapons, ammunition, refire timer and powerups. Timers are whole ticks so that
/// they never drift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Inventory {
    /// Weapons carried, one bit per [`Weapon`].
    pub weapons: u8,
    /// The weapon in hand.
    pub current: Weapon,
    /// Shells, nails, rockets, cells.
    pub ammo: [u32; 4],
    /// First tick at which the player may fire again.
    pub attack_ready: u64,
    /// Quad damage lasts until this tick.
    pub quad_until: u64,
    /// Pentagram of protection lasts until this tick.
    pub pent_until: u64,
    /// Ring of shadows lasts until this tick.
    pub ring_until: u64,
    /// Biosuit lasts until this tick.
    pub suit_until: u64,
    /// First tick at which the lightning gun's hit sound may play again (weapons.qc
    /// `t_width`: at most every 0.6 s).
    pub hum_ready: u64,
    /// Tick of the ring of shadows' next breath sound (client.qc `invisible_sound`).
    pub breath_at: u64,
    /// The muzzle flash of the last shot lights the player up until this tick (what gives
    /// a ring holder away).
    pub flash_until: u64,
}

impl Inventory {
    /// What a player spawns with: axe, shotgun, 25 shells.
    pub fn spawned() -> Inventory {
        Inventory {
            weapons: Weapon::Axe.bit() | Weapon::Shotgun.bit(),
            current: Weapon::Shotgun,
            ammo: [25, 0, 0, 0],
            attack_ready: 0,
            quad_until: 0,
            pent_until: 0,
            ring_until: 0,
            suit_until: 0,
            hum_ready: 0,
            breath_at: 0,
            flash_until: 0,
        }
    }

    /// Carries the weapon.
    pub fn has(&self, w: Weapon) -> bool {
        self.weapons & w.bit() != 0
    }

    /// Carries the weapon and enough ammunition for one shot.
    pub fn can_fire(&self, w: Weapon) -> bool {
        self.has(w)
            && match w.ammo() {
                None => true,
                Some((a, n)) => self.ammo[a as usize] >= n,
            }
    }

    /// Quad damage is on at `tick`.
    pub fn quad(&self, tick: u64) -> bool {
        tick < self.quad_until
    }

    /// Hard to see at `tick`: the ring of shadows is on and no muzzle flash lights its
    /// holder up.
    pub fn hidden(&self, tick: u64) -> bool {
        tick < self.ring_until && tick >= self.flash_until
    }

    /// Adds ammunition up to the cap; false when already full.
    pub fn add_ammo(&mut self, a: Ammo, n: u32) -> bool {
        let slot = &mut self.ammo[a as usize];
        if *slot >= MAX_AMMO[a as usize] {
            return false;
        }
        *slot = (*slot + n).min(MAX_AMMO[a as usize]);
        true
    }

    /// Picks up a weapon, ammunition or powerup by class name at `tick` (`rate` ticks per
    /// second). Returns whether it was taken (full ammunition is left lying, as in Quake).
    pub fn pickup(&mut self, class: &str, spawnflags: u32, tick: u64, rate: f32) -> bool {
        if let Some((w, a, n)) = Weapon::from_classname(class) {
            // Quake deathmatch 1: a weapon is always taken (for its ammunition) and, when
            // new, switched to if better than the one in hand.
            let new = !self.has(w);
            self.weapons |= w.bit();
            self.add_ammo(a, n);
            if new && w > self.current {
                self.current = w;
            }
            return true;
        }
        if let Some((a, n)) = ammo_box(class, spawnflags) {
            return self.add_ammo(a, n);
        }
        let until = tick + (POWERUP_SECONDS * rate).round() as u64;
        match class {
            "item_artifact_super_damage" => self.quad_until = until,
            "item_artifact_invulnerability" => self.pent_until = until,
            "item_artifact_invisibility" => self.ring_until = until,
            "item_artifact_envirosuit" => self.suit_until = until,
            _ => return true, // keys and the like: taken, no effect in deathmatch
        }
        true
    }

    /// Spends one shot's ammunition for `w`; false when there is not enough.
    pub fn spend(&mut self, w: Weapon) -> bool {
        match w.ammo() {
            None => true,
            Some((a, n)) => {
                let slot = &mut self.ammo[a as usize];
                if *slot < n {
                    return false;
                }
                *slot -= n;
                true
            }
        }
    }

    /// The weapon to open a shootable door or button with: one whose shot lands at once
    /// and cannot hurt the shooter — the shotgun every player carries first, then the other
    /// hitscan ones (the lightning gun not `wet`, in water above the waist, where it
    /// discharges) — before anything that flies or blows up (a rocket at a door beside a
    /// bot hurt it by a third of its health and threw it off the door's way; a nail flies
    /// for a while); the axe when nothing fires.
    pub fn opening_weapon(&self, wet: bool) -> Weapon {
        use Weapon::*;
        [
            Shotgun,
            SuperShotgun,
            Lightning,
            Nailgun,
            SuperNailgun,
            RocketLauncher,
            GrenadeLauncher,
        ]
        .into_iter()
        .find(|&w| self.can_fire(w) && !(wet && w == Lightning))
        .unwrap_or(Axe)
    }

    /// The best weapon it can fire now (Quake's W_BestWeapon order, lightning last-but-one
    /// under water is not modelled): rockets are never chosen automatically, as in Quake.
    pub fn best(&self) -> Weapon {
        for w in [
            Weapon::Lightning,
            Weapon::SuperNailgun,
            Weapon::SuperShotgun,
            Weapon::Nailgun,
            Weapon::Shotgun,
        ] {
            if self.can_fire(w) {
                return w;
            }
        }
        Weapon::Axe
    }
}

impl StateHash for Inventory {
    fn hash_state(&self, h: &mut StateHasher) {
        h.u64(self.weapons as u64 | (self.current as u64) << 8);
        for a in self.ammo {
            h.u64(a as u64);
        }
        h.u64(self.attack_ready);
        h.u64(self.quad_until);
        h.u64(self.pent_until);
        h.u64(self.ring_until);
        h.u64(self.suit_until);
        h.u64(self.hum_ready);
        h.u64(self.breath_at);
        h.u64(self.flash_until);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A door or button is opened with a shot that lands at once and cannot hurt the
    /// shooter: the shotgun while it has shells, the lightning gun only out of the water, a
    /// rocket only when nothing else fires.
    #[test]
    fn movers_are_opened_with_a_hitscan_weapon() {
        let mut inv = Inventory::spawned();
        for (class, a) in [("weapon_rocketlauncher", 2usize), ("weapon_lightning", 3)] {
            assert!(inv.pickup(class, 0, 0, 20.0));
            assert!(inv.ammo[a] > 0);
        }
        assert_eq!(inv.opening_weapon(false), Weapon::Shotgun);
        inv.ammo[Ammo::Shells as usize] = 0;
        assert_eq!(inv.opening_weapon(false), Weapon::Lightning);
        assert_eq!(
            inv.opening_weapon(true),
            Weapon::RocketLauncher,
            "no lightning gun in water"
        );
        inv.ammo[Ammo::Cells as usize] = 0;
        inv.ammo[Ammo::Rockets as usize] = 0;
        assert_eq!(inv.opening_weapon(false), Weapon::Axe);
    }

    #[test]
    fn spawn_kit_and_spending() {
        let mut inv = Inventory::spawned();
        assert!(inv.has(Weapon::Shotgun) && inv.has(Weapon::Axe));
        assert!(!inv.has(Weapon::RocketLauncher));
        assert_eq!(inv.ammo, [25, 0, 0, 0]);
        assert!(inv.spend(Weapon::SuperShotgun));
        assert_eq!(inv.ammo[0], 23);
        inv.ammo[0] = 1;
        assert!(!inv.can_fire(Weapon::SuperShotgun) || !inv.has(Weapon::SuperShotgun));
        assert!(!inv.spend(Weapon::SuperShotgun));
        assert_eq!(inv.ammo[0], 1, "a failed spend takes nothing");
        assert!(inv.spend(Weapon::Axe));
    }

    #[test]
    fn pickups_follow_quake() {
        let mut inv = Inventory::spawned();
        assert!(inv.pickup("weapon_rocketlauncher", 0, 0, 20.0));
        assert!(inv.has(Weapon::RocketLauncher));
        assert_eq!(inv.current, Weapon::RocketLauncher);
        assert_eq!(inv.ammo[Ammo::Rockets as usize], 5);
        assert!(inv.pickup("item_rockets", 1, 0, 20.0));
        assert_eq!(inv.ammo[Ammo::Rockets as usize], 15);
        inv.ammo[Ammo::Rockets as usize] = 100;
        assert!(!inv.pickup("item_rockets", 0, 0, 20.0), "full: left lying");
        assert!(inv.pickup("item_shells", 0, 0, 20.0));
        assert_eq!(inv.ammo[0], 45);
        assert!(inv.pickup("item_shells", 0, 0, 20.0));
        inv.ammo[0] = 95;
        inv.pickup("item_shells", 1, 0, 20.0);
        assert_eq!(inv.ammo[0], 100, "capped");
        assert!(inv.pickup("item_artifact_super_damage", 0, 100, 20.0));
        assert_eq!(inv.quad_until, 100 + 600);
        assert!(inv.quad(699) && !inv.quad(700));
    }

    #[test]
    fn best_weapon_needs_ammo() {
        let mut inv = Inventory::spawned();
        assert_eq!(inv.best(), Weapon::Shotgun);
        inv.ammo[0] = 0;
        assert_eq!(inv.best(), Weapon::Axe);
        inv.pickup("weapon_supernailgun", 0, 0, 20.0);
        assert_eq!(inv.best(), Weapon::SuperNailgun);
    }
}
