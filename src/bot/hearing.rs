//! Hearing (reference 002 §10.2). A sound is heard when the ear is within the sound's
//! open-space audible distance (geometry is not considered). The bot can locate a sound with
//! probability 1 / n, where n counts the entities within [`LOCALISE_RADIUS`] of the sound that
//! could have made that kind of sound (the source included): alone it is certain, in a crowd
//! it is a guess. The decision is drawn once per sound from the bot's own random stream and
//! kept while the sound lasts.
//!
//! A bot with `hearing_model = "path"` (beyond the reference) measures a sound's distance
//! along the way through the map instead: the quickest route on the compiled area graph
//! between the sound and the ear (either way round, teleporters left out: sound does not
//! go through them), in seconds at running speed, times 320 u/s — a sound behind a wall
//! carries only as far as its way round. A sound where the graph has no area (mid-air,
//! more than 96 units above a floor) is measured straight. Cost: one goal search (the
//! hierarchy's, about 44 µs on dm4, kept while the bots stay in their areas) per listener
//! area and per sounding area, and a few reachability lookups per (listener, sound) pair
//! within straight audible reach; nothing for distance hearing.
//!
//! Entry points: [`hearing_system`], [`hear`], [`hear_by`], [`localisation_probability`],
//! [`HearingModel`].

use std::sync::{Arc, OnceLock};

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::aas::ReachKind;
use crate::aas::route::Travel;

use crate::map::EntId;
use crate::map::level::TriggerKind;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use crate::sim::Sim;
use crate::sim::components::{ItemSlot, Motion, PlayerRng, Vitals};
use crate::sim::parallel::JobSize;
use crate::sim::rng::SimRng;
use crate::sim::sound::{Producers, Sound};

use super::compiled::NavQuery;
use super::{Heard, Percepts, Senses};

/// Radius around a sound in which possible producers are counted.
pub const LOCALISE_RADIUS: f32 = 256.0;

/// Chance of locating a sound with `n` possible producers around it.
pub fn localisation_probability(n: usize) -> f32 {
    1.0 / n.max(1) as f32
}

/// How a bot measures a sound's distance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HearingModel {
    /// Straight through everything (reference 002).
    #[default]
    Distance,
    /// Along the way through the map (the compiled area graph).
    Path,
}

impl HearingModel {
    /// Its name in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            HearingModel::Distance => "distance",
            HearingModel::Path => "path",
        }
    }

    /// Parses `distance` or `path`.
    pub fn parse(s: &str) -> Result<HearingModel, String> {
        match s {
            "distance" => Ok(HearingModel::Distance),
            "path" => Ok(HearingModel::Path),
            _ => Err(format!(
                "unknown hearing model {s:?} (distance: straight; path: along the way through the map)"
            )),
        }
    }
}

/// What a bot at `ear` hears of `sounds`: the audible ones, each located or not. Decisions in
/// `prior` (last tick's list) are kept; a new sound draws once from `rng`.
pub fn hear<'a>(
    me: Option<EntId>,
    ear: Vec3,
    senses: &Senses,
    sounds: impl IntoIterator<Item = &'a Sound>,
    prior: &[Heard],
    producers: impl FnMut(&Sound) -> usize,
    rng: &mut SimRng,
) -> Vec<Heard> {
    hear_by(
        me,
        senses,
        sounds,
        prior,
        |s| (s.pos - ear).length(),
        producers,
        rng,
    )
}

/// [`hear`] with the distance to each sound measured by `distance` (a path hearer's way
/// through the map). `sounds` come in id order, as the sound list keeps them.
pub fn hear_by<'a>(
    me: Option<EntId>,
    senses: &Senses,
    sounds: impl IntoIterator<Item = &'a Sound>,
    prior: &[Heard],
    mut distance: impl FnMut(&Sound) -> f32,
    producers: impl FnMut(&Sound) -> usize,
    rng: &mut SimRng,
) -> Vec<Heard> {
    // Distances are measured only of the others' sounds (a path hearer's cost).
    let measured = sounds
        .into_iter()
        .filter(|s| !own(s, me))
        .map(|s| (s, distance(s)));
    hear_measured(me, senses, measured, prior, producers, rng)
}

/// Whether `s` is a sound `me` made (not heard by itself).
fn own(s: &Sound, me: Option<EntId>) -> bool {
    s.source.is_some() && s.source == me
}

