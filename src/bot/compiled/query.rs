//! Route queries: [`CompiledNav`], the area graph shared by every compiled bot of a match
//! with the doors' state and the goal searches' answers ([`RouteAnswers`]), and
//! [`NavQuery`], the view routes are asked of: a route's first step
//! ([`NavQuery::first_step`]), an item's time ([`NavQuery::seconds`]), the opener a shut
//! door needs ([`NavQuery::choose_opener`]).

use crate::nav::lru::Lru;
use std::ops::ControlFlow;
use std::sync::Arc;

use glam::Vec3;

use super::LIQUID_HURT_MARGIN;
use super::ctx::{FollowCtx, door_coming, door_moving};
use super::doors::DoorState;
use crate::aas::route::{
    AreaCache, HierCache, HierRouter, Travel, border, build_cache_blocked, cross, floor_walk,
    nearest_on, repair,
};
use crate::aas::{AreaFlags, NavMesh};
use crate::map::CollisionMap;

/// Goal searches kept (each a few kilobytes on an id map).
pub const GOAL_CACHES: usize = 256;

/// A goal's answer: the hierarchy's while nothing is blocked, else a flat cache that leaves
/// the blocked reachabilities out (repaired, not rebuilt, as doors open and close).
#[derive(Clone, Debug)]
pub enum Answer {
    /// From the cluster/portal hierarchy.
    Hier(Arc<HierCache>),
    /// A flat cache up to date with the blocked reachabilities.
    Flat(Arc<AreaCache>),
}

impl Answer {
    /// The goal area.
    pub fn goal(&self) -> u32 {
        match self {
            Answer::Hier(h) => h.goal,
            Answer::Flat(c) => c.goal,
        }
    }

    /// What routes may use.
    pub fn travel(&self) -> Travel {
        match self {
            Answer::Hier(h) => h.travel,
            Answer::Flat(c) => c.travel,
        }
    }
}

/// The goal searches' answers, kept least recently used first out: the hierarchy's while
/// nothing is blocked, flat caches repaired with the blocked reachabilities while something
/// is. Each answer is a pure function of the mesh and the door state.
#[derive(Clone, Debug)]
pub struct RouteAnswers {
    pub(super) router: HierRouter,
    pub(super) goals: Lru<(u32, Travel), Arc<HierCache>>,
    pub(super) flat: Lru<(u32, Travel), Arc<AreaCache>>,
    /// Goal searches made (hierarchy and flat).
    pub searches: u64,
    /// Flat caches repaired after a door opened or closed.
    pub repairs: u64,
}

impl RouteAnswers {
    /// None yet, over `mesh`'s default clusters.
    pub fn new(mesh: &NavMesh) -> RouteAnswers {
        RouteAnswers {
            router: HierRouter::for_mesh(mesh),
            goals: Lru::new(),
            flat: Lru::new(),
            searches: 0,
            repairs: 0,
        }
    }
}

/// The compiled navigation a match's compiled-navigation bots share, in parts with their
/// own jobs: the graph (read only), the doors' state (written only by
/// [`DoorState::update`] from the movers, once a tick) and the goal searches' answers
/// (written only by the queries that make them). Routes are asked of a [`NavQuery`],
/// which reads the graph and the doors and keeps its answers.
#[derive(Clone, Debug)]
pub struct CompiledNav {
    /// The compiled navigation.
    pub mesh: Arc<NavMesh>,
    /// The doors' state: what is blocked now.
    pub doors: DoorState,
    /// The goal searches' answers.
    pub answers: RouteAnswers,
    /// The level's teleporters (a run into one is tried on the run, as jumps are).
    pub(super) teleporters: Vec<crate::aas::Teleporter>,
    /// The trigger boxes of the plats a player standing in holds up (those nothing
    /// targets), by mover id.
    pub(super) plat_triggers: Vec<(u32, Vec3, Vec3)>,
}

