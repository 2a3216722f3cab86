//! "What is here": the questions about places that exploration, the planner, the CLI, the
//! benchmarks and the simulation's spawning all ask (botlib's `be_aas_sample`). Every answer
//! comes from traces through the one collision module; nothing here keeps state.
//!
//! - where players can stand: [`floor_points`] (a grid over every floor), [`player_fits`],
//!   [`free_spot`], [`free_spot_near`]; where liquids lie: [`liquid_surfaces`];
//! - putting things on the floor: [`drop_to_floor`] (Quake's droptofloor for items),
//!   [`settle`] (a user's point onto the floor under it), [`stand_still`] (a player settled
//!   by the physics);
//! - where a player stands to use something: [`item_stand_point`], [`item_touch_point`],
//!   [`teleporter_stand`];
//! - which waypoint is here: [`nearest_reaching`] (the nearest waypoint from which a point is
//!   reachable) and [`nearest_reached`] (the nearest waypoint a point reaches).

use glam::Vec3;

use crate::map::level::ItemKind;
use crate::map::{CollisionMap, Contents, EntId, Level, Trace};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd, pmove};

use super::reach::{ReachParams, reachable};
use super::waypoints::WaypointGraph;

/// Above the floor to a standing player's origin (Quake puts the feet 1/32 unit up).
pub const STAND: f32 = -PLAYER_MINS.z + 0.03125;

/// Points over the map's floor where a player stands clear of liquids and movers: a grid of
/// columns `spacing` apart, each traced down from the top of the map (every floor under a
/// column counts), in a fixed order.
pub fn floor_points(level: &Level, cmap: &CollisionMap, spacing: f32) -> Vec<Vec3> {
    let mut out = Vec::new();
    column_landings(cmap, spacing, |t| {
        let p = t.end_pos;
        if t.normal.z > 0.7
            && !t.contents.intersects(Contents::LIQUID)
            && !cmap.point_contents(p).intersects(Contents::LIQUID)
            && level.movers.iter().all(|m| {
                !crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, m.mins, m.maxs)
            })
        {
            out.push(p + Vec3::new(0.0, 0.0, 1.0));
        }
    });
    out
}

/// Points on the surfaces of the map's liquids, with the liquid: where a player's box
/// dropped down the columns of [`floor_points`] comes to rest on water, slime or lava (the
/// origin of a player whose feet are at the surface). Exploring bots look for pools nobody
/// has swum in among them.
pub fn liquid_surfaces(cmap: &CollisionMap, spacing: f32) -> Vec<(Vec3, Contents)> {
    let mut out = Vec::new();
    column_landings(cmap, spacing, |t| {
        let liquid = Contents(t.contents.0 & Contents::LIQUID.0);
        if !t.start_solid && liquid != Contents::EMPTY {
            out.push((t.end_pos, liquid));
        }
    });
    out
}

/// Every place a player's box comes to rest when dropped down a grid of columns `spacing`
/// apart from the top of the map (on floors and on liquids' surfaces, each column's in turn
/// from the top down), in a fixed order.
fn column_landings(cmap: &CollisionMap, spacing: f32, mut each: impl FnMut(&Trace)) {
    let (mn, mx) = cmap.bounds();
    let mut y = mn.y + spacing * 0.5;
    while y < mx.y {
        let mut x = mn.x + spacing * 0.5;
        while x < mx.x {
            // Walk down the column in 32-unit steps: wherever the box is free, drop it to
            // the floor below, keep that floor, and go on under it.
            let mut z = mx.z - PLAYER_MAXS.z - 1.0;
            while z > mn.z + 32.0 {
                let start = Vec3::new(x, y, z);
                if !player_fits(cmap, start) {
                    z -= 32.0;
                    continue;
                }
                let t = cmap.trace(
                    start,
                    Vec3::new(x, y, mn.z),
                    PLAYER_MINS,
                    PLAYER_MAXS,
                    Contents::MASK_PLAYER_NO_BODIES | Contents::LIQUID,
                    None,
                );
                if t.fraction >= 1.0 {
                    break;
                }
                each(&t);
                z = t.end_pos.z - 64.0;
            }
            x += spacing;
        }
        y += spacing;
    }
}