/// [`hear_by`] over the sounds with their distances measured already.
fn hear_measured<'a>(
    me: Option<EntId>,
    senses: &Senses,
    sounds: impl IntoIterator<Item = (&'a Sound, f32)>,
    prior: &[Heard],
    mut producers: impl FnMut(&Sound) -> usize,
    rng: &mut SimRng,
) -> Vec<Heard> {
    let mut out = Vec::with_capacity(prior.len() + 4);
    // `prior` was built in sound-id order, as this list is: one cursor walks it alongside
    // (a binary search per sound was most of the stage with a hundred bots, each hearing
    // hundreds of footsteps).
    let mut next = 0;
    for (s, distance) in sounds {
        if own(s, me) {
            continue;
        }
        // A deaf bot (hearing 0) hears nothing, not even what carries everywhere.
        if senses.hearing <= 0.0 || distance > s.kind.audible_distance() * senses.hearing {
            continue;
        }
        while next < prior.len() && prior[next].sound < s.id {
            next += 1;
        }
        let located = match prior.get(next) {
            Some(h) if h.sound == s.id => h.position.is_some(),
            _ => rng.unit() < localisation_probability(producers(s)),
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

/// Each sound's position and squared audible distance, side by side for
/// [`maybe_in_reach`]'s tight loop.
fn spots(sounds: &[Sound]) -> Vec<[f32; 4]> {
    sounds
        .iter()
        .map(|s| {
            let a = s.kind.audible_distance();
            [s.pos.x, s.pos.y, s.pos.z, a * a]
        })
        .collect()
}

/// Writes to the front of `near` (as long as `spots`) the indices, in order, of the sounds
/// in `spots` (position, squared audible distance) that may be within reach of `ear` for a
/// bot of this `hearing`, each with its distance from `ear` (bit for bit the
/// `(pos - ear).length()` that [`hear`] measures), and returns how many: every sound [`hear`]
/// would hear is among them (the bound has a 1 % margin; a NaN or infinite one keeps the
/// sound).
fn maybe_in_reach(spots: &[[f32; 4]], ear: Vec3, hearing: f32, near: &mut [(u32, f32)]) -> usize {
    let reach2 = hearing * hearing * 1.01;
    let mut n = 0;
    for (i, q) in spots.iter().enumerate() {
        // The same sums as the exact distance's, in the same order.
        let (x, y, z) = (q[0] - ear.x, q[1] - ear.y, q[2] - ear.z);
        let d2 = x * x + y * y + z * z;
        let far = d2 > q[3] * reach2;
        // Written always, counted when kept: no branch in the loop (and the square roots,
        // off the hearing loop's chain of decisions, overlap).
        near[n] = (i as u32, d2.sqrt());
        n += !far as usize;
    }
    n
}

/// Seconds at running speed along the quickest way between `a` and `b` on the area graph,
/// either way round, teleporters left out, times 320 u/s; straight where either point is
/// over no area, unbounded where no way joins them.
pub fn path_distance(nav: &mut NavQuery<'_>, a: Vec3, b: Vec3) -> f32 {
    let travel = Travel::ALL.without(ReachKind::Teleport);
    // A sound in the air (a rocket's blast) is heard from the floor under it.
    let (Some((fa, _)), Some((fb, _))) = (nav.mesh.area_under(a), nav.mesh.area_under(b)) else {
        return (a - b).length();
    };
    let speed = crate::physics::pmove::PhysicsParams::default().max_speed;
    let there = nav.seconds(fa, fb, travel);
    let back = nav.seconds(fb, fa, travel);
    match (there, back) {
        (Some(x), Some(y)) => x.min(y) * speed,
        (Some(x), None) | (None, Some(x)) => x * speed,
        (None, None) => f32::INFINITY,
    }
}

/// The hearing stage: fills every living bot's heard list from the sound list. Reads
/// [`Motion`], [`Vitals`], [`Senses`], item slots, mover positions, the sounds and, for a
/// path hearer, the compiled navigation (goal searches made on use, in id order); writes
/// [`Percepts::heard`] and the bot's random stream (one draw per new sound). Distance
/// hearers are jobs on the worker pool; path hearers follow on this thread.
pub fn hearing_system(sim: &mut Sim, nav: Option<NavQuery<'_>>) {
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
    // What the listeners share, frozen at the stage's start: the sounds, their positions
    // and squared audible distances side by side, and the possible producers of each kind.
    let sounds = sim.sounds.sounds().to_vec();
    let spots = spots(&sounds);
    let ctx = Shared {
        counts: (0..sounds.len()).map(|_| OnceLock::new()).collect(),
        sounds,
        spots,
        players,
        items,
        movers,
        teleporters,
    };
    // The listeners, taken out of the world: distance hearers are one job each on the
    // worker pool (each reads the shared view and writes only its own list and random
    // stream); path hearers (with a compiled navigation) share its caches, so they hear
    // after, on this thread, in id order.
    let mut jobs: Vec<Listener> = Vec::new();
    let mut path: Vec<Listener> = Vec::new();
    {
        let mut view = sim
            .world
            .view_mut::<(&Motion, &Vitals, &Senses, &mut Percepts, &PlayerRng)>();
        for p in &sim.players {
            let Some((motion, vitals, senses, percepts, rng)) = view.get_mut(p.entity) else {
                continue;
            };
            if !vitals.alive {
                percepts.heard.clear();
                continue;
            }
            let l = Listener {
                id: p.id,
                e: p.entity,
                ear: motion.0.eye(),
                feet: motion.0.origin,
                senses: *senses,
                heard: std::mem::take(&mut percepts.heard),
                rng: rng.0.clone(),
            };
            if senses.hearing_model == HearingModel::Path && nav.is_some() {
                path.push(l);
            } else {
                jobs.push(l);
            }
        }
    }
    let (ctx, mut jobs) = sim.run_jobs(JobSize::Bot, ctx, jobs, |c, l| {
        NEAR.with(|near| {
            let mut near = near.borrow_mut();
            near.resize(c.spots.len(), (0, 0.0));
            let n = maybe_in_reach(&c.spots, l.ear, l.senses.hearing, &mut near);
            let sounds = near[..n].iter().map(|&(i, d)| (&c.sounds[i as usize], d));
            l.heard = hear_measured(
                Some(l.id),
                &l.senses,
                sounds,
                &l.heard,
                |s| c.producers(s),
                &mut l.rng,
            );
        })
    });
    if let Some(mut nav) = nav {
        let mut near = vec![(0, 0.0); ctx.spots.len()];
        for l in &mut path {
            let n = maybe_in_reach(&ctx.spots, l.ear, l.senses.hearing, &mut near);
            let sounds = near[..n].iter().map(|&(i, _)| &ctx.sounds[i as usize]);
            let (ear, feet, hearing) = (l.ear, l.feet, l.senses.hearing);
            l.heard = hear_by(
                Some(l.id),
                &l.senses,
                sounds,
                &l.heard,
                |s| {
                    let straight = (s.pos - ear).length();
                    // The way round is never shorter than the straight line: only sounds in
                    // straight reach are looked up.
                    if straight > s.kind.audible_distance() * hearing {
                        straight
                    } else {
                        path_distance(&mut nav, s.pos, feet).max(straight)
                    }
                },
                |s| ctx.producers(s),
                &mut l.rng,
            );
        }
    }
    jobs.append(&mut path);
    let mut view = sim.world.view_mut::<(&mut Percepts, &mut PlayerRng)>();
    for l in jobs {
        if let Some((percepts, rng)) = view.get_mut(l.e) {
            percepts.heard = l.heard;
            rng.0 = l.rng;
        }
    }
}

thread_local! {
    /// A hearing job's scratch: [`maybe_in_reach`]'s list (kept between ticks, not
    /// allocated per listener).
    static NEAR: std::cell::RefCell<Vec<(u32, f32)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What every listener of a tick reads: the sounds (in id order), each one's position and
/// squared audible distance ([`maybe_in_reach`]), and where the possible producers of each
/// kind are.
struct Shared {
    sounds: Vec<Sound>,
    /// Per sound, its producer count once a listener has asked ([`Shared::producers`]).
    counts: Vec<OnceLock<usize>>,
    spots: Vec<[f32; 4]>,
    /// Centres of the living players' boxes.
    players: Vec<Vec3>,
    items: Vec<Vec3>,
    movers: Vec<Vec3>,
    teleporters: Vec<Vec3>,
}

impl Shared {
    /// The possible producers of `s` within [`LOCALISE_RADIUS`] (at least 1: its own
    /// source). Asked only for a sound new to a listener (mostly the tick's new sounds), so
    /// counted on the first ask and kept for the tick: the same count for every listener,
    /// from the same frozen positions, whichever thread counted it.
    fn producers(&self, s: &Sound) -> usize {
        match self.sounds.binary_search_by_key(&s.id, |x| x.id) {
            Ok(i) => *self.counts[i].get_or_init(|| self.count(s)),
            Err(_) => self.count(s),
        }
    }

    fn count(&self, s: &Sound) -> usize {
        let near = |ps: &[Vec3]| {
            ps.iter()
                .filter(|p| (**p - s.pos).length() <= LOCALISE_RADIUS)
                .count()
        };
        let n = match s.kind.producers() {
            Producers::Players => near(&self.players),
            Producers::Items => near(&self.items) + near(&self.players),
            Producers::Movers => near(&self.movers),
            Producers::Teleporters => near(&self.teleporters) + near(&self.players),
        };
        n.max(1)
    }
}

/// A living bot hearing this tick, out of the world: its ear, senses, last tick's heard
/// list (replaced by this tick's) and its random stream.
struct Listener {
    id: EntId,
    e: hecs::Entity,
    ear: Vec3,
    feet: Vec3,
    senses: Senses,
    heard: Vec<Heard>,
    rng: SimRng,
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
    fn the_quick_bound_keeps_every_sound_the_exact_test_hears() {
        // Sounds on and around the edge of reach (footsteps at 333, blasts at 1000, deaths
        // everywhere), listeners of hearing 0, 0.5, 1 and 3: the sounds the bound keeps
        // include all that `hear` hears, and it drops the far ones (a fifth of them and
        // more are out of reach for hearing 1 or less).
        let mut l = SoundList::default();
        let kinds = [SoundKind::Footstep, SoundKind::Explosion, SoundKind::Death];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        let ear = Vec3::new(17.25, -3.5, 40.125);
        for k in 0..3000 {
            let kind = kinds[k % 3];
            let dir = Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5).normalize_or(Vec3::X);
            let scale = [0.5, 1.0, 3.0][k % 7 % 3];
            let r = kind.audible_distance().min(5000.0) * scale * (0.99 + 0.02 * rnd());
            l.emit(kind, ear + dir * r, Some(EntId(9)), 0, 20.0);
        }
        let sounds = l.sounds();
        let spots = spots(sounds);
        for hearing in [0.0, 0.5, 1.0, 3.0] {
            let senses = Senses {
                hearing,
                ..Senses::default()
            };
            let mut near = vec![(0, 0.0); sounds.len()];
            let n = maybe_in_reach(&spots, ear, hearing, &mut near);
            let mut rng = SimRng::new(1, 1);
            let all = hear(None, ear, &senses, sounds, &[], |_| 1, &mut rng);
            let mut rng = SimRng::new(1, 1);
            let kept = near[..n].iter().map(|&(i, d)| (&sounds[i as usize], d));
            let some = hear_measured(None, &senses, kept, &[], |_| 1, &mut rng);
            assert_eq!(all, some, "hearing {hearing}");
            for &(i, d) in &near[..n] {
                let exact = (sounds[i as usize].pos - ear).length();
                assert_eq!(d.to_bits(), exact.to_bits(), "distance of sound {i}");
            }
            if hearing > 0.0 {
                assert!(all.len() > 100, "some heard at {hearing}: {}", all.len());
            }
            if hearing > 0.0 && hearing <= 1.0 {
                assert!(
                    n < sounds.len() * 9 / 10,
                    "far ones dropped at {hearing}: {n}"
                );
            }
        }
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
        let boom = one_sound(SoundKind::Explosion, Vec3::new(999.0, 0.0, 0.0));
        assert_eq!(
            hear(None, Vec3::ZERO, &s, &boom, &[], |_| 1, &mut rng).len(),
            1
        );
        let far = one_sound(SoundKind::Explosion, Vec3::new(1001.0, 0.0, 0.0));
        assert!(hear(None, Vec3::ZERO, &s, &far, &[], |_| 1, &mut rng).is_empty());
        // Half hearing halves the distance.
        let deaf = Senses { hearing: 0.5, ..s };
        assert!(hear(None, Vec3::ZERO, &deaf, &boom, &[], |_| 1, &mut rng).is_empty());
        // A death is heard everywhere (ATTN_NONE), except by a bot that hears nothing.
        let death = one_sound(SoundKind::Death, Vec3::new(30000.0, 0.0, 0.0));
        assert_eq!(
            hear(None, Vec3::ZERO, &deaf, &death, &[], |_| 1, &mut rng).len(),
            1
        );
        let none = Senses { hearing: 0.0, ..s };
        assert!(hear(None, Vec3::ZERO, &none, &death, &[], |_| 1, &mut rng).is_empty());
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
