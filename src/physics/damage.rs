//! Damage from the environment, with Quake's numbers (client.qc `WaterMove`,
//! `PlayerPostThink`): lava 10 × water level every 0.2 s, slime 4 × water level every
//! second, drowning after 12 s with the eyes under (2 more each second, wrapping to 10 past
//! 15), and 5 for landing faster than 650 u/s on dry ground.

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
    /// Size of the last drowning hit.
    pub drown_damage: f32,
}

impl EnvTimers {
    /// Fresh timers (full air).
    pub fn new() -> EnvTimers {
        EnvTimers {
            air_left: AIR_SECONDS,
            ..Default::default()
        }
    }
}

/// Damage the environment deals this step (0 when none), updating the timers.
pub fn environment_damage(
    s: &PlayerState,
    landed_speed: Option<f32>,
    t: &mut EnvTimers,
    dt: f32,
) -> f32 {
    let mut dmg = 0.0;
    t.liquid_cooldown = (t.liquid_cooldown - dt).max(0.0);
    if s.water_type == Contents::LAVA && s.water_level > 0 {
        if t.liquid_cooldown <= T_EPS {
            dmg += 10.0 * s.water_level as f32;
            t.liquid_cooldown = 0.2;
        }
    } else if s.water_type == Contents::SLIME && s.water_level > 0 && t.liquid_cooldown <= T_EPS {
        dmg += 4.0 * s.water_level as f32;
        t.liquid_cooldown = 1.0;
    }
    if s.water_level == 3 {
        t.air_left -= dt;
        if t.air_left <= T_EPS {
            t.drown_cooldown -= dt;
            if t.drown_cooldown <= T_EPS {
                t.drown_damage += 2.0;
                if t.drown_damage > 15.0 {
                    t.drown_damage = 10.0;
                }
                dmg += t.drown_damage;
                t.drown_cooldown = 1.0;
            }
        }
    } else {
        t.air_left = AIR_SECONDS;
        t.drown_cooldown = 0.0;
        t.drown_damage = 0.0;
    }
    if let Some(v) = landed_speed
        && v > 650.0
        && s.water_level == 0
    {
        dmg += 5.0;
    }
    dmg
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
            .map(|_| environment_damage(&s, None, &mut t, 0.05))
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
            .map(|_| environment_damage(&s, None, &mut t, 0.05))
            .sum();
        assert_eq!(total, 16.0); // two seconds: hits at 0 and 1
    }

    #[test]
    fn hard_landing_hurts_on_dry_ground_only() {
        let s = PlayerState::at(Vec3::ZERO, 0.0);
        let mut t = EnvTimers::new();
        assert_eq!(environment_damage(&s, Some(700.0), &mut t, 0.05), 5.0);
        assert_eq!(environment_damage(&s, Some(600.0), &mut t, 0.05), 0.0);
    }
}
