use super::*;

use glam::Vec3;

use crate::nav::waypoints::GraphStats;

fn report(covered: f64, missing: &[(&str, usize)], beyond: &[(&str, usize)]) -> ExploreReport {
    let map = |l: &[(&str, usize)]| l.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    ExploreReport {
        map: "m".into(),
        bots: 4,
        seconds: 600.0,
        seed: 0,
        graph: GraphStats::default(),
        important_items: 3,
        items_with_waypoint: 3 - missing.iter().map(|m| m.1).sum::<usize>(),
        items_missing: map(missing),
        links_connected: 0,
        waypoints_in_solid: 0,
        against_nav: Some(NavCoverage {
            reachable_floor: 100.0,
            reachable_covered: covered,
            ..Default::default()
        }),
        items_beyond_nav: Some(map(beyond)),
        routable: Some(Routable {
            waypoints: 100,
            routable: covered as usize,
            one_way: 0,
        }),
    }
}

#[test]
fn a_summary_counts_only_items_within_reach_and_runs_at_the_goal() {
    let runs = [
        // The quad is beyond the compiled graph's reach: not held against the run.
        report(95.0, &[("quad", 1)], &[("quad", 1)]),
        // Two rocket launchers, one beyond reach: the other is missing.
        report(80.0, &[("rl", 2)], &[("rl", 1)]),
        report(90.0, &[("ssg", 1)], &[]),
    ];
    let s = summarize(&runs);
    assert_eq!((s.runs, s.measured, s.at_goal, s.all_items), (3, 3, 2, 1));
    assert!(
        (s.mean_reachable - 0.883_333).abs() < 1e-5,
        "{}",
        s.mean_reachable
    );
    assert!((s.min_reachable - 0.8).abs() < 1e-9);
    // The routable share likewise (here equal to the covered share).
    assert!((s.mean_routable - 0.883_333).abs() < 1e-5);
    assert!((s.min_routable - 0.8).abs() < 1e-9);
    let unmarked: Vec<_> = s.items_unmarked.into_iter().collect();
    assert_eq!(unmarked, [("rl".to_string(), 1), ("ssg".to_string(), 1)]);
    let none = summarize(&[]);
    assert_eq!((none.runs, none.min_reachable), (0, 0.0));
}

#[test]
fn missed_places_join_neighbouring_uncovered_cells_on_one_floor() {
    let cell = |x: f32, y: f32, z: f32, reachable: bool, covered: bool| CellCoverage {
        area: 0,
        at: Vec3::new(x, y, z),
        reachable,
        covered,
        near: covered,
    };
    let mut cells = Vec::new();
    // A room of 3 x 2 cells nobody reached, one covered cell in it.
    for x in 0..3 {
        for y in 0..2 {
            cells.push(cell(
                4.0 + 8.0 * x as f32,
                4.0 + 8.0 * y as f32,
                24.0,
                true,
                x == 2 && y == 1,
            ));
        }
    }
    // A stair step up from its corner (joins), a ledge 64 over it (apart), a cell
    // touching only at a corner (joins), a far cell (apart), and an unreachable cell.
    cells.push(cell(28.0, 4.0, 40.0, true, false));
    cells.push(cell(12.0, 12.0, 88.0, true, false));
    cells.push(cell(-4.0, -4.0, 24.0, true, false));
    cells.push(cell(200.0, 200.0, 24.0, true, false));
    cells.push(cell(204.0, 200.0, 24.0, false, false));
    let m = missed_places(&cells, 8.0, 5);
    let floors: Vec<f64> = m.iter().map(|p| p.floor).collect();
    assert_eq!(floors, [7.0 * 64.0, 64.0, 64.0]);
    assert_eq!(m[0].mins, Vec3::new(-4.0, -4.0, 24.0));
    assert_eq!(m[0].maxs, Vec3::new(28.0, 12.0, 40.0));
    // Ties in size go by position: the ledge (x 12) before the far cell (x 200).
    assert_eq!(m[1].at, Vec3::new(12.0, 12.0, 88.0));
    assert_eq!(m[2].at, Vec3::new(200.0, 200.0, 24.0));
    assert_eq!(missed_places(&cells, 8.0, 1).len(), 1);
    assert!(missed_places(&[], 8.0, 5).is_empty());
}
