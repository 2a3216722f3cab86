//! The control stage: each player's controller turns its state into this tick's user command
//! (idle, wander, script), a movement request for the movement stage (goto, explore, a route
//! bot roaming where it has no route) or a route goal for the routing stage (route); brain
//! bots are left to the brain stage that follows. Explorers shoot secret doors open, route
//! bots play runs planned over the physics along jump links, and a bot stuck somewhere gives
//! up as a Quake player does (the `kill` command).
//!
//! Reads [`Motion`], [`Vitals`], [`Percepts`], [`MoveStatus`], mover states and the learned
//! map; writes [`Controller`], [`Command`], [`MoveIntent`], [`RouteState`], [`Aim`], [`Roam`],
//! the player's random stream, and deaths (stuck bots).
//!
//! Entry points: [`ControllerConfig`] (what a scenario asks for), [`Controller`] (the
//! component), [`control_system`].

use glam::Vec3;
use serde::Serialize;

use crate::game::life::kill;
use crate::game::{Aim, Inventory, Weapon};
use crate::map::{Contents, EntId};
use crate::nav::routing::TravelFlags;
use crate::physics::pmove::{PlayerState, UserCmd};
use crate::sim::Sim;
use crate::sim::components::{Command, Motion, PlayerRng, SpawnWish, Vitals};
use crate::sim::rng::SimRng;

use super::Percepts;
use super::explore::Explorer;
use super::learned::LearnedMap;
use super::movement::{MoveIntent, MoveRequest, MoveStatus, MoveTarget};
use super::routing::{Roam, RouteGoal, RouteState};

/// How a scenario asks for a player to be controlled (see [`Controller`] for the state each
/// keeps).
#[derive(Clone, Debug, PartialEq)]
pub enum ControllerConfig {
    /// Stands still.
    Idle,
    /// Seeded random running.
    Wander,
    /// Fixed commands.
    Script(Vec<ScriptStep>),
    /// Go to a point with the movement stage.
    Goto(Vec3),
    /// Explore the map (spread out, mark items), through the movement stage.
    Explore,
    /// Route to a far point over the waypoint graph.
    Route(Vec3),
    /// Play deathmatch with the bot brain at this skill.
    Brain(super::brain::Skill),
    /// Commands from outside the simulation, tick by tick ([`crate::tick::Match::set_command`]:
    /// a program, a person, a learning agent); until one comes the player stands still.
    External,
}

/// One step of a scripted controller: hold this command for `ticks` ticks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptStep {
    /// How many ticks.
    pub ticks: u32,
    /// Forward speed.
    #[serde(default)]
    pub forward: f32,
    /// Side speed (+ right).
    #[serde(default)]
    pub side: f32,
    /// Up speed (swimming).
    #[serde(default)]
    pub up: f32,
    /// View yaw, degrees.
    #[serde(default)]
    pub yaw: f32,
    /// View pitch, degrees.
    #[serde(default)]
    pub pitch: f32,
    /// Jump held.
    #[serde(default)]
    pub jump: bool,
    /// Trigger held.
    #[serde(default)]
    pub fire: bool,
    /// Weapon to switch to.
    #[serde(default)]
    pub weapon: Option<Weapon>,
}

impl ScriptStep {
    /// Sets the trigger and weapon wish on `aim` and returns the movement and view command.
    fn apply(&self, aim: &mut Aim) -> UserCmd {
        aim.fire = self.fire;
        aim.weapon = self.weapon;
        UserCmd {
            forward_move: self.forward,
            side_move: self.side,
            up_move: self.up,
            yaw: self.yaw,
            pitch: self.pitch,
            jump: self.jump,
        }
    }
}

