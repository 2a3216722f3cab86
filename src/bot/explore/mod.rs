//! Exploration: what a bot with no goal does so that bots spread out and cover the map. It heads
//! for a visible, reachable weapon or powerup that has no item waypoint yet; otherwise it feels
//! along eight directions (starting at a seeded random angle; each walk also counts stopped short
//! of its first drop off a ledge) and picks the one that goes far on safe floor and ends where
//! there are few waypoints. An item it goes for comes before anything new to try, and is walked at
//! on the bot's own level. An item it could not reach is left alone for a while (until the bot is
//! teleported somewhere new, where it chooses afresh); a bot that stays put too long gives up where
//! it is, as a Quake player stuck somewhere does with the `kill` command, and respawns. Where the
//! movement stage cannot get to a seen item (a running jump over lava that its jump prediction does
//! not find), the bot plans a run with the travel-time planner ([`PlannedRun`]) and plays its
//! commands, from the tick it plans it, while it stays on the planned path (letting go of what it
//! was trying); where walking about leads only where the team has been, it plans such a run toward
//! the nearest place nobody has visited ([`Explorer::frontier_run`]). A button it sees that fires
//! something it goes and presses ([`Explorer::button`]), a plat it sees that leads where nobody has
//! been it rides ([`Explorer::lift`]), a teleporter likewise it steps into
//! ([`Explorer::teleporter`]), and one under a plat waiting down it uncovers by riding the plat and
//! stepping back off ([`Explorer::under_lift`]), a closed door that opens as one comes near, or one
//! standing open, likewise it walks through ([`Explorer::doorway`]: its feel for the way on stops
//! at a closed door as at a wall); a floor (a door) that slid away from where nobody has been it
//! waits by and crosses once it is back ([`Explorer::moved_floor`]); where walking straight to a
//! button or door is blocked, or the button is pressed from a floor on another level, it is routed
//! round over the team's graph; a swimmer dives out of the bottom of a floating pool or into a
//! flooded passage whose mouth lies under the surface ([`Explorer::dive`]), and under water feels
//! its way on from the surface; water it sees that nobody has swum in it jumps into
//! ([`Explorer::pool`]); in the biosuit it goes into slime and searches it for what lies under a
//! roof and for openings out of it ([`Explorer::suit_swim`]); an exploring bot that has gone on a
//! minute only where the team has long been starts again ([`Explorer::take_bored`]), and a dead one
//! comes back at the spawn point its team knows least ([`least_known_spawn`]).
//!
//! Entry points: [`Explorer::step`], [`Explorer::planned_cmd`], [`Explorer::button`],
//! [`Explorer::lift`], [`Explorer::teleporter`], [`Explorer::under_lift`], [`Explorer::doorway`],
//! [`Explorer::moved_floor`], [`Explorer::suit_swim`], [`Explorer::dive`], [`Explorer::pool`],
//! [`PlannedRun`], [`choose_target`].
//!
//! Files, one job each, each importing only from those before it: this one (the
//! [`Explorer`], its [`Activity`] and what every activity shares: the tries, [`ButtonGo`]),
//! `visits` (where the team has been), `views` (what the stages read of buttons, plats,
//! teleporters, doorways, floors and shootables), `feel` (walks along a direction and the
//! choice of target), `planned` (planner runs), then one file per activity — `buttons`,
//! `doors`, `lifts` (plats and moving floors), `swim` (dives and pools), `slime` (the
//! biosuit), `teleport` — and `step` (the tick that chooses among them).

mod buttons;
mod doors;
mod feel;
mod lifts;
mod planned;
mod slime;
mod step;
mod swim;
mod teleport;
mod views;
mod visits;

use glam::Vec3;

use crate::map::level::{ItemKind, Level};

use super::movement::{MoveRequest, MoveTarget};
pub use buttons::PRESS_RANGE;
pub use doors::DOOR_STOOD;
pub use feel::{
    DROP_PENALTY, EDGE_BACK, MAX_DROP, choose_target, hazards, walk_run, walk_run_to_edge,
};
pub use lifts::{UnderLift, step_back, step_off};
pub use planned::{
    PLAN_TRIES, PlannedRun, RunGoal, RunPlanner, SETTLE_SPEED, plan_try, planned_out,
};
pub use slime::{SlimeWay, slime_entry, slime_way};
pub use swim::underwater_passage;
pub use teleport::{GATE_REACH_CANDIDATES, GATE_REACH_RADIUS};
pub use views::{
    BUTTON_FRONT, ButtonView, DOOR_GAP, DoorwayView, FloorView, LiftView, ShootableView,
    TeleporterView, buttons, doorways, floor_door, lifts, moving_floors, nears_teleporter,
    shootables, stood_where_it_leads, teleporter_boxes, teleporters, touched_first,
};
pub use visits::{VisitCell, VisitMap, frontier_points, least_known_spawn};

