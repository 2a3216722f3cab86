//! The nearness [`Metric`] the planner's tree is grown under, and the tree's [`Node`].

use glam::Vec3;

use crate::physics::pmove::{PlayerState, UserCmd};

/// How "near" a tree node is to a sampled point.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum Metric {
    /// Straight-line distance.
    Euclidean,
    /// Height differences count `w` times (w ≥ 1).
    Height(f32),
    /// The route time on the compiled area graph from the node's area to the point's, at
    /// running speed (never less than the straight distance); needs
    /// [`PlanConfig::area_metric`], else it is Euclidean.
    Area,
}

impl Metric {
    /// The metric a user names: `euclidean`, `height` (height differences ×3) or `area`
    /// (route time on the compiled area graph).
    pub fn from_name(name: &str) -> Result<Metric, String> {
        match name {
            "height" => Ok(Metric::Height(3.0)),
            "euclidean" => Ok(Metric::Euclidean),
            "area" => Ok(Metric::Area),
            m => Err(format!(
                "--metric {m:?}: expected euclidean, height or area"
            )),
        }
    }

    fn weight(self) -> f32 {
        match self {
            Metric::Euclidean | Metric::Area => 1.0,
            Metric::Height(w) => w.max(1.0),
        }
    }

    /// The distance between two points (for [`Metric::Area`] the straight one: a lower
    /// bound of its route distance).
    pub fn distance(self, a: Vec3, b: Vec3) -> f32 {
        let d = a - b;
        let w = self.weight();
        (d.x * d.x + d.y * d.y + w * w * d.z * d.z).sqrt()
    }
}

/// A state of the tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The player's state.
    pub state: PlayerState,
    /// The node it was reached from (`u32::MAX` at the root).
    pub parent: u32,
    /// The controls held from the parent.
    pub cmd: UserCmd,
    /// Steps from the root.
    pub steps: u32,
    /// Where its lifts' states are in [`Plan::movers`] (block `movers`, one state per lift).
    pub movers: u32,
}
