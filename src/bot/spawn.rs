//! The components a bot carries, inserted into a player entity by the layer that owns them
//! (the `tick` layer spawns the player and calls [`insert_components`]).

use glam::Vec3;

use super::Senses;
use super::compiled::{AreaNav, Navigation};
use super::control::{Controller, ControllerConfig};
use super::{Percepts, brain, movement, prediction, routing, waypoints};

/// Inserts the components a bot carries into player entity `e` of `world`: its controller
/// (from `cfg`, at `origin` facing `yaw`), senses and percepts, movement request, status,
/// memory and tuning, tracked enemies, dropping memory, route state and fallback, how it
/// navigates (learned, until [`set_navigation`] says otherwise), and a brain for a brain
/// bot on a map with `items` items.
pub fn insert_components(
    world: &mut hecs::World,
    e: hecs::Entity,
    cfg: &ControllerConfig,
    senses: Senses,
    origin: Vec3,
    yaw: f32,
    items: usize,
) {
    let controller = Controller::new(cfg, origin, yaw);
    // The movement stage walks off what the controller's choices do (an explorer drops off
    // ledges a match bot walks round, see `explore::MAX_DROP`).
    let tuning = match &controller {
        Controller::Explore(ex) => movement::MoveParams {
            max_drop: ex.max_drop,
            hold_edges: true,
            ..Default::default()
        },
        _ => movement::MoveParams::default(),
    };
    // Reachability tests for the controllers that read them, unless the senses say.
    let senses = Senses {
        reach_checks: Some(
            senses
                .reach_checks
                .unwrap_or(controller.reads_reachability()),
        ),
        ..senses
    };
    world
        .insert(
            e,
            (
                controller,
                senses,
                Percepts::default(),
                movement::MoveIntent::default(),
                movement::MoveStatus::default(),
                movement::MoveMemory::default(),
                tuning,
                prediction::Tracking::default(),
                waypoints::Dropper::default(),
                routing::RouteState::default(),
                routing::Roam::new(origin),
                AreaNav::default(),
                Navigation::Learned,
            ),
        )
        .expect("a spawned player entity");
    if let ControllerConfig::Brain(skill) = cfg {
        world
            .insert_one(e, brain::Brain::new(*skill, origin, items))
            .expect("a spawned player entity");
    }
}

/// Sets how the bot in player entity `e` navigates; a compiled-navigation brain bot knows
/// every item of the map from the start (as it knows the map).
pub fn set_navigation(world: &mut hecs::World, e: hecs::Entity, navigation: Navigation) {
    if let Ok(mut nav) = world.get::<&mut AreaNav>(e) {
        *nav = AreaNav::new(navigation);
    }
    if let Ok(mut nav) = world.get::<&mut Navigation>(e) {
        *nav = navigation;
    }
    if navigation == Navigation::Compiled
        && let Ok(mut b) = world.get::<&mut brain::Brain>(e)
    {
        b.known.iter_mut().for_each(|k| *k = true);
    }
}