/// How far a direction is felt.
const FEEL: f32 = 512.0;

/// Waypoints within this distance of a direction's end count against it.
const CROWD_RADIUS: f32 = 192.0;

/// Seconds before a target is given up.
pub const TARGET_SECONDS: f32 = 4.0;

/// The running speed an explorer wishes (u/s): Quake's `sv_maxspeed`.
const RUN_SPEED: f32 = 320.0;

/// Within this distance of a try's point (units across, and up or down) the bot is there.
const THERE: f32 = 48.0;

/// Degrees between the eight directions an explorer feels along.
const EIGHTH: f32 = 45.0;

/// The shortest walk (units) that counts as a way somewhere.
const MIN_WALK: f32 = 48.0;

/// How far (units) a bot must get from where it was to count as not stuck there.
const ANCHOR_RADIUS: f32 = 64.0;

/// Whether an item is one that gets an item waypoint (weapons and powerups but the biosuit).
pub fn wants_item_waypoint(level: &Level, item: usize) -> bool {
    let it = &level.items[item];
    it.kind == ItemKind::Weapon
        || (it.kind == ItemKind::Powerup && it.classname != "item_artifact_envirosuit")
}

/// Seconds an item that could not be reached is left alone.
pub const SKIP_SECONDS: f32 = 20.0;

/// Seconds without getting 64 units away before a bot gives up where it is (Quake's `kill`).
pub const STUCK_SECONDS: f32 = 12.0;

/// Seconds an explorer goes on only through cells the team knows well before it starts
/// again elsewhere (Quake's `kill`, then a spawn point chosen at random): a part of the map
/// its walks and planned runs do not lead out of, when spawn points elsewhere start in
/// parts it has not seen (parts reached from the middle only by jumps its walks do not
/// take, with spawn points in them).
const BORED_SECONDS: f32 = 60.0;

/// Visits (10 Hz samples by any bot) up to which a cell counts as barely known, for
/// [`BORED_SECONDS`]: a bot crossing a fresh cell at running speed samples it about four
/// times.
pub const FRESH_VISITS: u32 = 8;

/// The exploring behaviour's state: a target to walk to, the item it is for, and what
/// tells it that it is stuck.
#[derive(Clone, Debug)]
pub struct Explorer {
    /// Current target.
    pub target: Option<Vec3>,
    /// The item the target is for, if any.
    pub item: Option<usize>,
    /// Seconds left before a new target is chosen anyway.
    pub timer: f32,
    /// Items given up on, with seconds left.
    pub skip: Vec<(usize, f32)>,
    /// Where the bot was when it last got 64 units away from there.
    pub anchor: Vec3,
    /// Seconds spent near the anchor.
    pub still: f32,
    /// The one thing it is trying (a plat, a teleporter, a button, a doorway, a dive, ...),
    /// where, and the seconds left: one at a time, so letting go is one assignment.
    pub activity: Activity,
    /// A secret door this bot shot (mover index) and the seconds left to go through it.
    pub door: Option<(usize, f32)>,
    /// A run planned over the player physics toward an item the movement stage could not get
    /// to (a running jump over lava), being played command by command.
    pub run: Option<PlannedRun>,
    /// Items a run was planned toward, with the number of tries.
    pub planned: Vec<(usize, u32)>,
    /// Frontier points a run was planned toward ([`Explorer::frontier_run`]), with the
    /// number of tries.
    pub frontier_tries: Vec<((i32, i32, i32), u32)>,
    /// Cells of the waypoints a run was planned toward for the team's graph to reach them
    /// ([`Explorer::link_run`]), with the number of tries.
    pub link_tries: Vec<((i32, i32, i32), u32)>,
    /// Braking before a run is planned along the bot's own level ([`SETTLE_SPEED`]).
    pub settling: bool,
    /// Seconds before the next frontier run may be planned.
    pub frontier_wait: f32,
    /// Seconds since the bot was last in a barely known cell ([`BORED_SECONDS`]).
    pub bored: f32,
    /// Where walking straight to the button or doorway being tried was blocked: the point
    /// on its way being routed to over the team's graph ([`ButtonGo::Route`]).
    pub detour: Option<Vec3>,
    /// Buttons it went to press, with the number of tries.
    pub button_tries: Vec<(usize, u32)>,
    /// Plats it went to ride, with the number of tries.
    pub lift_tries: Vec<(usize, u32)>,
    /// Teleporters it went to, with the number of tries.
    pub teleporter_tries: Vec<(usize, u32)>,
    /// Doors it went through, with the number of tries.
    pub doorway_tries: Vec<(usize, u32)>,
    /// Cells dived to, with the number of tries.
    pub dive_tries: Vec<((i32, i32, i32), u32)>,
    /// Cells of the surface points it went into, with the number of tries.
    pub pool_tries: Vec<(VisitCell, u32)>,
    /// Seconds of biosuit it has left (set by its controller every tick): with more than
    /// [`SUIT_RESERVE`] it walks into slime and swims through it ([`Explorer::suit_swim`]).
    pub suit: f32,
    /// Cells in slime it swam to for being new ([`slime_way`]): not gone to again (a place
    /// just over a cell's border counts as arrived at before the swimmer is in that cell).
    pub swum: Vec<(i32, i32, i32)>,
    /// Cells of the surface of openings out of slime it rose to: not risen to again.
    pub surfaced: Vec<(i32, i32, i32)>,
    /// Cells of the points over slime it ran in at ([`slime_entry`]), with the number of
    /// tries.
    pub entries: Vec<(VisitCell, u32)>,
    /// The land beside an opening out of slime it rose to, and the seconds left to get
    /// out onto it.
    pub swim_out: Option<(Vec3, f32)>,
    /// Seconds before a swimmer in slime whose search found nothing searches again.
    pub swim_wait: f32,
    /// A place nobody has visited that a waypoint of the team's graph reaches in a straight
    /// line, being routed to over the graph, and the seconds left ([`Explorer::gate`]).
    pub gate: Option<(Vec3, f32)>,
    /// Frontier cells routed to, with the number of tries.
    pub gate_tries: Vec<((i32, i32, i32), u32)>,
    /// Buttons and triggers with health shot at (mover index), with the seconds spent.
    pub shot: Vec<(usize, f32)>,
    /// The door (mover index) a run was planned to stand in front of
    /// ([`Explorer::door_front`]): shot from a stand once there.
    pub door_front: Option<usize>,
    /// Doors a run to their front was planned for, per visit cell planned from, with the
    /// number of tries.
    pub door_front_tries: Vec<(DoorFrom, u32)>,
    /// Floors it waited for, with the number of tries.
    pub floor_tries: Vec<(usize, u32)>,
    /// Deepest drop its walks off ledges are chosen with: the movement stage's (200 for
    /// a bot that explores between fights, [`MAX_DROP`] for an exploring bot).
    pub max_drop: f32,
    /// Whether its choices also count each walk stopped short of its first drop off a
    /// ledge ([`walk_run_to_edge`]): an exploring bot's do; a bot that explores between
    /// fights chooses as it did.
    pub edge_stops: bool,
    /// Whether it is an exploring bot, which chooses afresh when teleported and walks at the
    /// item it goes for on its own level wherever it now is ([`Explorer::step`]); a bot that
    /// explores between fights goes on as it did.
    pub exploring: bool,
}