/// Whether a standing player's box fits at `p` (the map's brushes and movers; players are not
/// counted).
pub fn player_fits(cmap: &CollisionMap, p: Vec3) -> bool {
    !cmap
        .trace(
            p,
            p,
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            None,
        )
        .start_solid
}

/// `want` when a standing player's box fits there; else the first fit on the way from `want`
/// toward `fallback` (a place a player stood), in eighths; else `fallback`.
pub fn free_spot(cmap: &CollisionMap, want: Vec3, fallback: Vec3) -> Vec3 {
    for k in 0..=8 {
        let p = want + (fallback - want) * (k as f32 / 8.0);
        if player_fits(cmap, p) {
            return p;
        }
    }
    fallback
}

/// `origin` when a player fits there (other players' bodies counted), else the nearest spot
/// on a ring of 8 directions at 40, 80 or 120 units that a player fits in, can walk to
/// straight and stands on floor; else `origin`. Where more players start than a map has
/// spawn points, they stand beside a taken one rather than inside another player.
pub fn free_spot_near(cmap: &CollisionMap, origin: Vec3) -> Vec3 {
    let fits = |p: Vec3| {
        !cmap
            .trace(p, p, PLAYER_MINS, PLAYER_MAXS, Contents::MASK_PLAYER, None)
            .start_solid
    };
    if fits(origin) {
        return origin;
    }
    for r in [40.0f32, 80.0, 120.0] {
        for k in 0..8 {
            let a = (45.0 * k as f32).to_radians();
            let p = origin + Vec3::new(a.cos(), a.sin(), 0.0) * r;
            let way = cmap.trace(
                origin,
                p,
                PLAYER_MINS,
                PLAYER_MAXS,
                Contents::MASK_PLAYER_NO_BODIES,
                None,
            );
            let floor = cmap.trace(
                p,
                p - Vec3::new(0.0, 0.0, 32.0),
                PLAYER_MINS,
                PLAYER_MAXS,
                Contents::MASK_PLAYER_NO_BODIES,
                None,
            );
            if way.fraction >= 1.0 && floor.fraction < 1.0 && fits(p) {
                return p;
            }
        }
    }
    origin
}

/// Quake's droptofloor: lift 6 units, then sweep the item box `(mins, maxs)` down until it
/// lands (256 units at most); an item stuck in solid, or with no floor below, stays where the
/// map put it.
pub fn drop_to_floor(cmap: &CollisionMap, origin: Vec3, (mins, maxs): (Vec3, Vec3)) -> Vec3 {
    let start = origin + Vec3::new(0.0, 0.0, 6.0);
    let tr = cmap.trace(
        start,
        start - Vec3::new(0.0, 0.0, 256.0),
        mins,
        maxs,
        Contents::MASK_PLAYER_NO_BODIES,
        None,
    );
    if tr.start_solid || tr.fraction == 1.0 {
        origin
    } else {
        tr.end_pos
    }
}

/// The mover a thing with box `(mins, maxs)` at `origin` rests on, if it rests on one (a
/// mover's brush right under it).
pub fn resting_on(cmap: &CollisionMap, origin: Vec3, (mins, maxs): (Vec3, Vec3)) -> Option<EntId> {
    let tr = cmap.trace(
        origin,
        origin - Vec3::new(0.0, 0.0, 1.0),
        mins,
        maxs,
        Contents::MASK_PLAYER_NO_BODIES,
        None,
    );
    tr.ent
        .filter(|&e| e != EntId::WORLD && tr.fraction < 1.0 && !tr.start_solid)
}

/// A player origin given by a person (whose z is rarely exact) settled onto the floor under
/// it: the player box swept from 18 units above to 64 below; `p` itself when it starts in
/// solid or finds no floor.
pub fn settle(cmap: &CollisionMap, p: Vec3) -> Vec3 {
    let top = p + Vec3::Z * 18.0;
    let t = cmap.trace(
        top,
        p - Vec3::Z * 64.0,
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER_NO_BODIES,
        None,
    );
    if t.start_solid || t.fraction >= 1.0 {
        p
    } else {
        t.end_pos
    }
}

/// A player standing still at `stand`, settled onto the floor by ten idle steps of the
/// physics (0.05 s each), its velocity then cleared.
pub fn stand_still(cmap: &CollisionMap, physics: &PhysicsParams, stand: Vec3) -> PlayerState {
    stand_still_as(cmap, physics, stand, None)
}

