//! Hearing (reference 002 §10.2). A sound is heard when the ear is within the sound's
//! open-space audible distance (geometry is not considered). The bot can locate a sound with
//! probability 1 / n, where n counts the entities within [`LOCALISE_RADIUS`] of the sound that
//! could have made that kind of sound (the source included): alone it is certain, in a crowd
//! it is a guess. The decision is drawn once per sound from the bot's own random stream and
//! kept while the sound lasts.
//!
//! Entry points: [`hearing_system`], [`hear`], [`localisation_probability`].

use std::sync::Arc;

use glam::Vec3;

use crate::map::EntId;
use crate::map::level::TriggerKind;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::sim::Sim;
use crate::sim::components::{ItemSlot, Motion, PlayerRng, Vitals};
use crate::sim::rng::SimRng;
use crate::sim::sound::{Producers, Sound};

use super::{Heard, Percepts, Senses};

/// Radius around a sound in which possible producers are counted.
pub const LOCALISE_RADIUS: f32 = 256.0;

/// Chance of locating a sound with `n` possible producers around it.
pub fn localisation_probability(n: usize) -> f32 {
    1.0 / n.max(1) as f32
}

/// What a bot at `ear` hears of `sounds`: the audible ones, each located or not. Decisions in
/// `prior` (last tick's list) are kept; a new sound draws once from `rng`.
pub fn hear(
    me: Option<EntId>,
    ear: Vec3,
    senses: &Senses,
    sounds: &[Sound],
    prior: &[Heard],
    mut producers: impl FnMut(&Sound) -> usize,
    rng: &mut SimRng,
) -> Vec<Heard> {
    let mut out = Vec::new();
    for s in sounds {
        if s.source.is_some() && s.source == me {
            continue;
        }
        let distance = (s.pos - ear).length();
        if distance > s.kind.audible_distance() * senses.hearing {
            continue;
        }
        // `prior` was built in sound-id order (as this list is): a binary search finds it.
        let located = match prior.binary_search_by_key(&s.id, |h| h.sound) {
            Ok(i) => prior[i].position.is_some(),
            Err(_) => rng.unit() < localisation_probability(producers(s)),
        };
        out.push(Heard {
            sound: s.id,
            kind: s.kind,
            source: s.source,
            distance,
            position: located.then_some(s.pos),
        });
    }
    out
}

