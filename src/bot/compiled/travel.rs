//! Travel: the area graph's travel flags for a bot's travel flags and its state (in
//! liquid, with a biosuit or not). Entry points: [`travel_of`], [`travel_for`].

use crate::aas::ReachKind;
use crate::aas::route::Travel;
use crate::nav::routing::TravelFlags;
use crate::nav::waypoints::Travel as WpTravel;
use crate::physics::pmove::PlayerState;

/// The reachability kinds a waypoint bot's travel flags stand for.
pub fn travel_of(flags: TravelFlags) -> Travel {
    let mut t = Travel(0);
    let mut add = |k: ReachKind| t = Travel(t.0 | (Travel::ALL.0 & !Travel::ALL.without(k).0));
    for (w, kinds) in [
        (WpTravel::Walk, &[ReachKind::Walk, ReachKind::StepUp][..]),
        (
            WpTravel::Jump,
            &[ReachKind::BarrierJump, ReachKind::Jump, ReachKind::JumpPad][..],
        ),
        (WpTravel::Fall, &[ReachKind::WalkOffLedge][..]),
        (WpTravel::Swim, &[ReachKind::Swim, ReachKind::WaterJump][..]),
        (WpTravel::Teleport, &[ReachKind::Teleport][..]),
        (WpTravel::Elevator, &[ReachKind::Elevator][..]),
    ] {
        if flags.allows(w) {
            kinds.iter().for_each(|&k| add(k));
        }
    }
    t
}

/// What a compiled bot's routes may use: the kinds its travel flags stand for; into slime
/// only in the biosuit (`suit`: Q3's bots add slime and lava in the battle suit; Quake's
/// biosuit spares slime, not lava); through slime and lava both while it is in one (the
/// quickest way on from in there, out of it or through: a route that may not go in finds
/// none from inside).
pub fn travel_for(flags: TravelFlags, s: &PlayerState, suit: bool) -> Travel {
    use crate::map::Contents;
    let t = travel_of(flags);
    if s.water_level > 0 && (s.water_type == Contents::SLIME || s.water_type == Contents::LAVA) {
        t.with(Travel::SLIME).with(Travel::LAVA)
    } else if suit {
        t.with(Travel::SLIME)
    } else {
        t
    }
}