/// [`stand_still`] for the player whose body is `me` in the collision map (traces go
/// through it: it may stand there now).
pub fn stand_still_as(
    cmap: &CollisionMap,
    physics: &PhysicsParams,
    stand: Vec3,
    me: Option<EntId>,
) -> PlayerState {
    let mut s = PlayerState::at(stand, 0.0);
    for _ in 0..10 {
        s = pmove(&s, &UserCmd::default(), cmap, physics, 0.05, me).0;
    }
    s.velocity = Vec3::ZERO;
    s
}

/// Where a player stands to take an item of `kind` lying at `origin`: the pickup box's
/// centre sideways, the player's feet a unit above the box's bottom (the goal of the brain's
/// item routes and the planner's item table).
pub fn item_stand_point(kind: ItemKind, origin: Vec3) -> Vec3 {
    let (mn, mx) = kind.bounds();
    let c = (mn + mx) * 0.5;
    Vec3::new(
        origin.x + c.x,
        origin.y + c.y,
        origin.z + mn.z - PLAYER_MINS.z + 1.0,
    )
}

/// Where a standing player's origin would be to touch an item at `origin` whose pickup box
/// starts `mins` below it: straight above the origin, the feet 1/32 unit over the box's
/// bottom (the point perception tests reachability to).
pub fn item_touch_point(origin: Vec3, mins: Vec3) -> Vec3 {
    Vec3::new(
        origin.x,
        origin.y,
        origin.z + mins.z - PLAYER_MINS.z + 0.03125,
    )
}

/// The floor spot nearest (across) the centre of a trigger box `(mins, maxs)` where a
/// standing player touches it. A trigger's bottom centre is not always one: dm4's teleporters
/// are thin slabs under a low lintel, their bottom in mid-air and their centre inside the
/// frame, touched by a player standing in the doorway. Candidates every 8 units out from the
/// centre over the footprint widened by a player's half-width, each swept down to the floor
/// from the first height where the box fits; the nearest to the centre wins (the first on
/// ties). `None` where no standing player touches it.
pub fn teleporter_stand(cmap: &CollisionMap, mins: Vec3, maxs: Vec3) -> Option<Vec3> {
    let centre = (mins + maxs) * 0.5;
    let reach = (maxs - mins) * 0.5 + PLAYER_MAXS;
    let (kx, ky) = ((reach.x / 8.0) as i32, (reach.y / 8.0) as i32);
    let mut best: Option<(f32, Vec3)> = None;
    for i in -kx..=kx {
        for j in -ky..=ky {
            let (x, y) = (centre.x + 8.0 * i as f32, centre.y + 8.0 * j as f32);
            let heights = [maxs.z + STAND, mins.z + STAND, mins.z];
            let Some(start) = heights
                .iter()
                .map(|&z| Vec3::new(x, y, z))
                .find(|&p| player_fits(cmap, p))
            else {
                continue;
            };
            let tr = cmap.trace(
                start,
                start - Vec3::new(0.0, 0.0, 256.0),
                PLAYER_MINS,
                PLAYER_MAXS,
                Contents::MASK_PLAYER_NO_BODIES,
                None,
            );
            let p = tr.end_pos;
            let touches =
                (p + PLAYER_MINS).cmple(maxs).all() && (p + PLAYER_MAXS).cmpge(mins).all();
            if tr.fraction == 1.0 || tr.normal.z < 0.7 || !touches {
                continue;
            }
            let d = (p - centre).truncate().length();
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, p));
            }
        }
    }
    best.map(|b| b.1)
}

/// The waypoint nearest `p` from which `p` is reachable in a straight line: of the
/// `candidates` nearest within `radius`, the first that reaches it.
pub fn nearest_reaching(
    cmap: &CollisionMap,
    graph: &WaypointGraph,
    p: Vec3,
    radius: f32,
    candidates: usize,
) -> Option<u32> {
    let params = ReachParams::default();
    graph
        .near_k(p, radius, candidates)
        .into_iter()
        .find(|&(n, _)| {
            reachable(cmap, graph.get(n).expect("waypoint").origin, p, &params).is_reachable()
        })
        .map(|(n, _)| n)
}

