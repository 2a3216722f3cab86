//! The text of an exploration's report, and several runs of one map summed up
//! ([`summarize`]): how learning varies from seed to seed.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{COVER_RADIUS, ExploreReport};

/// The share of the floor the compiled graph reaches from the spawn points that explorers
/// are to cover ([`ExploreSummary::at_goal`]).
pub const GOAL_SHARE: f64 = 0.9;

/// Several explorations of one map with different seeds, summed up: how learning varies
/// from seed to seed (one run says little: the same map gives 76 % on one seed and 93 % on
/// the next where a door is found or not).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ExploreSummary {
    /// Runs summed up.
    pub runs: usize,
    /// Runs measured against the compiled graph.
    pub measured: usize,
    /// Mean share of the reachable floor within reach of a waypoint, 0..1 (over `measured`).
    pub mean_reachable: f64,
    /// The least of those shares.
    pub min_reachable: f64,
    /// Runs that cover at least [`GOAL_SHARE`] of the reachable floor.
    pub at_goal: usize,
    /// Runs where every weapon and powerup the compiled graph reaches has an item waypoint.
    pub all_items: usize,
    /// Per item class still without a waypoint in some run, the runs where an instance the
    /// compiled graph reaches has none (instances beyond its reach are not counted).
    pub items_unmarked: BTreeMap<String, usize>,
    /// Mean routable share of the waypoints the map lets join ([`Routable::share`]) over
    /// the runs measured against the compiled graph, 0..1.
    pub mean_routable: f64,
    /// The least of those shares.
    pub min_routable: f64,
}

/// [`ExploreSummary`] of `reports` (one map, several seeds).
pub fn summarize(reports: &[ExploreReport]) -> ExploreSummary {
    let mut out = ExploreSummary {
        runs: reports.len(),
        min_reachable: 1.0,
        ..Default::default()
    };
    let mut sum = 0.0;
    let routable: Vec<f64> = reports
        .iter()
        .filter_map(|r| r.routable.map(|x| x.share()))
        .collect();
    if !routable.is_empty() {
        out.mean_routable = routable.iter().sum::<f64>() / routable.len() as f64;
        out.min_routable = routable.iter().copied().fold(1.0, f64::min);
    }
    for r in reports {
        if let Some(c) = &r.against_nav {
            let share = c.reachable_share();
            out.measured += 1;
            sum += share;
            out.min_reachable = out.min_reachable.min(share);
            out.at_goal += (share >= GOAL_SHARE) as usize;
        }
        let beyond = r.items_beyond_nav.clone().unwrap_or_default();
        let mut all = true;
        for (class, n) in &r.items_missing {
            if *n > beyond.get(class).copied().unwrap_or(0) {
                *out.items_unmarked.entry(class.clone()).or_insert(0) += 1;
                all = false;
            }
        }
        out.all_items += all as usize;
    }
    if out.measured > 0 {
        out.mean_reachable = sum / out.measured as f64;
    } else {
        out.min_reachable = 0.0;
    }
    out
}

impl ExploreSummary {
    /// Readable text.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        if self.measured > 0 {
            let _ = writeln!(
                s,
                "reachable   mean {:.1} %, least {:.1} % of the floor reachable from the spawn \
                 points within reach of a waypoint; {} of {} runs at {:.0} % or more",
                100.0 * self.mean_reachable,
                100.0 * self.min_reachable,
                self.at_goal,
                self.measured,
                100.0 * GOAL_SHARE,
            );
            let _ = writeln!(
                s,
                "routable    mean {:.1} %, least {:.1} % of the waypoints the map lets join \
                 (one-way ones left out) in the largest strongly connected part",
                100.0 * self.mean_routable,
                100.0 * self.min_routable,
            );
        }
        let _ = writeln!(
            s,
            "items       every weapon and powerup within reach marked in {} of {} runs{}",
            self.all_items,
            self.runs,
            if self.items_unmarked.is_empty() {
                String::new()
            } else {
                format!(
                    " (unmarked: {})",
                    classes(&self.items_unmarked, |k, v| format!("{k} in {v}"))
                )
            }
        );
        s
    }
}

/// Item classes with a number each, as `show` writes them, comma separated.
fn classes(items: &BTreeMap<String, usize>, show: impl Fn(&str, usize) -> String) -> String {
    items
        .iter()
        .map(|(k, v)| show(k, *v))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "2 weapon_nailgun": how many of a class.
fn count(class: &str, n: usize) -> String {
    format!("{n} {class}")
}

impl ExploreReport {
    /// Readable text.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "map         {} — {} bots, {:.0} s simulated, seed {}",
            self.map, self.bots, self.seconds, self.seed
        );
        s.push_str(&self.graph.to_text());
        if self.links_connected > 0 {
            let _ = writeln!(
                s,
                "closing     {} links tie stray waypoints to the routable part",
                self.links_connected
            );
        }
        let _ = writeln!(
            s,
            "items       {} of {} weapons and powerups have an item waypoint{}",
            self.items_with_waypoint,
            self.important_items,
            if self.items_missing.is_empty() {
                String::new()
            } else {
                format!(" (missing: {})", classes(&self.items_missing, count))
            }
        );
        if let Some(beyond) = self.items_beyond_nav.as_ref().filter(|b| !b.is_empty()) {
            let _ = writeln!(
                s,
                "            the compiled graph reaches no spawn point's way to: {}",
                classes(beyond, count)
            );
        }
        let _ = writeln!(s, "in solid    {}", self.waypoints_in_solid);
        if let Some(c) = &self.against_nav {
            let _ = writeln!(
                s,
                "vs compiled {:.1} % of the compiled areas' floor within reach of a waypoint \
                 ({} of {} areas touched); {:.1} % of the floor reachable from the spawn \
                 points ({:.1} % of the floor is); with a waypoint within {COVER_RADIUS} \
                 units in sight: {:.1} % of the floor, {:.1} % of the reachable floor",
                100.0 * c.share(),
                c.areas_touched,
                c.areas,
                100.0 * c.reachable_share(),
                100.0 * c.reachable_floor / c.floor.max(1.0),
                100.0 * c.near / c.floor.max(1.0),
                100.0 * c.reachable_near_share(),
            );
            for m in &c.missed {
                let _ = writeln!(s, "left        {}", c.describe(m));
            }
        }
        if let Some(r) = &self.routable {
            let _ = writeln!(s, "{}", r.to_text());
        }
        s
    }
}
