//! Per-bot route state: [`AreaNav`], what a compiled bot is following (its reachability,
//! how far it has played it, what it avoids, its detour to a door opener) and the
//! [`Step`] the follower answers each tick.

use glam::Vec3;

use crate::physics::pmove::UserCmd;
use crate::sim::hash::{StateHash, StateHasher};

use super::{AVOID_DOUBLINGS, AVOID_SECONDS};
pub use crate::bot::Navigation;
use crate::bot::movement::MoveRequest;

/// A bot's way of navigating and, for a compiled-navigation bot, where it is on its route.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AreaNav {
    /// How it navigates.
    pub navigation: Navigation,
    /// The goal point being routed to, and its area.
    pub goal: Option<(Vec3, u32)>,
    /// The reachability being followed.
    pub reach: Option<u32>,
    /// Ticks of its commands played (`None`: still on the way to its start).
    pub played: Option<u32>,
    /// The area last stood in.
    pub area: Option<u32>,
    /// Seconds on the current reachability (not counting waits for a mover).
    pub held: f32,
    /// Seconds spent slowing onto the current reachability's start.
    pub approach: f32,
    /// Reachabilities failed lately, with the seconds they stay left out.
    pub avoid: [Option<(u32, f32)>; 8],
    /// The last reachabilities that failed, with how many times (most recent first): one
    /// that fails again is left out twice as long as the time before.
    pub failed: [Option<(u32, u8)>; 8],
    /// Degrees the played commands are turned by (the fit from where the bot started them).
    pub turn: f32,
    /// A reachability whose commands were played, until the bot lands (to check it landed
    /// where the reachability ends).
    pub landing: Option<u32>,
    /// The route goes through doors closed now (none around them).
    pub through_doors: bool,
    /// A reachability's commands have just been played: until the bot is on the ground
    /// and going the new way, it brakes rather than slide off where it landed.
    pub settle: bool,
    /// Ticks of running in (at a fixed yaw, degrees) played before the reachability's
    /// commands: a run taken on the run from short of its start.
    pub lead: Option<(u32, f32)>,
    /// Ticks of the run's first command (its run-up from a stand) left out: a bot that
    /// comes in running takes off sooner.
    pub skip: u32,
    /// Gone to fire a shut door the route needs ([`Detour`]).
    pub detour: Option<Detour>,
    /// A jump that does not fit from a stand on its start, taken with a run-in: the
    /// reachability, and whether the bot has backed off far enough and runs in now.
    pub backup: Option<(u32, bool)>,
}

/// A bot gone to fire a shut door its route needs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Detour {
    /// The door's mover index.
    pub door: u32,
    /// Which of its openers ([`CompiledNav::openers_for`]).
    pub opener: u32,
    /// The reachability through the door (left out for a while when the detour is given
    /// up).
    pub reach: u32,
    /// Ticks left before it is given up.
    pub left: u32,
}

impl AreaNav {
    /// A bot navigating the given way.
    pub fn new(navigation: Navigation) -> AreaNav {
        AreaNav {
            navigation,
            ..Default::default()
        }
    }

    pub(super) fn avoided(&self, r: u32) -> bool {
        self.avoid.iter().any(|a| a.is_some_and(|a| a.0 == r))
    }

    pub(super) fn avoid(&mut self, r: u32) {
        let k = self.failed.iter().position(|f| f.is_some_and(|f| f.0 == r));
        let times = k.and_then(|k| self.failed[k]).map_or(0, |f| f.1);
        let at = k.unwrap_or(self.failed.len() - 1);
        self.failed[..=at].rotate_right(1);
        self.failed[0] = Some((r, times.saturating_add(1)));
        self.avoid.rotate_right(1);
        self.avoid[0] = Some((
            r,
            AVOID_SECONDS * 2f32.powi(times.min(AVOID_DOUBLINGS) as i32),
        ));
    }
}

/// The goal area, the reachability followed and how far its commands are played, and the
/// area last stood in; nothing for a learned-navigation bot (which never changes it), so
/// that its matches hash as they did before compiled navigation existed.
impl StateHash for AreaNav {
    fn hash_state(&self, h: &mut StateHasher) {
        if self.navigation == Navigation::Learned {
            return;
        }
        let opt = |v: Option<u32>| v.map(|n| n as u64 + 1).unwrap_or(0);
        h.u64(opt(self.goal.map(|g| g.1)));
        h.u64(opt(self.reach));
        h.u64(opt(self.played));
        h.u64(opt(self.area));
        h.u64(opt(self.lead.map(|l| l.0)));
        h.u64(self.skip as u64);
        h.u64(opt(self.detour.map(|d| d.door)));
        h.u64(opt(self.detour.map(|d| d.opener)));
        h.u64(opt(self.detour.map(|d| d.left)));
        h.u64(opt(self.backup.map(|b| b.0)));
        h.u64(self.backup.is_some_and(|b| b.1) as u64);
        for f in self.failed.iter().flatten() {
            h.u64(f.0 as u64);
            h.u64(f.1 as u64);
        }
    }
}

/// What following the route asks of the bot this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A movement request for the movement stage.
    Go(MoveRequest),
    /// This exact command (a reachability's recorded run, or slowing onto its start).
    Cmd(UserCmd),
    /// Shoot along this view (yaw, pitch) — a secret door on the way, a button or trigger
    /// with health — moving as the command asks meanwhile (standing, or braking onto the
    /// start of the way through the door; the aim stage keeps the motion under the view).
    Shoot((f32, f32), UserCmd),
    /// No route from where it is.
    NoRoute,
}