/// What produces a player's commands: the control stage's per-player state.
#[derive(Clone, Debug)]
pub enum Controller {
    /// Stands still.
    Idle,
    /// Runs in seeded random directions, turns when stuck, jumps now and then, swims up.
    Wander {
        /// Heading held now.
        yaw: f32,
        /// Seconds until a new heading.
        timer: f32,
        /// Seconds spent nearly still on the ground.
        stuck: f32,
    },
    /// Explores: heads for unmarked items and for directions with few waypoints.
    Explore(Box<Explorer>),
    /// Goes to a far point by routing over the waypoint graph.
    Route {
        /// The goal point (a player origin there).
        goal: Vec3,
    },
    /// Goes to a point through the movement stage (walking, jumping, swimming, avoiding).
    Goto {
        /// The target origin.
        target: Vec3,
    },
    /// Plays deathmatch: the brain stage ([`super::brain`]) decides.
    Brain,
    /// Holds the last command given from outside ([`ControllerConfig::External`]); its
    /// `ticks` are not read.
    External {
        /// The command held.
        held: ScriptStep,
    },
    /// Plays a fixed list of commands, then stands still.
    Script {
        /// The steps.
        steps: Vec<ScriptStep>,
        /// Current step.
        index: usize,
        /// Ticks done in the current step.
        done: u32,
    },
}

impl Controller {
    /// The controller's name as a scenario writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Controller::Idle => "idle",
            Controller::Wander { .. } => "wander",
            Controller::Explore(_) => "explore",
            Controller::Route { .. } => "route",
            Controller::Goto { .. } => "goto",
            Controller::Brain => "brain",
            Controller::External { .. } => "external",
            Controller::Script { .. } => "script",
        }
    }

    /// Whether it reads perception's reachability tests ([`super::Percepts::reachable`]):
    /// only the explorer does (an unmarked item in reach comes first); for the others the
    /// tests are not made unless the player's senses ask for them.
    pub fn reads_reachability(&self) -> bool {
        matches!(self, Controller::Explore(_))
    }

    /// The controller a player configured as `cfg` starts with at `origin` facing `yaw`.
    pub fn new(cfg: &ControllerConfig, origin: Vec3, yaw: f32) -> Controller {
        match cfg {
            ControllerConfig::Idle => Controller::Idle,
            ControllerConfig::Wander => Controller::Wander {
                yaw,
                timer: 0.0,
                stuck: 0.0,
            },
            ControllerConfig::Goto(target) => Controller::Goto { target: *target },
            ControllerConfig::Route(goal) => Controller::Route { goal: *goal },
            ControllerConfig::Explore => Controller::Explore(Box::new(Explorer {
                max_drop: super::explore::MAX_DROP,
                edge_stops: true,
                exploring: true,
                ..Explorer::new(origin)
            })),
            ControllerConfig::Brain(_) => Controller::Brain,
            ControllerConfig::External => Controller::External {
                held: ScriptStep {
                    yaw,
                    ..Default::default()
                },
            },
            ControllerConfig::Script(steps) => Controller::Script {
                steps: steps.clone(),
                index: 0,
                done: 0,
            },
        }
    }
}