/// What an explorer is trying, one thing at a time ([`Explorer::activity`]), with the
/// seconds it has left for it.
#[derive(Clone, Copy, Debug, Default)]
pub enum Activity {
    /// Nothing: it walks where its feel for the way on leads.
    #[default]
    Nothing,
    /// Riding a plat up: the plat's mover index ([`Explorer::lift`]).
    Lift(usize, f32),
    /// Stepping into a teleporter: its trigger index ([`Explorer::teleporter`]).
    Teleporter(usize, f32),
    /// Uncovering a teleporter under a plat waiting down ([`Explorer::under_lift`]).
    UnderLift(UnderLift),
    /// Pressing a button: its mover index ([`Explorer::button`]).
    Button(usize, f32),
    /// Walking through a door: its mover index and the point beyond it
    /// ([`Explorer::doorway`]).
    Doorway(usize, Vec3, f32),
    /// Diving to a point below the water ([`Explorer::dive`]).
    Dive(Vec3, f32),
    /// Going into water at a point just under its surface ([`Explorer::pool`]).
    Pool(Vec3, f32),
    /// Swimming in slime in the biosuit to a point (on land, the point over slime it goes
    /// in at) ([`Explorer::suit_swim`]).
    Swim(Vec3, f32),
    /// Waiting for a floor that slid away and crossing it: its mover index, the place on
    /// it nobody has been, the seconds left and whether it has been back since
    /// ([`Explorer::moved_floor`]).
    Floor(usize, Vec3, f32, bool),
}

/// A door (mover index) and the visit cell a run to its front was planned from.
pub type DoorFrom = (usize, (i32, i32, i32));

