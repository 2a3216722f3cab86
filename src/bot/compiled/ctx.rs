//! The follower's view of the world ([`FollowCtx`]): the geometry, the movers' and doors'
//! state and the bot's own body, and what it tells of a door ([`door_shut`],
//! [`door_moving`], [`door_coming`]).

use crate::aas::run::RunWorld;
use crate::map::{CollisionMap, EntId};
use crate::physics::movers::Phase;
use crate::physics::pmove::PhysicsParams;

/// What following a route reads of the world besides the bot.
pub struct FollowCtx<'a> {
    /// The geometry as it is this tick (a run's fit is tried on it).
    pub map: &'a CollisionMap,
    /// Movement constants.
    pub physics: PhysicsParams,
    /// Tick length, seconds.
    pub dt: f32,
    /// The bot's own body (traces ignore it).
    pub me: Option<EntId>,
    /// The state of the mover with a given id.
    pub mover: &'a dyn Fn(u32) -> Option<crate::physics::movers::MoverState>,
    /// Whether the door with a given id stands open.
    pub door_open: &'a dyn Fn(u32) -> bool,
    /// The shootable movers as they stand (the doors among them are shot open on the way).
    pub doors: &'a [crate::bot::explore::ShootableView],
    /// The movers' ids by index in the level's movers.
    pub mover_ids: &'a [u32],
    /// The jump pads still in use (a push-once pad is gone after its first touch).
    pub pushes: &'a [crate::physics::push::Push],
}

impl<'a> FollowCtx<'a> {
    /// What a run's fit reads of this context ([`crate::aas::run`]).
    pub fn world(&self) -> RunWorld<'a> {
        RunWorld {
            map: self.map,
            physics: self.physics,
            dt: self.dt,
            me: self.me,
        }
    }
}

/// What a follower reads of the world's geometry as it is, with no mover state and nothing
/// shootable (the fits of [`run_on_the_run`] for a route's prediction, and tests).
pub fn geometry_ctx(
    map: &CollisionMap,
    physics: PhysicsParams,
    dt: f32,
    me: Option<EntId>,
) -> FollowCtx<'_> {
    fn no_mover(_: u32) -> Option<crate::physics::movers::MoverState> {
        None
    }
    fn open(_: u32) -> bool {
        true
    }
    FollowCtx {
        map,
        physics,
        dt,
        me,
        mover: &no_mover,
        door_open: &open,
        doors: &[],
        mover_ids: &[],
        pushes: &[],
    }
}

/// Whether door `index` (a mover index) rests where it spawned (nothing has fired it yet:
/// shut, or open for a door that starts open).
pub(super) fn door_shut(ctx: &FollowCtx, index: usize) -> bool {
    let Some(id) = ctx.mover_ids.get(index) else {
        return false;
    };
    (ctx.mover)(*id).is_none_or(|m| m.phase == Phase::AtA)
}

/// Whether door `index` (a mover index) is moving (not resting at either end).
pub(super) fn door_moving(ctx: &FollowCtx, index: usize) -> bool {
    ctx.mover_ids
        .get(index)
        .and_then(|&id| (ctx.mover)(id))
        .is_some_and(|m| !matches!(m.phase, Phase::AtA | Phase::AtB | Phase::Fixed))
}

/// Whether door `index` (a mover index) is on its way from where it rested to where it is
/// fired to.
pub(super) fn door_coming(ctx: &FollowCtx, index: usize) -> bool {
    ctx.mover_ids
        .get(index)
        .and_then(|&id| (ctx.mover)(id))
        .is_some_and(|m| m.phase == Phase::ToB)
}