/// Controllers turn their state into this tick's user command, or (goto) into a movement
/// request for the movement stage.
pub fn control_system(sim: &mut Sim, learned: &LearnedMap) {
    let dt = sim.dt;
    let mut stuck = Vec::new();
    let doors = super::explore::shootables(sim);
    // What explorers try (only matches with explorers pay for the lists; `any` does not
    // depend on the query's order).
    let explorers = sim
        .world
        .query::<&Controller>()
        .iter()
        .any(|c| matches!(c, Controller::Explore(_)));
    let (buttons, lifts, teleporters, doorways, floors) = if explorers {
        (
            super::explore::buttons(sim),
            super::explore::lifts(sim),
            super::explore::teleporters(sim),
            super::explore::doorways(sim),
            super::explore::moving_floors(sim),
        )
    } else {
        Default::default()
    };
    // An explorer's step, for explorers and for route bots roaming where they have no route.
    let explore = |ex: &mut Explorer,
                   s: &PlayerState,
                   percepts: &Percepts,
                   mstatus: &MoveStatus,
                   rng: &mut SimRng,
                   planner: Option<EntId>| {
        let planner = planner.map(|me| (me, &sim.params));
        ex.step(
            &sim.cmap,
            &learned.waypoints,
            &learned.visits,
            &sim.level,
            s,
            percepts,
            mstatus,
            rng,
            dt,
            planner,
        )
    };
    // One view for the loop: asking the world per player prepares the query every time.
    let mut view = sim.world.view_mut::<(
        &mut Controller,
        &mut Command,
        &Motion,
        &Vitals,
        &mut PlayerRng,
        &mut MoveIntent,
        &Percepts,
        &MoveStatus,
        &mut RouteState,
        &mut Aim,
        &mut Roam,
        &Inventory,
    )>();
    for p in &sim.players {
        let me = p.id;
        let Some((
            ctrl,
            cmd,
            motion,
            vitals,
            rng,
            intent,
            percepts,
            mstatus,
            route,
            aim,
            roam,
            inv,
        )) = view.get_mut(p.entity)
        else {
            continue;
        };
        if !matches!(ctrl, Controller::Brain) {
            *aim = Default::default();
        }
        let s = &motion.0;
        intent.0 = None;
        // Route bots, brains and an explorer routing to a frontier point (or round to a
        // button or door it tries) keep their goal.
        let routes = match ctrl {
            Controller::Route { .. } | Controller::Brain => true,
            Controller::Explore(ex) => ex.routes(),
            _ => false,
        };
        if !routes {
            route.goal = None;
        }
        if !vitals.alive {
            cmd.0 = UserCmd::default();
            continue;
        }
        cmd.0 = match ctrl {
            Controller::Idle => UserCmd {
                yaw: s.yaw,
                ..Default::default()
            },
            Controller::Wander { yaw, timer, stuck } => {
                let rng = &mut rng.0;
                *timer -= dt;
                let speed = s.velocity.truncate().length();
                if s.on_ground.is_some() && speed < 40.0 {
                    *stuck += dt;
                } else {
                    *stuck = 0.0;
                }
                if *timer <= 0.0 || *stuck > 0.5 {
                    *yaw = rng.range(0.0, 360.0);
                    *timer = rng.range(1.0, 3.0);
                    *stuck = 0.0;
                }
                let jump = s.on_ground.is_some() && rng.chance(0.03);
                UserCmd {
                    forward_move: 320.0,
                    yaw: *yaw,
                    // Swim up to breathe: wanderers keep their heads above the surface.
                    up_move: if s.water_level >= 2 { 200.0 } else { 0.0 },
                    jump: jump || s.water_level >= 2,
                    ..Default::default()
                }
            }
            Controller::Explore(ex) => {
                ex.suit = inv.suit_until.saturating_sub(sim.tick) as f32 * dt;
                // A planned run toward an item plays its commands as they are.
                if let Some(c) = ex.planned_cmd(s) {
                    cmd.0 = c;
                    continue;
                }
                // What the routing stage said of the goal it last worked on (a frontier
                // point, a button's or door's detour), before the goal is let go.
                let routed = (
                    route.goal.map(|g| g.point),
                    route.no_route && route.next.is_none(),
                );
                // Routing over the team's graph to a frontier point: the routing stage
                // moves the bot until the explorer is there or gives up.
                if let Some(q) = ex.gate(&learned.visits, s, routed, dt) {
                    route_to(route, q);
                    cmd.0 = UserCmd {
                        yaw: s.yaw,
                        ..Default::default()
                    };
                    continue;
                }
                let (req, is_stuck) = explore(ex, s, percepts, mstatus, &mut rng.0, Some(me));
                // Stuck, or bored: only where the team has long been (start again elsewhere).
                if is_stuck || ex.take_bored() {
                    stuck.push(*p);
                }
                // A run planned this tick starts this tick, from the state it was planned
                // from: a tick of standing first left the bot where the plan's physics no
                // longer held (a run of barrier jumps up steps).
                if let Some(c) = ex.planned_cmd(s) {
                    cmd.0 = c;
                    continue;
                }
                intent.0 = Some(req);
                // What it sees to try: a plat, a teleporter, a button, a door (one at a
                // time: each keeps its own goal until done).
                {
                    use super::explore::ButtonGo;
                    let visits = &learned.visits;
                    let planner = super::explore::RunPlanner {
                        level: &sim.level,
                        me,
                        physics: &sim.params,
                        rng: &mut rng.0,
                    };
                    let go = ex
                        .under_lift(&sim.cmap, visits, (&lifts, &teleporters), s, dt)
                        .or_else(|| ex.lift(&sim.cmap, visits, &lifts, s, dt))
                        .or_else(|| {
                            ex.teleporter(&sim.cmap, visits, &teleporters, s, Some(planner), dt)
                        })
                        .or_else(|| {
                            ex.button(&sim.cmap, &buttons, s, (mstatus, routed), Some(me), dt)
                        })
                        .or_else(|| {
                            ex.doorway(&sim.cmap, visits, &doorways, s, (mstatus, routed), dt)
                        })
                        .or_else(|| ex.moved_floor(&sim.cmap, (&sim.level, visits), &floors, s, dt))
                        .or_else(|| ex.suit_swim(&sim.cmap, visits, s, dt))
                        // Into a pool first: on the tick it is in, the dive feels for
                        // the way on under the surface.
                        .or_else(|| ex.pool(&sim.cmap, visits, s, dt))
                        .or_else(|| ex.dive(&sim.cmap, &sim.level, visits, s, dt));
                    if !matches!(go, Some(ButtonGo::Route(_))) {
                        route.goal = None;
                    }
                    // A run into a teleporter planned this tick starts this tick, as it
                    // is (the movement stage leaves a bot with no request alone).
                    if let Some(c) = ex.planned_cmd(s) {
                        intent.0 = None;
                        cmd.0 = c;
                        continue;
                    }
                    // A door seen that only a run gets in front of (a ledge below it), or
                    // one shot from there that is open now: the run starts this tick too.
                    if !doors.is_empty() {
                        let planner = super::explore::RunPlanner {
                            level: &sim.level,
                            me,
                            physics: &sim.params,
                            rng: &mut rng.0,
                        };
                        if ex.door_front(&sim.cmap, visits, &doors, s, planner, dt)
                            && let Some(c) = ex.planned_cmd(s)
                        {
                            intent.0 = None;
                            cmd.0 = c;
                            continue;
                        }
                    }
                    match go {
                        Some(ButtonGo::Walk(go)) => intent.0 = Some(go),
                        Some(ButtonGo::Press(c)) => {
                            intent.0 = None;
                            cmd.0 = c;
                            continue;
                        }
                        Some(ButtonGo::Route(q)) => {
                            // As to a frontier point: the routing stage moves the bot.
                            intent.0 = None;
                            route_to(route, q);
                            cmd.0 = UserCmd {
                                yaw: s.yaw,
                                ..Default::default()
                            };
                            continue;
                        }
                        None => {}
                    }
                }
                if !doors.is_empty() {
                    let (go, view) = ex.secret_door(&sim.cmap, &doors, s, dt);
                    if let Some(go) = go {
                        intent.0 = go;
                    }
                    aim.shoot_along(view);
                }
                // In the biosuit slime is walked into like water.
                if let Some(req) = intent.0.as_mut() {
                    req.wade = !super::explore::hazards(ex.suit).intersects(Contents::SLIME);
                }
                UserCmd {
                    yaw: s.yaw,
                    ..Default::default()
                }
            }
            Controller::Brain => UserCmd {
                yaw: s.yaw,
                ..Default::default()
            },
            Controller::Route { goal } => {
                route_to(route, *goal);
                // Along a jump link an explorer made: a run planned over the physics, played
                // while the routing stage holds.
                let floor = learned.visits.floor(&sim.level, &sim.cmap);
                if let Some(c) = roam.planned_cmd(
                    &sim.cmap,
                    &learned.waypoints,
                    floor,
                    route,
                    s,
                    (me, &sim.params),
                    &mut rng.0,
                    dt,
                ) {
                    route.hold = true;
                    cmd.0 = c;
                    continue;
                }
                // No waypoint around has a route (the routing stage said so last tick):
                // explore until one has; give up after a while where the goal has a route
                // from somewhere else.
                if route.no_route && route.next.is_none() {
                    let (req, is_stuck) =
                        explore(&mut roam.explorer, s, percepts, mstatus, &mut rng.0, None);
                    intent.0 = Some(req);
                    roam.seconds += dt;
                    if is_stuck
                        || (roam.seconds > super::routing::ROAM_SECONDS
                            && route.goal_waypoint.is_some())
                    {
                        roam.seconds = 0.0;
                        stuck.push(*p);
                    }
                } else {
                    roam.seconds = 0.0;
                }
                // Wedged (on a ledge's corner, in a pit the links do not leave): the same.
                if (s.origin - roam.anchor).length() > 64.0 || route.hold {
                    roam.anchor = s.origin;
                    roam.still = 0.0;
                } else {
                    roam.still += dt;
                    if roam.still > super::explore::STUCK_SECONDS {
                        roam.still = 0.0;
                        stuck.push(*p);
                    }
                }
                if !doors.is_empty()
                    && let Some(next) = route.next.and_then(|n| learned.waypoints.get(n))
                {
                    let (hold, view) =
                        super::routing::secret_door_on_the_way(&sim.cmap, &doors, s, next.origin);
                    route.hold = hold;
                    aim.shoot_along(view);
                }
                UserCmd {
                    yaw: s.yaw,
                    ..Default::default()
                }
            }
            Controller::Goto { target } => {
                intent.0 = Some(MoveRequest {
                    target: MoveTarget::Point(*target),
                    speed: 320.0,
                    known: false,
                    wade: false,
                    to_target: false,
                });
                UserCmd {
                    yaw: s.yaw,
                    ..Default::default()
                }
            }
            Controller::External { held } => held.apply(aim),
            Controller::Script { steps, index, done } => {
                while *index < steps.len() && *done >= steps[*index].ticks {
                    *index += 1;
                    *done = 0;
                }
                match steps.get(*index) {
                    Some(st) => {
                        *done += 1;
                        st.apply(aim)
                    }
                    None => UserCmd {
                        yaw: s.yaw,
                        ..Default::default()
                    },
                }
            }
        };
    }
    // A bot stuck somewhere gives up as a Quake player does (the `kill` command).
    for p in stuck {
        kill(sim, p, "stuck", None);
    }
    // A dead explorer (given up, drowned, crushed) asks to start again where its team has
    // been least.
    if explorers {
        for p in &sim.players {
            let Ok((ctrl, vitals, wish, rng)) =
                sim.world
                    .query_one_mut::<(&Controller, &Vitals, &mut SpawnWish, &mut PlayerRng)>(
                        p.entity,
                    )
            else {
                continue;
            };
            if matches!(ctrl, Controller::Explore(_)) && !vitals.alive && wish.0.is_none() {
                wish.0 = super::explore::least_known_spawn(&learned.visits, &sim.level, &mut rng.0);
            }
        }
    }
}

/// Sets the routing stage's goal to `q` (its search starts afresh only where the goal
/// changed) and lets it move the bot.
fn route_to(route: &mut RouteState, q: Vec3) {
    if route.goal.map(|g| g.point) != Some(q) {
        *route = RouteState {
            goal: Some(RouteGoal {
                point: q,
                flags: TravelFlags::ALL,
            }),
            ..Default::default()
        };
    }
    route.hold = false;
}