impl Explorer {
    /// A fresh explorer at `origin`.
    pub fn new(origin: Vec3) -> Explorer {
        Explorer {
            target: None,
            item: None,
            timer: 0.0,
            skip: Vec::new(),
            anchor: origin,
            still: 0.0,
            activity: Activity::Nothing,
            door: None,
            run: None,
            planned: Vec::new(),
            frontier_tries: Vec::new(),
            link_tries: Vec::new(),
            settling: false,
            frontier_wait: 0.0,
            bored: 0.0,
            detour: None,
            button_tries: Vec::new(),
            lift_tries: Vec::new(),
            teleporter_tries: Vec::new(),
            doorway_tries: Vec::new(),
            dive_tries: Vec::new(),
            pool_tries: Vec::new(),
            suit: 0.0,
            swum: Vec::new(),
            surfaced: Vec::new(),
            entries: Vec::new(),
            swim_out: None,
            swim_wait: 0.0,
            gate: None,
            gate_tries: Vec::new(),
            shot: Vec::new(),
            door_front: None,
            door_front_tries: Vec::new(),
            floor_tries: Vec::new(),
            max_drop: super::movement::MoveParams::default().max_drop,
            edge_stops: false,
            exploring: false,
        }
    }

    /// Whether the routing stage moves the bot (to a frontier point, or round to a button
    /// or door).
    pub fn routes(&self) -> bool {
        self.gate.is_some() || self.detour.is_some()
    }

    /// Lets go of the things it was trying (a plat, a teleporter, a button, a doorway, a
    /// dive, a secret door): a planned run takes the bot elsewhere, and where it lands they
    /// are behind it. A run planned from the floor below a ledge landed on it, and the
    /// doorway walk the bot was on before took it back and off the ledge at once.
    fn let_go(&mut self) {
        self.activity = Activity::Nothing;
        self.detour = None;
        self.door = None;
    }

    /// Whether the bot is at one of the things it tries, or going for an item it has not
    /// marked (it sees it): nothing new is tried then. Bots that came out of a teleporter
    /// and saw an item a running jump away turned for a doorway seen below and walked off
    /// the exit's ledge into the pit.
    fn busy(&self) -> bool {
        self.trying() || self.item.is_some()
    }

    /// Whether the bot is at one of the things it tries (a plat, a teleporter, a button, a
    /// door).
    fn trying(&self) -> bool {
        !matches!(self.activity, Activity::Nothing)
    }

    /// Whether the bot has gone on for [`BORED_SECONDS`] only where the team has often been
    /// (counted by [`Explorer::step`]); the count starts again once asked and true. Exploring
    /// bots give up then and respawn (the control stage); brain bots never ask.
    pub fn take_bored(&mut self) -> bool {
        let bored = self.bored > BORED_SECONDS;
        if bored {
            self.bored = 0.0;
        }
        bored
    }
}

/// Whether `key` (a button, plat, teleporter or door) has been tried [`BUTTON_TRIES`] times.
pub(super) fn tried_out<K: PartialEq>(tries: &[(K, u32)], key: K) -> bool {
    tries.iter().any(|t| t.0 == key && t.1 >= BUTTON_TRIES)
}

/// How far off an explorer sees a button it goes to press.
const BUTTON_RANGE: f32 = 768.0;

/// Seconds an explorer tries to get to a button before giving up on it.
pub const BUTTON_SECONDS: f32 = 6.0;

/// Tries per button and explorer.
pub const BUTTON_TRIES: u32 = 2;

/// What a bot trying a button or doorway does about the way there ([`Explorer::detour`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Detour {
    /// Walk straight on.
    Walk,
    /// Route to this point over the team's graph.
    Route(Vec3),
    /// The routing stage found no way there: the try ends.
    GiveUp,
}

/// What an explorer going to a button does this tick ([`Explorer::button`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ButtonGo {
    /// Walk there (the movement stage's way round obstacles).
    Walk(MoveRequest),
    /// Close by: run straight into it (the movement stage would step around it as an
    /// obstacle, or stop short of a point inside a wall).
    Press(crate::physics::UserCmd),
    /// Walking there was blocked (a slime pool between, a wall with the way round out of
    /// sight): route to this point over the team's graph (the routing stage moves the bot).
    Route(Vec3),
}

impl ButtonGo {
    /// Stand still facing `yaw` (riding a plat).
    pub(super) fn stand(yaw: f32) -> ButtonGo {
        ButtonGo::Press(crate::physics::UserCmd {
            yaw,
            ..Default::default()
        })
    }

    /// Walk to `p` at running speed.
    pub(super) fn walk_to(p: Vec3) -> ButtonGo {
        ButtonGo::Walk(run_to_point(p))
    }
}

/// Whether the cell `key` has been dived to [`BUTTON_TRIES`] times.
pub(super) fn tried_out_cell(tries: &[((i32, i32, i32), u32)], key: (i32, i32, i32)) -> bool {
    tries.iter().any(|t| t.0 == key && t.1 >= BUTTON_TRIES)
}

/// Running to `p`, as an explorer goes wherever it goes.
pub(super) fn run_to_point(p: Vec3) -> MoveRequest {
    MoveRequest {
        target: MoveTarget::Point(p),
        speed: RUN_SPEED,
        known: false,
        wade: false,
        to_target: false,
    }
}

#[cfg(test)]
mod tests;
