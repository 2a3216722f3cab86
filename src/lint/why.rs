//! Why an item the area graph does not reach from any spawn point is out of reach, checked
//! again before it is reported: the travel-time planner (reference 004) runs from the floors
//! players do reach nearest the item, over the player physics itself; only where it too finds
//! no way is the item reported, with the likeliest reason — it rests on a mover, only a
//! teleporter nobody reaches leads there, it lies above every jump from the floors around,
//! or simply no way in was found. Entry point: [`Recheck::why`].

use glam::Vec3;

use crate::aas::NavMesh;
use crate::map::{CollisionMap, EntId, Level};
use crate::physics::pmove::PhysicsParams;
use crate::planner::times::ItemRef;
use crate::planner::{Plan, PlanConfig};

/// How far across (units) from an item the floors players reach are looked at.
const NEAR: f32 = 768.0;

/// How near (units) a door's box must come to an area to be on its way.
const TOUCH: f32 = 16.0;

/// Reached areas the planner starts from, nearest first.
const STARTS: usize = 3;

/// The highest a player gets onto from a floor without help: a jump's 44 units and a
/// step's 18 more (a ledge's lip is stepped onto at the top of the jump).
const JUMP_REACH: f32 = 62.0;

/// What the recheck found.
pub(super) enum Verdict {
    /// The planner found a way the area graph lacks: from where, and seconds.
    Reached(Vec3, f32),
    /// No way found; why, for people.
    Unreached(String),
}

/// The map as the recheck asks it: the planner's world, made on first use.
pub(super) struct Recheck<'a> {
    level: &'a Level,
    cmap: &'a CollisionMap,
    mesh: &'a NavMesh,
    /// Areas some spawn point reaches.
    reached: &'a [bool],
    planning: Option<(CollisionMap, Vec<Vec3>, PlanConfig)>,
    /// Planner expansions from each start ([`super::LintParams::plan_expansions`]).
    expansions: usize,
    /// The world with the movers where they start, made on first use.
    placed: std::cell::OnceCell<CollisionMap>,
}