impl CompiledNav {
    /// Over `mesh` (compiled for `level`), with its default clusters; every reachability
    /// through a door that does not open by approach is blocked until
    /// [`DoorState::update`] sees it open.
    pub fn new(mesh: Arc<NavMesh>, level: &crate::map::Level, cmap: &CollisionMap) -> CompiledNav {
        CompiledNav {
            doors: DoorState::new(&mesh, level, cmap),
            answers: RouteAnswers::new(&mesh),
            mesh,
            teleporters: crate::aas::teleporters(level),
            plat_triggers: level
                .triggers
                .iter()
                .filter_map(|t| match t.kind {
                    crate::map::level::TriggerKind::PlatRaise { mover }
                        if level.movers[mover].targetname.is_none() =>
                    {
                        Some((level.movers[mover].id.0, t.mins, t.maxs))
                    }
                    _ => None,
                })
                .collect(),
        }
    }

    /// The route queries over the graph and the doors as they stand, keeping their
    /// answers in [`NavQuery::answers`].
    pub fn query(&mut self) -> NavQuery<'_> {
        NavQuery {
            mesh: &self.mesh,
            doors: &self.doors,
            answers: &mut self.answers,
            teleporters: &self.teleporters,
            plat_triggers: &self.plat_triggers,
        }
    }
}

/// Route queries (stateless but for the answers they keep): the graph and the doors read,
/// the answers of the goal searches made on first use and kept. Every answer is a pure
/// function of the graph and the door state.
#[derive(Debug)]
pub struct NavQuery<'a> {
    /// The compiled navigation.
    pub mesh: &'a Arc<NavMesh>,
    /// The doors' state.
    pub doors: &'a DoorState,
    /// The goal searches' answers.
    pub answers: &'a mut RouteAnswers,
    pub(super) teleporters: &'a [crate::aas::Teleporter],
    pub(super) plat_triggers: &'a [(u32, Vec3, Vec3)],
}