/// The waypoint nearest `p` that `p` reaches in a straight line, of all within `radius`.
pub fn nearest_reached(
    cmap: &CollisionMap,
    graph: &WaypointGraph,
    p: Vec3,
    radius: f32,
) -> Option<u32> {
    let params = ReachParams::default();
    graph
        .near(p, radius)
        .into_iter()
        .find(|&(n, _)| {
            reachable(cmap, p, graph.get(n).expect("waypoint").origin, &params).is_reachable()
        })
        .map(|(n, _)| n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Brush;

    /// A floor slab with its top at z = 0 and a pillar from (100, -16) to (132, 16).
    fn room() -> CollisionMap {
        CollisionMap::new(
            vec![
                Brush::from_box(
                    Vec3::new(-512., -512., -16.),
                    Vec3::new(512., 512., 0.),
                    Contents::SOLID,
                ),
                Brush::from_box(
                    Vec3::new(100., -16., 0.),
                    Vec3::new(132., 16., 200.),
                    Contents::SOLID,
                ),
            ],
            vec![],
        )
    }

    #[test]
    fn things_drop_and_settle_onto_the_floor() {
        let map = room();
        let item = ItemKind::Weapon.bounds();
        // Dropped from 100 units up: it lies on the floor (the box's bottom at z = 0).
        let p = drop_to_floor(&map, Vec3::new(0., 0., 100.), item);
        assert!((p.z - 0.0).abs() < 0.1, "{p}");
        // Nothing below within 256 units: it stays.
        let high = Vec3::new(0., 0., 1000.);
        assert_eq!(drop_to_floor(&map, high, item), high);
        // A user's point a little above the floor settles to a standing origin.
        let s = settle(&map, Vec3::new(-200., 0., 40.));
        assert!((s.z - 24.0).abs() < 0.1, "{s}");
        // Inside the pillar: left alone.
        let inside = Vec3::new(116., 0., 100.);
        assert_eq!(settle(&map, inside), inside);
        let st = stand_still(&map, &PhysicsParams::default(), Vec3::new(-200., 0., 30.));
        assert!(st.on_ground.is_some() && st.velocity == Vec3::ZERO);
        assert!((st.origin.z - 24.0).abs() < 0.1, "{}", st.origin);
    }

    #[test]
    fn free_spots_avoid_the_pillar() {
        let map = room();
        let clear = Vec3::new(-200., 0., 24.03125);
        assert!(player_fits(&map, clear));
        assert_eq!(free_spot(&map, clear, Vec3::ZERO), clear);
        // Half inside the pillar: the first fit toward the fallback.
        let want = Vec3::new(110., 0., 24.03125);
        let fb = Vec3::new(-40., 0., 24.03125);
        let got = free_spot(&map, want, fb);
        assert!(player_fits(&map, got) && got.x < 84.0, "{got}");
        // The ring search leaves the pillar for a spot a player walks to.
        let near = free_spot_near(&map, want);
        assert!(player_fits(&map, near) && near != want, "{near}");
    }

    #[test]
    fn item_points_stand_on_the_box_bottom() {
        let o = Vec3::new(10., 20., 0.);
        let p = item_stand_point(ItemKind::Ammo, o);
        assert_eq!(p, Vec3::new(26., 36., 25.));
        let t = item_touch_point(o, Vec3::new(-16., -16., 0.));
        assert_eq!(t, Vec3::new(10., 20., 24.03125));
    }

    #[test]
    fn the_nearest_waypoint_is_the_first_in_reach() {
        let map = room();
        let mut g = WaypointGraph::new();
        let behind = g.add(
            Vec3::new(200., 0., 24.03125),
            super::super::waypoints::WaypointKind::Normal,
        );
        let open = g.add(
            Vec3::new(-100., 0., 24.03125),
            super::super::waypoints::WaypointKind::Normal,
        );
        let p = Vec3::new(60., 0., 24.03125);
        // The pillar stands between p and the nearer waypoint.
        assert_eq!(nearest_reaching(&map, &g, p, 512.0, 8), Some(open));
        assert_eq!(nearest_reached(&map, &g, p, 512.0), Some(open));
        // Out of radius, or only the blocked one looked at.
        assert_eq!(nearest_reaching(&map, &g, p, 100.0, 8), None);
        assert_eq!(nearest_reaching(&map, &g, p, 512.0, 1), None);
        let _ = behind;
    }
}