impl<'a> Recheck<'a> {
    pub(super) fn new(
        level: &'a Level,
        cmap: &'a CollisionMap,
        mesh: &'a NavMesh,
        reached: &'a [bool],
        expansions: usize,
    ) -> Recheck<'a> {
        Recheck {
            level,
            cmap,
            mesh,
            reached,
            planning: None,
            expansions,
            placed: std::cell::OnceCell::new(),
        }
    }

    /// The verdict on `item`, which stands at `stand`.
    pub(super) fn why(&mut self, item: &ItemRef, stand: Vec3) -> Verdict {
        let near = self.nearest_reached(stand);
        if let Some(found) = self.plan_from(&near, item) {
            return found;
        }
        Verdict::Unreached(self.reason(item, stand, &near))
    }

    /// Reached areas within [`NEAR`] across of `at`, nearest first: (area, where a player
    /// stands in it nearest `at` (an origin), distance).
    fn nearest_reached(&self, at: Vec3) -> Vec<(u32, Vec3, f32)> {
        let mut out: Vec<(u32, Vec3, f32)> = self
            .mesh
            .areas()
            .iter()
            .filter(|a| self.reached[a.id as usize] && a.plane.is_some())
            .filter_map(|a| {
                let xy = at.truncate().clamp(a.mins.truncate(), a.maxs.truncate());
                let p = xy.extend(a.floor_z(xy));
                let d = p.distance(at);
                ((p.truncate() - at.truncate()).length() <= NEAR).then_some((a.id, p, d))
            })
            .collect();
        out.sort_by(|x, y| x.2.total_cmp(&y.2).then(x.0.cmp(&y.0)));
        out
    }

    /// The planner from up to [`STARTS`] of `near` to `item`'s pickup box.
    fn plan_from(&mut self, near: &[(u32, Vec3, f32)], item: &ItemRef) -> Option<Verdict> {
        let physics = PhysicsParams::default();
        let (level, cmap, expansions) = (self.level, self.cmap, self.expansions);
        let (open, free, cfg) = self.planning.get_or_insert_with(|| {
            let cfg = PlanConfig {
                expansions,
                stop_at_first: true,
                ..Default::default()
            };
            crate::planner::times::planning(level, cmap, &cfg)
        });
        for (k, &(_, p, _)) in near.iter().take(STARTS).enumerate() {
            let start = crate::nav::sample::stand_still(open, &physics, p);
            let mut c = cfg.clone();
            c.seed = crate::planner::times::pair_seed(0, item.index, k);
            let plan: Plan =
                crate::planner::plan(open, &physics, free, start, Some(&item.goal), &c);
            if let Some(t) = plan.time() {
                return Some(Verdict::Reached(start.origin, t));
            }
        }
        None
    }

    /// The areas no spawn point reaches from which a way leads to area `a` (with `a`).
    fn leading_to(&self, a: u32) -> Vec<u32> {
        let mut seen = vec![false; self.mesh.areas().len()];
        let (mut out, mut stack) = (Vec::new(), vec![a]);
        seen[a as usize] = true;
        while let Some(x) = stack.pop() {
            out.push(x);
            for r in self.mesh.reachabilities_to(x) {
                let f = r.from as usize;
                if !seen[f] && !self.reached[f] {
                    seen[f] = true;
                    stack.push(r.from);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The likeliest reason nobody gets to `item`.
    fn reason(&self, item: &ItemRef, stand: Vec3, near: &[(u32, Vec3, f32)]) -> String {
        let def = &self.level.items[item.index];
        // Resting on a mover: where the mover carries it, the graph (made with the movers
        // where they start) does not follow.
        let (mins, maxs) = def.kind.bounds();
        let placed = self.placed.get_or_init(|| {
            let mut placed = self.cmap.clone();
            crate::physics::movers::place_at_spawn(self.level, &mut placed);
            placed
        });
        let down = placed.trace(
            def.origin + Vec3::Z * 6.0,
            def.origin - Vec3::Z * 256.0,
            mins,
            maxs,
            crate::map::Contents::MASK_PLAYER_NO_BODIES,
            None,
        );
        if let Some(id) = down.ent.filter(|&e| e != EntId::WORLD)
            && let Some(m) = self.level.movers.iter().find(|m| m.id == id)
        {
            return format!(
                "it rests on {} (line {}), which moves: the areas are made with the movers \
                 where they start",
                m.classname, m.line
            );
        }
        // Only through a teleporter whose trigger nobody reaches.
        if let Some(a) = self.mesh.area_at(stand) {
            for t in crate::aas::teleporters(self.level) {
                let Some(d) = self.mesh.area_at(t.dest) else {
                    continue;
                };
                if self.reached[d as usize] {
                    continue;
                }
                if self.mesh.reachable_from(d, |_| true)[a as usize] {
                    let c = (t.mins + t.maxs) * 0.5;
                    return format!(
                        "only the teleporter at ({:.0} {:.0} {:.0}) leads there, and no \
                         spawn point reaches it",
                        c.x, c.y, c.z
                    );
                }
            }
        }
        // Behind a door: one shut where it starts touches the unreached areas that lead to
        // the item.
        if let Some(a) = self.mesh.area_at(stand) {
            let region = self.leading_to(a);
            for m in &self.level.movers {
                use crate::map::level::MoverKind;
                let opens = match m.kind {
                    MoverKind::Door { locked: true, .. } => "which a key opens (none in a match)",
                    MoverKind::Door {
                        shootable: true, ..
                    }
                    | MoverKind::SecretDoor {
                        shootable: true, ..
                    } => "which a shot opens",
                    MoverKind::Door { .. } | MoverKind::SecretDoor { .. } => match &m.targetname {
                        Some(_) => "which a button or trigger opens",
                        None => "which opens as players come near",
                    },
                    _ => continue,
                };
                let (lo, hi) = (m.mins - Vec3::splat(TOUCH), m.maxs + Vec3::splat(TOUCH));
                let touches = region.iter().any(|&r| {
                    let ar = &self.mesh.areas()[r as usize];
                    ar.mins.cmple(hi).all() && ar.maxs.cmpge(lo).all()
                });
                if touches {
                    return format!(
                        "behind {} (line {}), {opens}: the areas and the planner's world have \
                         it shut",
                        m.classname, m.line
                    );
                }
            }
        }
        // Above every jump: the floors reached around lie lower than a jump gets (heights
        // of a standing player's origin on both).
        let floor = stand.z;
        let below: Vec<&(u32, Vec3, f32)> = near.iter().filter(|n| n.1.z < floor).collect();
        if !below.is_empty() && below.len() == near.len() {
            let top = below
                .iter()
                .map(|n| n.1.z)
                .fold(f32::NEG_INFINITY, f32::max);
            if floor - top > JUMP_REACH {
                return format!(
                    "above every jump: the highest floor players reach within {NEAR:.0} \
                     units across is {:.0} units below it",
                    floor - top
                );
            }
        }
        match near.first() {
            Some(&(_, p, d)) => format!(
                "no way in found: the nearest floor players reach is ({:.0} {:.0} {:.0}), \
                 {d:.0} units away",
                p.x, p.y, p.z
            ),
            None => format!(
                "no floor players reach lies within {NEAR:.0} units across of it ({:.0} {:.0})",
                stand.x, stand.y
            ),
        }
    }
}