impl NavQuery<'_> {
    /// The answer for goal area `goal` under `travel`, searched on first use (the
    /// hierarchy's while nothing is blocked; a flat cache, repaired, while something is).
    pub fn goal(&mut self, goal: u32, travel: Travel) -> Answer {
        self.answer(goal, travel, self.doors.count > 0)
    }

    /// The hierarchy's answer for `goal`, as if every door stood open: the way a bot takes
    /// when the doors that are closed now cut it off from the goal (it opens them on the
    /// way — shoots a secret door — or waits).
    pub fn goal_through_doors(&mut self, goal: u32, travel: Travel) -> Answer {
        self.answer(goal, travel, false)
    }

    /// The answer for `goal`: a flat cache round the blocked reachabilities (`around`), or
    /// the hierarchy's.
    fn answer(&mut self, goal: u32, travel: Travel, around: bool) -> Answer {
        let key = (goal, travel);
        if around {
            if let Some(c) = self.answers.flat.get_mut(&key) {
                if c.revision != self.doors.blocked.revision {
                    repair(self.mesh, Arc::make_mut(c), &self.doors.blocked);
                    self.answers.repairs += 1;
                }
                return Answer::Flat(Arc::clone(c));
            }
            let c = Arc::new(build_cache_blocked(
                self.mesh,
                goal,
                travel,
                Some(&self.doors.blocked),
            ));
            self.answers.searches += 1;
            self.answers.flat.make_room(GOAL_CACHES);
            self.answers.flat.insert(key, Arc::clone(&c));
            return Answer::Flat(c);
        }
        if let Some(hc) = self.answers.goals.get_mut(&key) {
            return Answer::Hier(Arc::clone(hc));
        }
        let hc = Arc::new(self.answers.router.goal(self.mesh, goal, travel));
        self.answers.searches += 1;
        self.answers.goals.make_room(GOAL_CACHES);
        self.answers.goals.insert(key, Arc::clone(&hc));
        Answer::Hier(hc)
    }

    /// Seconds from the end of reachability `r` to the goal area's centre.
    pub fn time_after(&self, a: &Answer, r: u32) -> f32 {
        match a {
            Answer::Hier(h) => self.answers.router.time_after(self.mesh, h, r),
            Answer::Flat(c) => c.time[r as usize],
        }
    }

    /// The quickest first step out of `area` (where `from` stands) toward the goal that
    /// `skip` does not leave out: (seconds to the goal area's centre, reachability); ties
    /// go to the lower reachability id. Blocked reachabilities are left out unless the
    /// answer is a hierarchy's (made as if every door stood open, see
    /// [`NavQuery::goal_through_doors`]).
    pub fn first_step(
        &self,
        a: &Answer,
        area: u32,
        from: Vec3,
        skip: impl Fn(u32) -> bool,
    ) -> Option<(f32, u32)> {
        let mesh = self.mesh;
        mesh.reach_ids_from(area)
            .iter()
            .filter(|&&i| self.usable(a, i) && !skip(i))
            .filter_map(|&i| {
                let r = &mesh.reaches()[i as usize];
                let t = cross(mesh, area, from, r.start) + r.seconds + self.time_after(a, i);
                t.is_finite().then_some((t, i))
            })
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)))
    }

    /// Whether a route by answer `a` may take reachability `i`: its travel permits it, and
    /// it is not blocked now unless the answer is a hierarchy's (made as if every door
    /// stood open).
    pub(super) fn usable(&self, a: &Answer, i: u32) -> bool {
        (matches!(a, Answer::Hier(_)) || !self.doors.blocked.blocked[i as usize])
            && a.travel()
                .permits(self.mesh, &self.mesh.reaches()[i as usize])
    }

    /// For a bot at `from` in `area` that has strayed there off floor walk `was` (from a
    /// grounded area beside `area`, not into it): the walk from `area` back into `was`'s
    /// area, where running to the nearest point of the border between the two and on to
    /// `was` takes less than `seconds` (what the quickest way on from `area` takes); `None`
    /// otherwise. A walk's start is one point of what may be a long border: a bot carried a
    /// few units over a long border onto the strip beside the one it turns on, whose one
    /// walk back lies far along it, took the way round and went to and fro between the two.
    pub fn back_over_border(
        &self,
        a: &Answer,
        area: u32,
        from: Vec3,
        was: u32,
        seconds: f32,
        skip: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        let mesh = self.mesh;
        let usable = |i: u32| self.usable(a, i) && !skip(i);
        let w = &mesh.reaches()[was as usize];
        if w.from == area || w.to == area || !floor_walk(mesh, w) || !usable(was) {
            return None;
        }
        let back = mesh.reach_ids_from(area).iter().copied().find(|&i| {
            let r = &mesh.reaches()[i as usize];
            r.to == w.from && r.needs.is_empty() && floor_walk(mesh, r) && usable(i)
        })?;
        let (p, q) = border(mesh, &mesh.reaches()[back as usize]);
        let b = nearest_on(p, q, from.truncate()).extend(w.start.z);
        let t = cross(mesh, area, from, b)
            + cross(mesh, w.from, b, w.start)
            + w.seconds
            + self.time_after(a, was);
        (t < seconds).then_some(back)
    }

    /// Seconds from `from` to `to` over the area graph (to the goal area's centre when the
    /// two are in different areas); `None` where either is in no area or there is no route.
    pub fn seconds(&mut self, from: Vec3, to: Vec3, travel: Travel) -> Option<f32> {
        self.seconds_on(from, to, travel, false)
    }

    /// `travel`, or, where it finds no way at all from `from` to `to` (doors taken as open)
    /// and one that may go through slime and lava does, that one: a bot left where only a
    /// swim through slime leads on takes it rather than stand there. From dry ground only
    /// where the bot (`health` points) would live through it ([`LIQUID_HURT_MARGIN`]): bots
    /// that set off on a long swim through slime with less than full health died in it,
    /// again and again.
    pub fn or_through_liquids(
        &mut self,
        from: Vec3,
        to: Vec3,
        travel: Travel,
        health: f32,
    ) -> Travel {
        let wet = travel.with(Travel::SLIME).with(Travel::LAVA);
        let Some(a) = self.mesh.area_at(from) else {
            return travel;
        };
        if wet == travel
            || self.seconds_on(from, to, travel, true).is_some()
            || self.seconds_on(from, to, wet, true).is_none()
        {
            return travel;
        }
        let here = self.mesh.areas()[a as usize].flags;
        let in_it = here.has(AreaFlags::SLIME) || here.has(AreaFlags::LAVA);
        if in_it
            || self
                .liquid_hurt(from, to, wet)
                .is_some_and(|hurt| hurt * LIQUID_HURT_MARGIN < health)
        {
            wet
        } else {
            travel
        }
    }

    /// Health a player without the biosuit loses on the way from `from` to `to` under
    /// `travel` (doors taken as open): the seconds spent in slime and lava areas at what
    /// they hurt a player under (12 and 150 a second, [`crate::physics::damage`]); `None`
    /// where there is no way.
    pub fn liquid_hurt(&mut self, from: Vec3, to: Vec3, travel: Travel) -> Option<f32> {
        let goal = self.mesh.area_at(to)?;
        let ans = self.goal_through_doors(goal, travel);
        let mesh = self.mesh;
        let rate = |a: u32| {
            let f = mesh.areas()[a as usize].flags;
            if f.has(AreaFlags::LAVA) {
                150.0
            } else if f.has(AreaFlags::SLIME) {
                12.0
            } else {
                0.0
            }
        };
        let mut hurt = 0.0;
        self.walk_answer(
            &ans,
            from,
            |_| false,
            |area, at, step| match step {
                Some(i) => {
                    let r = &mesh.reaches()[i as usize];
                    hurt += rate(area) * (cross(mesh, area, at, r.start) + r.seconds);
                    ControlFlow::Continue(())
                }
                None => ControlFlow::Break(Some(hurt + rate(area) * cross(mesh, area, at, to))),
            },
        )
    }

    /// [`NavQuery::seconds`] as if every door stood open (`through`), or around those
    /// blocked now.
    pub(super) fn seconds_on(
        &mut self,
        from: Vec3,
        to: Vec3,
        travel: Travel,
        through: bool,
    ) -> Option<f32> {
        let a = self.mesh.area_at(from)?;
        let g = self.mesh.area_at(to)?;
        if a == g {
            return Some(cross(self.mesh, a, from, to));
        }
        let ans = if through {
            self.goal_through_doors(g, travel)
        } else {
            self.goal(g, travel)
        };
        self.first_step(&ans, a, from, |_| false).map(|s| s.0)
    }

    /// The first reachability blocked now (through a shut door) on the way from `from` to
    /// goal area `goal` taken as if every door stood open, leaving out what `skip` names;
    /// `None` where that way crosses no blocked one, or there is none.
    pub fn first_blocked(
        &mut self,
        from: Vec3,
        goal: u32,
        travel: Travel,
        skip: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        let ans = self.goal_through_doors(goal, travel);
        self.walk_answer(&ans, from, skip, |_, _, r| match r {
            Some(r) if self.doors.is_blocked(r) => ControlFlow::Break(Some(r)),
            Some(_) => ControlFlow::Continue(()),
            None => ControlFlow::Break(None),
        })
    }

    /// Follows `ans` from `from` step by step, leaving out what `skip` names: `each(area,
    /// at, step)` for every area the way passes, `step` the reachability it leaves by
    /// (`None` in the goal area), until `each` breaks with its answer; `None` where the way
    /// ends first.
    pub(super) fn walk_answer<T>(
        &self,
        ans: &Answer,
        from: Vec3,
        skip: impl Fn(u32) -> bool,
        mut each: impl FnMut(u32, Vec3, Option<u32>) -> ControlFlow<Option<T>>,
    ) -> Option<T> {
        let (mut area, mut at) = (self.mesh.area_at(from)?, from);
        // Each step comes nearer the goal; the bound only guards a broken cache.
        for _ in 0..self.mesh.areas().len() {
            if area == ans.goal() {
                return match each(area, at, None) {
                    ControlFlow::Break(t) => t,
                    ControlFlow::Continue(()) => None,
                };
            }
            let (_, r) = self.first_step(ans, area, at, &skip)?;
            if let ControlFlow::Break(t) = each(area, at, Some(r)) {
                return t;
            }
            let reach = &self.mesh.reaches()[r as usize];
            (area, at) = (reach.to, reach.end);
        }
        None
    }

    /// The opener to fire, from `from`, the door that blocked reachability `r` needs on the
    /// way to `goal`: of those with a way there, the one with the least time to it and on
    /// from it to `goal` through the door; (door's mover index, opener index, seconds to
    /// the opener). `None`: `r` needs no such door, or no opener can be got to.
    pub fn choose_opener(
        &mut self,
        r: u32,
        from: Vec3,
        goal: Vec3,
        travel: Travel,
    ) -> Option<(usize, usize, f32)> {
        let d = self.doors.needed.iter().find(|d| d.reaches.contains(&r))?;
        let door = d.mover;
        let places: Vec<Vec3> = d.openers.iter().map(|o| o.place()).collect();
        let mut best: Option<(f32, usize, f32)> = None;
        for (k, p) in places.into_iter().enumerate() {
            let Some(there) = self.seconds(from, p, travel) else {
                continue;
            };
            let Some(on) = self.seconds_on(p, goal, travel, true) else {
                continue;
            };
            if best.is_none_or(|b| there + on < b.0) {
                best = Some((there + on, k, there));
            }
        }
        best.map(|(_, k, there)| (door, k, there))
    }

    /// Where no opener of the door reachability `r` needs can be got to from `from`, the
    /// first door `shut` (mover index) on the way to one of them, with its opener (door's
    /// mover index, opener index, seconds to it, the reachability through it): a door
    /// opened by shooting a trigger seen only from a bridge a button slides out; with the
    /// bridge in, the bot presses the button first. One step of such a chain at a time:
    /// once the bridge is out, the trigger's own opener follows.
    pub fn chained_opener(
        &mut self,
        from: Vec3,
        r: u32,
        travel: Travel,
        shut: impl Fn(usize) -> bool,
    ) -> Option<(usize, usize, f32, u32)> {
        let places: Vec<Vec3> = self
            .doors
            .openers_for(r)?
            .1
            .iter()
            .map(|o| o.place())
            .collect();
        places.into_iter().find_map(|p| {
            let area = self.mesh.area_at(p)?;
            let b = self.first_blocked(from, area, travel, |x| x == r)?;
            if !shut(self.doors.openers_for(b)?.0) {
                return None;
            }
            let (door, k, t) = self.choose_opener(b, from, p, travel)?;
            Some((door, k, t, b))
        })
    }

    /// Whether any door that blocked reachabilities need is moving now.
    pub(super) fn doors_moving(&self, ctx: &FollowCtx) -> bool {
        self.doors.needed.iter().any(|d| door_moving(ctx, d.mover))
    }

    /// Whether every door that blocked reachabilities need and that moves now is on its way
    /// from where it rested to where it is fired to (a door opening, a bridge sliding out).
    pub(super) fn doors_coming(&self, ctx: &FollowCtx) -> bool {
        self.doors
            .needed
            .iter()
            .all(|d| !door_moving(ctx, d.mover) || door_coming(ctx, d.mover))
    }

    /// Of the openers of the shut door blocked reachability `r` needs, the quickest to get
    /// to from `from` whose way there is cut off only by a door on its way into place now
    /// (`coming`, a mover index: a bridge slid out by a button, from which a trigger is
    /// shot): (door's mover index, opener index, seconds to it with every door taken as
    /// open). `None` where no opener's way waits on such a door.
    pub(super) fn opener_past_coming(
        &mut self,
        from: Vec3,
        r: u32,
        travel: Travel,
        coming: impl Fn(usize) -> bool,
    ) -> Option<(usize, usize, f32)> {
        let (door, openers) = self.doors.openers_for(r)?;
        let places: Vec<Vec3> = openers.iter().map(|o| o.place()).collect();
        let mut best: Option<(usize, usize, f32)> = None;
        for (k, p) in places.into_iter().enumerate() {
            let Some(area) = self.mesh.area_at(p) else {
                continue;
            };
            let Some(b) = self.first_blocked(from, area, travel, |x| x == r) else {
                continue;
            };
            if !self.doors.openers_for(b).is_some_and(|(d, _)| coming(d)) {
                continue;
            }
            let Some(t) = self.seconds_on(from, p, travel, true) else {
                continue;
            };
            if best.is_none_or(|b| t < b.2) {
                best = Some((door, k, t));
            }
        }
        best
    }
}