/// The hearing stage: fills every living bot's heard list from the sound list. Reads
/// [`Motion`], [`Vitals`], [`Senses`], item slots, mover positions and the sounds; writes
/// [`Percepts::heard`] and the bot's random stream (one draw per new sound).
pub fn hearing_system(sim: &mut Sim) {
    let level = Arc::clone(&sim.level);
    let players: Vec<Vec3> = sim
        .players
        .iter()
        .filter_map(|p| {
            let alive = sim
                .world
                .get::<&Vitals>(p.entity)
                .map(|v| v.alive)
                .unwrap_or(false);
            let m = sim.world.get::<&Motion>(p.entity).ok()?;
            alive.then_some(m.0.origin + (PLAYER_MINS + PLAYER_MAXS) * 0.5)
        })
        .collect();
    let items: Vec<Vec3> = sim
        .items
        .iter()
        .filter_map(|&e| sim.world.get::<&ItemSlot>(e).ok().map(|s| s.origin))
        .collect();
    let movers: Vec<Vec3> = level
        .movers
        .iter()
        .map(|m| {
            let (mn, mx) = sim.cmap.mover_bounds(m.id).unwrap_or((m.mins, m.maxs));
            (mn + mx) * 0.5
        })
        .collect();
    let teleporters: Vec<Vec3> = level
        .triggers
        .iter()
        .filter(|t| matches!(t.kind, TriggerKind::Teleport { .. }))
        .map(|t| (t.mins + t.maxs) * 0.5)
        .collect();
    let count = |s: &Sound| -> usize {
        let near = |ps: &[Vec3]| {
            ps.iter()
                .filter(|p| (**p - s.pos).length() <= LOCALISE_RADIUS)
                .count()
        };
        let n = match s.kind.producers() {
            Producers::Players => near(&players),
            Producers::Items => near(&items) + near(&players),
            Producers::Movers => near(&movers),
            Producers::Teleporters => near(&teleporters) + near(&players),
        };
        n.max(1)
    };
    let sounds = sim.sounds.sounds();
    // The producers around a sound are the same for every listener: count them once.
    let counts: Vec<(u64, usize)> = sounds.iter().map(|s| (s.id, count(s))).collect();
    let count = |s: &Sound| -> usize {
        counts
            .binary_search_by_key(&s.id, |c| c.0)
            .map(|i| counts[i].1)
            .unwrap_or_else(|_| count(s))
    };
    let mut view = sim
        .world
        .view_mut::<(&Motion, &Vitals, &Senses, &mut Percepts, &mut PlayerRng)>();
    for p in &sim.players {
        let id = p.id;
        let Some((motion, vitals, senses, percepts, rng)) = view.get_mut(p.entity) else {
            continue;
        };
        if !vitals.alive {
            percepts.heard.clear();
            continue;
        }
        let heard = hear(
            Some(id),
            motion.0.eye(),
            senses,
            sounds,
            &percepts.heard,
            count,
            &mut rng.0,
        );
        percepts.heard = heard;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::sound::{SoundKind, SoundList};

    fn one_sound(kind: SoundKind, pos: Vec3) -> Vec<Sound> {
        let mut l = SoundList::default();
        l.emit(kind, pos, Some(EntId(9)), 0, 20.0);
        l.sounds().to_vec()
    }

    #[test]
    fn heard_within_the_audible_distance_only() {
        let s = Senses::default();
        let mut rng = SimRng::new(1, 1);
        let step = one_sound(SoundKind::Footstep, Vec3::new(333.0, 0.0, 0.0));
        assert_eq!(
            hear(None, Vec3::ZERO, &s, &step, &[], |_| 1, &mut rng).len(),
            1
        );
        let step = one_sound(SoundKind::Footstep, Vec3::new(333.5, 0.0, 0.0));
        assert!(hear(None, Vec3::ZERO, &s, &step, &[], |_| 1, &mut rng).is_empty());
        let boom = one_sound(SoundKind::Explosion, Vec3::new(1999.0, 0.0, 0.0));
        assert_eq!(
            hear(None, Vec3::ZERO, &s, &boom, &[], |_| 1, &mut rng).len(),
            1
        );
        // Half hearing halves the distance.
        let deaf = Senses { hearing: 0.5, ..s };
        assert!(hear(None, Vec3::ZERO, &deaf, &boom, &[], |_| 1, &mut rng).is_empty());
        // Nobody hears their own sounds.
        assert!(hear(Some(EntId(9)), Vec3::ZERO, &s, &boom, &[], |_| 1, &mut rng).is_empty());
    }

    #[test]
    fn alone_a_sound_is_always_located() {
        let s = Senses::default();
        let snd = one_sound(SoundKind::Pain, Vec3::new(100.0, 0.0, 0.0));
        for seed in 0..50 {
            let mut rng = SimRng::new(seed, 3);
            let h = hear(None, Vec3::ZERO, &s, &snd, &[], |_| 1, &mut rng);
            assert_eq!(h[0].position, Some(Vec3::new(100.0, 0.0, 0.0)));
        }
    }

    #[test]
    fn localisation_is_exact_for_a_seed_and_one_in_n_over_seeds() {
        let s = Senses::default();
        let snd = one_sound(SoundKind::Footstep, Vec3::new(100.0, 0.0, 0.0));
        // A fixed seed gives a fixed answer.
        let mut a = SimRng::new(42, 7);
        let mut b = SimRng::new(42, 7);
        let ha = hear(None, Vec3::ZERO, &s, &snd, &[], |_| 4, &mut a);
        let hb = hear(None, Vec3::ZERO, &s, &snd, &[], |_| 4, &mut b);
        assert_eq!(ha, hb);
        // Over many seeds the located share is 1/n within 0.02 (n = 4: 0.25).
        for n in [2usize, 4, 8] {
            let trials = 10_000;
            let located = (0..trials)
                .filter(|&seed| {
                    let mut r = SimRng::new(seed, 7);
                    hear(None, Vec3::ZERO, &s, &snd, &[], |_| n, &mut r)[0]
                        .position
                        .is_some()
                })
                .count();
            let rate = located as f32 / trials as f32;
            let p = localisation_probability(n);
            assert!((rate - p).abs() < 0.02, "n {n}: rate {rate}, expected {p}");
        }
    }

    #[test]
    fn a_decision_is_kept_while_the_sound_lasts() {
        let s = Senses::default();
        let snd = one_sound(SoundKind::Footstep, Vec3::new(100.0, 0.0, 0.0));
        let mut rng = SimRng::new(5, 5);
        let first = hear(None, Vec3::ZERO, &s, &snd, &[], |_| 1000, &mut rng);
        for _ in 0..20 {
            let again = hear(None, Vec3::ZERO, &s, &snd, &first, |_| 1, &mut rng);
            assert_eq!(again[0].position, first[0].position);
        }
    }
}
