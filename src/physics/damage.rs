//! Damage from the environment, with Quake's numbers (qw-qc client.qc `WaterMove`,
//! `PlayerPostThink`, `CheckPowerups`): lava 10 × water level every 0.2 s (every second
//! under the biosuit), slime 4 × water level every second (none under the biosuit),
//! drowning after 12 s with the eyes under — 4, 6 … 14, then 10, 12, 14 … a second apart,
//! as WaterMove adds 2 to a counter that surfacing resets to 2 and that wraps to 10 past 15
//! (none under the biosuit, which keeps the air full) — and 5 for landing faster than
//! 650 u/s anywhere but in water (PlayerPostThink spares only CONTENT_WATER: a hard landing
//! in slime or lava hurts).

use serde::{Deserialize, Serialize};

use crate::map::Contents;

use super::pmove::PlayerState;

/// Timers below this count as run out (f32 sums of the tick length are not exact).
const T_EPS: f32 = 1e-4;

/// Seconds of air a player has under water.
pub const AIR_SECONDS: f32 = 12.0;

/// Timers the environment damage rules keep per player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EnvTimers {
    /// Seconds until liquid damage may hit again.
    pub liquid_cooldown: f32,
    /// Seconds of air left.
    pub air_left: f32,
    /// Seconds until the next drowning hit.
    pub drown_cooldown: f32,
    /// Size of the last drowning hit (QuakeC's `dmg`: 2 until the first hit).
    pub drown_damage: f32,
}

/// The drowning counter's value while breathing (client.qc: `self.dmg = 2`).
const DROWN_START: f32 = 2.0;

impl EnvTimers {
    /// Fresh timers (full air).
    pub fn new() -> EnvTimers {
        EnvTimers {
            air_left: AIR_SECONDS,
            drown_damage: DROWN_START,
            ..Default::default()
        }
    }
}

/// What the environment does to a player in one step, each a separate hit as in Quake.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EnvDamage {
    /// Lava or slime.
    pub liquid: f32,
    /// Drowning.
    pub drown: f32,
    /// A hard landing.
    pub fall: f32,
}

/// Damage the environment deals this step, updating the timers; `suit`: the biosuit is
/// worn.
pub fn environment_damage(
    s: &PlayerState,
    landed_speed: Option<f32>,
    t: &mut EnvTimers,
    dt: f32,
    suit: bool,
) -> EnvDamage {
    let mut out = EnvDamage::default();
    t.liquid_cooldown = (t.liquid_cooldown - dt).max(0.0);
    if s.water_type == Contents::LAVA && s.water_level > 0 {
        if t.liquid_cooldown <= T_EPS {
            out.liquid = 10.0 * s.water_level as f32;
            t.liquid_cooldown = if suit { 1.0 } else { 0.2 };
        }
    } else if s.water_type == Contents::SLIME
        && s.water_level > 0
        && t.liquid_cooldown <= T_EPS
        && !suit
    {
        out.liquid = 4.0 * s.water_level as f32;
        t.liquid_cooldown = 1.0;
    }
    if s.water_level == 3 && !suit {
        t.air_left -= dt;
        if t.air_left <= T_EPS {
            t.drown_cooldown -= dt;
            if t.drown_cooldown <= T_EPS {
                t.drown_damage += 2.0;
                if t.drown_damage > 15.0 {
                    t.drown_damage = 10.0;
                }
                out.drown = t.drown_damage;
                t.drown_cooldown = 1.0;
            }
        }
    } else {
        t.air_left = AIR_SECONDS;
        t.drown_cooldown = 0.0;
        t.drown_damage = DROWN_START;
    }
    if let Some(v) = landed_speed
        && v > 650.0
        && !(s.water_type == Contents::WATER && s.water_level > 0)
    {
        out.fall = 5.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn lava_hurts_ten_per_level_every_fifth_second() {
        let mut s = PlayerState::at(Vec3::ZERO, 0.0);
        s.water_type = Contents::LAVA;
        s.water_level = 1;
        let mut t = EnvTimers::new();
        let total: f32 = (0..20)
            .map(|_| environment_damage(&s, None, &mut t, 0.05, false).liquid)
            .sum();
        assert_eq!(total, 50.0); // one second: hits at 0, 0.2, 0.4, 0.6, 0.8
    }

    #[test]
    fn slime_hurts_four_per_level_each_second() {
        let mut s = PlayerState::at(Vec3::ZERO, 0.0);
        s.water_type = Contents::SLIME;
        s.water_level = 2;
        let mut t = EnvTimers::new();
        let total: f32 = (0..40)
            .map(|_| environment_damage(&s, None, &mut t, 0.05, false).liquid)
            .sum();
        assert_eq!(total, 16.0); // two seconds: hits at 0 and 1
    }

    #[test]
    fn hard_landing_hurts_anywhere_but_in_water() {
        // client.qc PlayerPostThink: `if (self.watertype == CONTENT_WATER)` only a splash.
        let mut s = PlayerState::at(Vec3::ZERO, 0.0);
        let mut t = EnvTimers::new();
        let fall = |s: &PlayerState, t: &mut EnvTimers, v| {
            environment_damage(s, Some(v), t, 0.05, false).fall
        };
        assert_eq!(fall(&s, &mut t, 700.0), 5.0);
        assert_eq!(fall(&s, &mut t, 600.0), 0.0);
        s.water_level = 1;
        s.water_type = Contents::WATER;
        assert_eq!(fall(&s, &mut t, 700.0), 0.0, "a splash in water");
        s.water_type = Contents::SLIME;
        assert_eq!(fall(&s, &mut t, 700.0), 5.0, "slime does not break a fall");
    }

    #[test]
    fn drowning_hits_4_6_to_14_then_wraps_to_10_and_surfacing_resets() {
        // client.qc WaterMove: air for 12 s; then each second dmg += 2, past 15 back to 10;
        // breathing sets dmg = 2.
        let mut s = PlayerState::at(Vec3::ZERO, 0.0);
        s.water_level = 3;
        s.water_type = Contents::WATER;
        let mut t = EnvTimers::new();
        let mut hits = Vec::new();
        for i in 0..(22 * 20) {
            let d = environment_damage(&s, None, &mut t, 0.05, false).drown;
            if d > 0.0 {
                hits.push((i, d));
            }
        }
        let amounts: Vec<f32> = hits.iter().map(|h| h.1).collect();
        assert_eq!(
            amounts,
            [
                4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 10.0, 12.0, 14.0, 10.0, 12.0
            ]
        );
        assert_eq!(
            hits[0].0,
            12 * 20 - 1,
            "first hit as the 12 s of air run out"
        );
        assert_eq!(hits[1].0 - hits[0].0, 20, "a second apart");
        // One breath resets the counter: the next drowning starts at 4 again.
        s.water_level = 2;
        environment_damage(&s, None, &mut t, 0.05, false);
        s.water_level = 3;
        let first = (0..(13 * 20))
            .map(|_| environment_damage(&s, None, &mut t, 0.05, false).drown)
            .find(|d| *d > 0.0);
        assert_eq!(first, Some(4.0));
        // The biosuit keeps the air full.
        let mut t = EnvTimers::new();
        let suited: f32 = (0..(30 * 20))
            .map(|_| environment_damage(&s, None, &mut t, 0.05, true).drown)
            .sum();
        assert_eq!(suited, 0.0);
    }
}
